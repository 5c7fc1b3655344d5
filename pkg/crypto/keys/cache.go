package keys

import "sync"

// cacheGeneration is the number of keys one generation of the decompression
// cache holds. Two generations are kept, so between cacheGeneration and
// 2*cacheGeneration recently used keys stay decompressed (a validator set,
// the committee and the busiest senders of a block fit many times over).
const cacheGeneration = 4096

// keyCache maps compressed encodings to decoded keys. It is a two-generation
// approximation of an LRU: hits in the old generation are promoted, and when
// the current generation fills up it becomes the old one. Lookups and
// insertions are O(1) under one short mutex.
type keyCache struct {
	size int // keys per generation
	mu   sync.Mutex
	cur  map[[CompressedLen]byte]*PublicKey
	old  map[[CompressedLen]byte]*PublicKey
}

var caches = [2]*keyCache{newKeyCache(cacheGeneration), newKeyCache(cacheGeneration)}

func newKeyCache(size int) *keyCache {
	return &keyCache{size: size, cur: make(map[[CompressedLen]byte]*PublicKey, size)}
}

// get returns the cached key for k, promoting it from the old generation.
func (c *keyCache) get(k *[CompressedLen]byte) *PublicKey {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p, ok := c.cur[*k]; ok {
		return p
	}
	if p, ok := c.old[*k]; ok {
		c.putLocked(k, p)
		return p
	}
	return nil
}

// put stores a decoded key.
func (c *keyCache) put(k *[CompressedLen]byte, p *PublicKey) {
	c.mu.Lock()
	c.putLocked(k, p)
	c.mu.Unlock()
}

// putLocked stores p, rotating generations when the current one is full.
// REQUIRES: c.mu held.
func (c *keyCache) putLocked(k *[CompressedLen]byte, p *PublicKey) {
	if len(c.cur) >= c.size {
		c.old = c.cur
		c.cur = make(map[[CompressedLen]byte]*PublicKey, c.size)
	}
	c.cur[*k] = p
}

// cachedDecompress decodes a 33-byte compressed key through the cache of
// its curve. b must be 33 bytes long. The caller gets its own copy of the
// cached value (the heavy parts, the decoded points, are immutable and
// shared), so a caller decoding into its key cannot corrupt the cache.
func cachedDecompress(b []byte, c Curve) (*PublicKey, error) {
	k := [CompressedLen]byte(b)
	kc := caches[c]
	p := kc.get(&k)
	if p == nil {
		var err error
		if p, err = decodePoint(b, c); err != nil {
			return nil, err
		}
		kc.put(&k, p)
	}
	cp := *p
	return &cp, nil
}
