package keys

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
)

// SigCache remembers the outcome of signature checks, so a signature checked
// once (a transaction entering the mempool, a block's witness pre-verified
// while it waits to be added) costs a hash and a map lookup when checked
// again. ECDSA verification is a pure function of key, digest and
// signature, so a remembered outcome is always right. Failures matter as
// much as successes: a multisig witness tries signatures against keys in
// order, and every signer that is not among the first keys costs a failed
// check, each time the witness is checked. Failures are kept apart, in a
// generation a quarter of the size, so a flood of bad signatures cannot
// evict the successes. Safe for concurrent use.
//
// An entry is a 128-bit identifier of (key, signature, digest): SHA-256
// over a secret random salt of the cache and the three, cut to 16 bytes.
// A whole digest would double the cache (it holds a pool's worth of
// successes, two generations of MemPoolSize by default); the salt keeps
// the cut safe: without it nobody can compute identifiers, so an invalid
// signature passes for a remembered one only by chance, with a
// probability of at most entries/2^128 per try.
type SigCache struct {
	salt [sigSaltLen]byte
	ok   *genCache[sigKey, struct{}]
	fail *genCache[sigKey, struct{}]
}

// sigKey identifies a checked signature in a SigCache.
type sigKey [16]byte

// sigSaltLen is the length of a SigCache's secret salt.
const sigSaltLen = 32

// NewSigCache makes a cache that holds between size and 2*size successes
// and between size/4 and size/2 failures.
func NewSigCache(size int) *SigCache {
	if size < 1 {
		size = 1
	}
	s := &SigCache{
		ok:   newGenCache[sigKey, struct{}](size),
		fail: newGenCache[sigKey, struct{}](max(size/4, 1)),
	}
	rand.Read(s.salt[:]) // never fails (crypto/rand panics instead)
	return s
}

// Verify is p.Verify(sig, digest), answered from the cache when this exact
// key, signature and digest was checked before.
func (s *SigCache) Verify(p *PublicKey, sig, digest []byte) bool {
	if !p.set || len(sig) != SignatureLen {
		return false
	}
	id := s.sigID(p, sig, digest)
	if _, ok := s.ok.get(id); ok {
		return true
	}
	if _, failed := s.fail.get(id); failed {
		return false
	}
	if !p.Verify(sig, digest) {
		s.fail.put(id, struct{}{})
		return false
	}
	s.ok.put(id, struct{}{})
	return true
}

// sigID identifies (curve, key, signature, digest) under the cache's salt:
// the input is unambiguous, every part but the digest has a fixed length
// and the digest's length is included.
func (s *SigCache) sigID(p *PublicKey, sig, digest []byte) sigKey {
	var buf [sigSaltLen + 1 + CompressedLen + SignatureLen + 4]byte
	copy(buf[:], s.salt[:])
	b := buf[sigSaltLen:]
	b[0] = byte(p.curve)
	copy(b[1:], p.comp[:])
	copy(b[1+CompressedLen:], sig)
	binary.LittleEndian.PutUint32(b[1+CompressedLen+SignatureLen:], uint32(len(digest)))
	h := sha256.New()
	h.Write(buf[:])
	h.Write(digest)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sigKey(sum[:len(sigKey{})])
}
