package keys

import (
	"math/bits"
	"runtime"
	"sync/atomic"

	"filippo.io/nistec"
)

// Verification of secp256r1 signatures: hot keys (and G) through comb
// tables (p256comb.go), other keys through nistec.
//
// For a key without a table, u2·Q is computed by nistec's assembly: any
// method needs about 255 doublings then, and nistec's constant-time scalar
// multiplication does them about 1.4 times as fast as our Go field
// arithmetic would (measured with the pure-Go field; the amd64 assembly of
// p256field_amd64.s may change that, not measured yet). u1·G still comes
// from G's table, and crypto/ecdsa's per-call work (DER encoding and
// parsing, decoding the key, big.Int conversions) is saved.
const (
	hotThreshold = 16
	maxHotTables = 128
	// A key that keeps verifying (a validator, an exchange's hot wallet,
	// a benchmark's sender) gets a wider table once it has verified
	// wideThreshold times: 10-bit windows (26 of 512 points, 852 KB,
	// ~9 ms to build) instead of 7-bit ones take u2·Q from 37 to 26
	// additions, a verification ~15% less CPU (BenchmarkP256VerifyWide);
	// at most maxWideTables keys have one (3.4 MB).
	wideThreshold = 4096
	maxWideTables = 4
	combBitsWide  = 10
)

// liveTables counts built hot-key tables not yet collected, liveWide the
// wide ones among them.
var liveTables, liveWide atomic.Int32

// hotKey is the per-point verification state shared by every copy of a
// decoded secp256r1 key.
type hotKey struct {
	q        p256Affine // the key in Montgomery form
	nq       *nistec.P256Point
	uses     atomic.Int32 // verifications before the wide table
	building atomic.Bool  // the first table is (being) built
	widening atomic.Bool  // the wide table is (being) built
	table    atomic.Pointer[p256Comb]
}

// newHotKey makes the state of the key with big-endian coordinates x, y,
// which must be a validated point of the curve.
func newHotKey(x, y *[32]byte) *hotKey {
	h := new(hotKey)
	cx, cy := limbsFromBytes(x), limbsFromBytes(y)
	if !h.q.x.setCanonical(&cx) || !h.q.y.setCanonical(&cy) {
		panic("keys: unreduced coordinate in a validated P-256 key")
	}
	var err error
	if h.nq, err = nistec.NewP256Point().SetBytes(append(append([]byte{4}, x[:]...), y[:]...)); err != nil {
		panic("keys: invalid validated P-256 key")
	}
	return h
}

// combTable returns the key's comb table, building it once the key is hot
// and replacing it with a wide one once the key is very hot. It returns
// nil while the key is not hot (or too many tables exist).
func (h *hotKey) combTable() *p256Comb {
	t := h.table.Load()
	if t != nil && t.bits == combBitsWide {
		return t
	}
	n := h.uses.Add(1)
	if t == nil {
		if n < hotThreshold || liveTables.Load() >= maxHotTables ||
			!h.building.CompareAndSwap(false, true) {
			return nil
		}
		return h.build(combBitsQ, &liveTables)
	}
	if n < wideThreshold || liveWide.Load() >= maxWideTables || !h.widening.CompareAndSwap(false, true) {
		return t
	}
	return h.build(combBitsWide, &liveWide)
}

// build makes, stores and returns the key's table with the given window
// size, counted in live until the key is collected.
func (h *hotKey) build(bits uint, live *atomic.Int32) *p256Comb {
	var q p256Jac
	t := newP256Comb(q.setAffine(&h.q.x, &h.q.y), bits)
	live.Add(1)
	runtime.AddCleanup(h, func(struct{}) { live.Add(-1) }, struct{}{})
	h.table.Store(t)
	return t
}

// verify checks a signature by the key, with its comb table once it is hot.
func (h *hotKey) verify(sig, digest []byte) bool {
	if t := h.combTable(); t != nil {
		return p256Verify(t, sig, digest)
	}
	return p256VerifyNistec(h.nq, sig, digest)
}

// p256Verify is ECDSA verification (SEC 1 §4.1.4) of a 64-byte r‖s
// signature against the key whose comb table is t. The acceptance
// rules are those of crypto/ecdsa: r, s in [1, N-1], e the leftmost 256
// bits of digest reduced mod N, R = u1·G + u2·Q not the point at infinity,
// x(R) mod N = r. High S is accepted.
func p256Verify(t *p256Comb, sig, digest []byte) bool {
	r, u1, u2, ok := p256VerifyScalars(sig, digest)
	if !ok {
		return false
	}
	g := p256GComb()
	var qd, gd [64]int32
	q1 := qd[:signedDigits(&u2, t.bits, &qd)]
	g1 := gd[:signedDigits(&u1, g.bits, &gd)]
	touchPoints(t, q1, g, g1)
	var acc p256XYZZ
	t.addDigits(&acc, q1)
	g.addDigits(&acc, g1)
	return acc.xModNEquals(&r)
}

// p256VerifyNistec is p256Verify for a key without a table: u2·Q with
// nistec, then u1·G from G's comb table.
func p256VerifyNistec(q *nistec.P256Point, sig, digest []byte) bool {
	r, u1, u2, ok := p256VerifyScalars(sig, digest)
	if !ok {
		return false
	}
	var k [32]byte
	(*p256Elem)(&u2).putBytes(&k)
	var p nistec.P256Point
	if _, err := p.ScalarMult(q, k[:]); err != nil {
		return false
	}
	var acc p256XYZZ // u2·Q, the point at infinity unless set below
	if enc := p.Bytes(); len(enc) == UncompressedLen {
		x := limbsFromBytes((*[32]byte)(enc[1:]))
		y := limbsFromBytes((*[32]byte)(enc[1+coordLen:]))
		acc.x.setCanonical(&x)
		acc.y.setCanonical(&y)
		acc.zz, acc.zzz = p256One, p256One
	}
	p256GComb().addMul(&acc, &u1)
	return acc.xModNEquals(&r)
}

// xModNEquals tells whether p is not the point at infinity and
// x(p) mod N = r, for 0 < r < N.
func (p *p256XYZZ) xModNEquals(r *p256Scalar) bool {
	if p.isInfinity() {
		return false
	}
	var rzz, re p256Elem
	re.setCanonical((*p256Elem)(r)) // r < N < p
	if *rzz.mul(&re, &p.zz) == p.x {
		return true
	}
	// x(p) < p < 2N, so x(p) mod N = r also when x(p) = r + N < p.
	rn, c := addScalar(r, &p256N)
	if c != 0 || !re.setCanonical(&rn) {
		return false
	}
	return *rzz.mul(&re, &p.zz) == p.x
}

// addScalar returns the limbs of a + b and the carry out.
func addScalar(a, b *p256Scalar) (p256Elem, uint64) {
	var s p256Elem
	var c uint64
	for i := range s {
		s[i], c = bits.Add64(a[i], b[i], c)
	}
	return s, c
}
