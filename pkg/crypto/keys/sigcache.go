package keys

import (
	"crypto/sha256"
	"encoding/binary"
)

// SigCache remembers signatures that verified, so a signature checked once
// (a transaction entering the mempool) costs a hash and a map lookup when
// checked again (the same transaction in a block). ECDSA verification is a
// pure function of key, digest and signature, so a remembered success is
// always right; failures are not remembered. Safe for concurrent use.
type SigCache struct {
	c *genCache[[sha256.Size]byte, struct{}]
}

// NewSigCache makes a cache that holds between size and 2*size successes.
func NewSigCache(size int) *SigCache {
	if size < 1 {
		size = 1
	}
	return &SigCache{c: newGenCache[[sha256.Size]byte, struct{}](size)}
}

// Verify is p.Verify(sig, digest), answered from the cache when this exact
// key, signature and digest verified before.
func (s *SigCache) Verify(p *PublicKey, sig, digest []byte) bool {
	if !p.set || len(sig) != SignatureLen {
		return false
	}
	id := sigID(p, sig, digest)
	if _, ok := s.c.get(id); ok {
		return true
	}
	if !p.Verify(sig, digest) {
		return false
	}
	s.c.put(id, struct{}{})
	return true
}

// sigID identifies (curve, key, signature, digest) unambiguously: every part
// but the digest has a fixed length, and the digest's length is included.
func sigID(p *PublicKey, sig, digest []byte) [sha256.Size]byte {
	var buf [1 + CompressedLen + SignatureLen + 4]byte
	buf[0] = byte(p.curve)
	copy(buf[1:], p.comp[:])
	copy(buf[1+CompressedLen:], sig)
	binary.LittleEndian.PutUint32(buf[1+CompressedLen+SignatureLen:], uint32(len(digest)))
	h := sha256.New()
	h.Write(buf[:])
	h.Write(digest)
	var id [sha256.Size]byte
	h.Sum(id[:0])
	return id
}
