package keys

import (
	"crypto/elliptic"

	"filippo.io/nistec"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
)

// Fast secp256r1 verification.
//
// ECDSA verification computes R = u1·G + u2·Q and compares x(R) mod N with
// r. crypto/ecdsa computes both products with constant-time scalar
// multiplications. Verification handles public data only, so for keys that
// verify again and again (validators, busy senders) we use precomputed
// tables and variable-time sums, with our own field arithmetic
// (p256field.go) and formulas that branch on special cases (p256point.go):
//
//   - u1·G: a signed comb table of G, T[w][d-1] = d·2^(10w)·G for windows
//     w = 0..25 and digits d = 1..512, affine, built once per process
//     (852 KB, about 7 ms). u1·G = Σ_w ±T[w][|digit_w|]: at most 26 mixed
//     additions and no doubling.
//   - u2·Q: the same comb of Q with 8-bit windows (33 windows of 128
//     points, 270 KB), at most 33 mixed additions. A table takes about as
//     long to build as 30 cold verifications, so it is built once a key
//     has verified hotThreshold times, and at most maxHotTables live at
//     once (17 MB).
//
// Wider windows trade memory for additions: against 8-bit windows for G
// and 7-bit ones for Q, these sizes verify 15% faster.
//
// x(R) mod N = r is then checked without an inversion: with R = (X:Y:Z) in
// Jacobian coordinates x(R) = X/Z², so X is compared with r·Z² and, when
// r + N < p, with (r+N)·Z².
//
// A key without a table is verified with nistec (p256VerifyNistec): any
// method needs about 255 doublings for u2·Q then, and nistec's assembly
// does them faster than Go can. It still saves crypto/ecdsa's per-call
// work (DER encoding and parsing, decoding the key, big.Int conversions).
const (
	combBitsG    = 10
	combBitsQ    = 8
	hotThreshold = 16
	maxHotTables = 64
)

// p256Comb is a signed comb table: point(w, d) = d·2^(bits·w)·P.
type p256Comb struct {
	bits    uint
	entries int // 2^(bits-1) digits per window
	points  []p256Affine
}

// combWindows is the number of windows of a signed comb: the recoding of a
// 256-bit scalar can carry into bit 256.
func combWindows(bits uint) int { return int((256 + bits) / bits) }

// newP256Comb builds the table of p with the given window size.
func newP256Comb(p *p256Jac, bits uint) *p256Comb {
	t := &p256Comb{bits: bits, entries: 1 << (bits - 1)}
	windows := combWindows(bits)
	jac := make([]p256Jac, windows*t.entries)
	base := *p
	for w := range windows {
		row := jac[w*t.entries : (w+1)*t.entries]
		row[0] = base
		row[1].double(&base)
		for d := 2; d < t.entries; d++ {
			row[d].add(&row[d-1], &base)
		}
		// 2^bits·base = 2·(2^(bits-1)·base), the row's last entry.
		base.double(&row[t.entries-1])
	}
	t.points = make([]p256Affine, len(jac))
	p256BatchAffine(t.points, jac)
	return t
}

// addMul adds k·P to acc.
func (t *p256Comb) addMul(acc *p256Jac, k *p256Scalar) {
	var digits [64]int32
	n := signedDigits(k, t.bits, &digits)
	var ny p256Elem
	for w, d := range digits[:n] {
		switch {
		case d > 0:
			pt := &t.points[w*t.entries+int(d)-1]
			acc.addAffine(acc, &pt.x, &pt.y)
		case d < 0:
			pt := &t.points[w*t.entries+int(-d)-1]
			acc.addAffine(acc, &pt.x, ny.neg(&pt.y))
		}
	}
}

// signedDigits writes the digits d_w in [-2^(bits-1), 2^(bits-1)] with
// k = Σ d_w·2^(bits·w) and returns their number, combWindows(bits).
func signedDigits(k *p256Scalar, bits uint, out *[64]int32) int {
	n := combWindows(bits)
	half, full := int32(1)<<(bits-1), int32(1)<<bits
	carry := int32(0)
	for w := range n {
		v := int32(scalarBits(k, uint(w)*bits, bits)) + carry
		carry = 0
		if v > half {
			v -= full
			carry = 1
		}
		out[w] = v
	}
	return n
}

// scalarBits returns bits [off, off+n) of k (n < 32), zero past bit 255.
func scalarBits(k *p256Scalar, off, n uint) uint64 {
	i, sh := off/64, off%64
	if i >= 4 {
		return 0
	}
	v := k[i] >> sh
	if sh+n > 64 && i+1 < 4 {
		v |= k[i+1] << (64 - sh)
	}
	return v & (1<<n - 1)
}

// p256G is the generator.
var p256G = func() p256Affine {
	var g p256Affine
	params := elliptic.P256().Params()
	gx, gy := limbsFromBig(params.Gx), limbsFromBig(params.Gy)
	g.x.setCanonical(&gx)
	g.y.setCanonical(&gy)
	return g
}()

// p256GComb is the comb table of the generator, built on first use.
var p256GComb = sync.OnceValue(func() *p256Comb {
	var g p256Jac
	g.setAffine(&p256G.x, &p256G.y)
	return newP256Comb(&g, combBitsG)
})

// liveTables counts built hot-key tables not yet collected.
var liveTables atomic.Int32

// hotKey is the per-point verification state shared by every copy of a
// decoded secp256r1 key.
type hotKey struct {
	q        p256Affine // the key in Montgomery form
	nq       *nistec.P256Point
	uses     atomic.Int32
	building atomic.Bool
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

// combTable returns the key's comb table, building it once the key is hot.
// It returns nil while the key is not hot (or too many tables exist).
func (h *hotKey) combTable() *p256Comb {
	if t := h.table.Load(); t != nil {
		return t
	}
	if h.uses.Add(1) < hotThreshold || liveTables.Load() >= maxHotTables ||
		!h.building.CompareAndSwap(false, true) {
		return nil
	}
	var q p256Jac
	t := newP256Comb(q.setAffine(&h.q.x, &h.q.y), combBitsQ)
	liveTables.Add(1)
	runtime.AddCleanup(h, func(struct{}) { liveTables.Add(-1) }, struct{}{})
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
	var acc p256Jac
	t.addMul(&acc, &u2)
	p256GComb().addMul(&acc, &u1)
	return acc.xModNEquals(&r)
}

// p256VerifyNistec is p256Verify for a key without a table: u1·G and u2·Q
// with nistec's assembly, which is constant-time (more work than needed)
// but its doublings are half again as fast as ours in Go, and u2·Q needs
// 255 of them.
func p256VerifyNistec(q *nistec.P256Point, sig, digest []byte) bool {
	r, u1, u2, ok := p256VerifyScalars(sig, digest)
	if !ok {
		return false
	}
	var b1, b2 [32]byte
	(*p256Elem)(&u1).putBytes(&b1)
	(*p256Elem)(&u2).putBytes(&b2)
	var p1, p2 nistec.P256Point
	if _, err := p1.ScalarBaseMult(b1[:]); err != nil {
		return false
	}
	if _, err := p2.ScalarMult(q, b2[:]); err != nil {
		return false
	}
	xb, err := p1.Add(&p1, &p2).BytesX()
	if err != nil {
		return false // the point at infinity
	}
	x := p256Scalar(limbsFromBytes((*[32]byte)(xb)))
	x.reduce()
	return x == r
}

// xModNEquals tells whether p is not the point at infinity and
// x(p) mod N = r, for 0 < r < N.
func (p *p256Jac) xModNEquals(r *p256Scalar) bool {
	if p.isInfinity() {
		return false
	}
	var z2, rz2, re p256Elem
	z2.sqr(&p.z)
	re.setCanonical((*p256Elem)(r)) // r < N < p
	if *rz2.mul(&re, &z2) == p.x {
		return true
	}
	// x(p) < p < 2N, so x(p) mod N = r also when x(p) = r + N < p.
	rn, c := addScalar(r, &p256N)
	if c != 0 || !re.setCanonical(&rn) {
		return false
	}
	return *rz2.mul(&re, &z2) == p.x
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
