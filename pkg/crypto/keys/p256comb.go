package keys

import (
	"encoding/binary"
	"math/big"
	"runtime"
	"sync/atomic"

	"filippo.io/nistec"
)

// Fast secp256r1 verification for hot keys.
//
// ECDSA verification computes u1·G + u2·Q. crypto/ecdsa does u2·Q with a
// constant-time scalar multiplication (255 doublings and ~52 additions)
// every time. For a key that signs again and again (validators, busy
// senders) we precompute a comb table once:
//
//	T[w][d-1] = d · 2^(5w) · Q    for windows w = 0..51, digits d = 1..31
//
// so that u2·Q = Σ_w T[w][digit_w(u2)] is at most 52 additions and no
// doubling. Verification is public data, so the variable-time table walk
// leaks nothing secret. A table takes 52·31 points of 96 bytes (≈155 KB)
// and about as long to build as ten verifications, so it is only built for
// a key after hotThreshold verifications, and at most maxHotTables tables
// live at once.
const (
	combBits     = 5
	combWindows  = (256 + combBits - 1) / combBits
	combEntries  = 1<<combBits - 1
	hotThreshold = 16
	maxHotTables = 128
)

type p256Table [combWindows][combEntries]nistec.P256Point

// p256Order is N of P-256.
var p256Order, _ = new(big.Int).SetString("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16)

// liveTables counts built tables not yet collected.
var liveTables atomic.Int32

// hotKey is the per-point verification state shared by every copy of a
// decoded secp256r1 key.
type hotKey struct {
	uses     atomic.Int32
	building atomic.Bool
	table    atomic.Pointer[p256Table]
}

// verifyHot verifies with the comb table when there is one, building it
// once the key is hot; ok is false when the caller must use crypto/ecdsa.
func (p *PublicKey) verifyHot(sig, digest []byte) (valid, ok bool) {
	h := p.hot
	if h == nil {
		return false, false
	}
	t := h.table.Load()
	if t == nil {
		if h.uses.Add(1) < hotThreshold || liveTables.Load() >= maxHotTables ||
			!h.building.CompareAndSwap(false, true) {
			return false, false
		}
		var err error
		if t, err = newP256Table(p.UncompressedBytes()); err != nil {
			return false, false // cannot happen for a decoded key
		}
		liveTables.Add(1)
		runtime.AddCleanup(h, func(struct{}) { liveTables.Add(-1) }, struct{}{})
		h.table.Store(t)
	}
	return t.verify(sig, digest), true
}

// newP256Table builds the comb table of the point with the given
// uncompressed encoding.
func newP256Table(uncompressed []byte) (*p256Table, error) {
	base, err := newPoint(uncompressed)
	if err != nil {
		return nil, err
	}
	t := new(p256Table)
	for w := range combWindows {
		t[w][0].Set(base)
		for d := 1; d < combEntries; d++ {
			t[w][d].Add(&t[w][d-1], base)
		}
		for range combBits {
			base.Double(base)
		}
	}
	return t, nil
}

// mul returns k·Q for a 32-byte big-endian scalar.
func (t *p256Table) mul(k *[32]byte) *nistec.P256Point {
	var limbs [4]uint64 // little-endian 64-bit limbs of k
	for i := range limbs {
		limbs[i] = binary.BigEndian.Uint64(k[32-8*(i+1):])
	}
	acc := nistec.NewP256Point()
	for w := range combWindows {
		if d := combDigit(&limbs, w); d != 0 {
			acc.Add(acc, &t[w][d-1])
		}
	}
	return acc
}

// combDigit returns bits [5w, 5w+5) of the scalar.
func combDigit(l *[4]uint64, w int) uint64 {
	off := w * combBits
	i, sh := off/64, uint(off%64)
	v := l[i] >> sh
	if sh > 64-combBits && i+1 < len(l) {
		v |= l[i+1] << (64 - sh)
	}
	return v & (1<<combBits - 1)
}

// verify is ECDSA verification (SEC 1 §4.1.4) of a 64-byte r‖s signature,
// with the same acceptance rules as crypto/ecdsa: r, s in [1, N-1], e the
// leftmost 256 bits of digest reduced mod N, R = u1·G + u2·Q not infinity,
// x(R) mod N == r. High S is accepted.
func (t *p256Table) verify(sig, digest []byte) bool {
	r := new(big.Int).SetBytes(sig[:coordLen])
	s := new(big.Int).SetBytes(sig[coordLen:])
	if r.Sign() == 0 || s.Sign() == 0 || r.Cmp(p256Order) >= 0 || s.Cmp(p256Order) >= 0 {
		return false
	}
	if len(digest) > coordLen {
		digest = digest[:coordLen]
	}
	e := new(big.Int).SetBytes(digest)
	w := new(big.Int).ModInverse(s, p256Order)
	u1 := e.Mul(e, w)
	u1.Mod(u1, p256Order)
	u2 := w.Mul(r, w)
	u2.Mod(u2, p256Order)

	var b1, b2 [32]byte
	u1.FillBytes(b1[:])
	u2.FillBytes(b2[:])
	p1, err := nistec.NewP256Point().ScalarBaseMult(b1[:])
	if err != nil {
		return false
	}
	p1.Add(p1, t.mul(&b2))
	x, err := p1.BytesX() // fails for the point at infinity
	if err != nil {
		return false
	}
	xn := new(big.Int).SetBytes(x)
	if xn.Cmp(p256Order) >= 0 {
		xn.Sub(xn, p256Order) // x < p < 2N
	}
	return xn.Cmp(r) == 0
}

// newPoint decodes an uncompressed point (for tests and table building).
func newPoint(uncompressed []byte) (*nistec.P256Point, error) {
	return nistec.NewP256Point().SetBytes(uncompressed)
}
