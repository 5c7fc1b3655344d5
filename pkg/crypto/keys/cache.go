package keys

import "sync"

// cacheGeneration is the number of keys one generation of the decompression
// cache holds. Two generations are kept, so between cacheGeneration and
// 2*cacheGeneration recently used keys stay decompressed (a validator set,
// the committee and the busiest senders of a block fit many times over).
const cacheGeneration = 4096

// genCache is a two-generation approximation of an LRU: hits in the old
// generation are promoted, and when the current generation fills up it
// becomes the old one (the previous old one is dropped). Lookups and
// insertions are O(1) under one short mutex; it holds at most 2*size
// entries.
type genCache[K comparable, V any] struct {
	size int // entries per generation
	mu   sync.Mutex
	cur  map[K]V
	old  map[K]V
}

// newGenCache makes a cache of generations of size entries. The first
// generation is made on the first put: a cache never used (the secp256k1
// keys of a node that sees none) costs nothing.
func newGenCache[K comparable, V any](size int) *genCache[K, V] {
	return &genCache[K, V]{size: size}
}

// get returns the cached value for k, promoting it from the old generation.
func (c *genCache[K, V]) get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.cur[k]; ok {
		return v, true
	}
	v, ok := c.old[k]
	if ok {
		c.putLocked(k, v)
	}
	return v, ok
}

// put stores a value.
func (c *genCache[K, V]) put(k K, v V) {
	c.mu.Lock()
	c.putLocked(k, v)
	c.mu.Unlock()
}

// putLocked stores v, rotating generations when the current one is full.
// A new generation starts empty and grows as it fills, not at its full
// size: the signature cache's generations are a mempool's worth of entries
// (~1 MB each), its failure generations rarely fill, and a generation made
// at full size is all live memory from the moment it replaces the old one.
// REQUIRES: c.mu held.
func (c *genCache[K, V]) putLocked(k K, v V) {
	if c.cur == nil || len(c.cur) >= c.size {
		c.old = c.cur
		c.cur = make(map[K]V)
	}
	c.cur[k] = v
}

// keyCache maps compressed encodings to decoded keys.
type keyCache = genCache[[CompressedLen]byte, *PublicKey]

var caches = [2]*keyCache{
	newGenCache[[CompressedLen]byte, *PublicKey](cacheGeneration),
	newGenCache[[CompressedLen]byte, *PublicKey](cacheGeneration),
}

// cachedDecompress decodes a 33-byte compressed key through the cache of
// its curve. b must be 33 bytes long. The caller gets its own copy of the
// cached value (the heavy parts, the decoded points, are immutable and
// shared), so a caller decoding into its key cannot corrupt the cache.
func cachedDecompress(b []byte, c Curve) (*PublicKey, error) {
	k := [CompressedLen]byte(b)
	kc := caches[c]
	p, ok := kc.get(k)
	if !ok {
		var err error
		if p, err = decodePoint(b, c); err != nil {
			return nil, err
		}
		kc.put(k, p)
	}
	cp := *p
	return &cp, nil
}
