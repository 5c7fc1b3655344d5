package keys

import (
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
type SigCache struct {
	ok   *genCache[[sha256.Size]byte, struct{}]
	fail *genCache[[sha256.Size]byte, struct{}]
}

// NewSigCache makes a cache that holds between size and 2*size successes
// and between size/4 and size/2 failures.
func NewSigCache(size int) *SigCache {
	if size < 1 {
		size = 1
	}
	return &SigCache{
		ok:   newGenCache[[sha256.Size]byte, struct{}](size),
		fail: newGenCache[[sha256.Size]byte, struct{}](max(size/4, 1)),
	}
}

// Verify is p.Verify(sig, digest), answered from the cache when this exact
// key, signature and digest was checked before.
func (s *SigCache) Verify(p *PublicKey, sig, digest []byte) bool {
	if !p.set || len(sig) != SignatureLen {
		return false
	}
	id := sigID(p, sig, digest)
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
