package keys

import (
	"crypto/elliptic"
	"sync"
)

// Fast secp256r1 verification.
//
// ECDSA verification computes R = u1·G + u2·Q and compares x(R) mod N with
// r. crypto/ecdsa computes both products with constant-time scalar
// multiplications. Verification handles public data only, so for keys that
// verify again and again (validators, busy senders) we use precomputed
// tables and variable-time sums, with our own field arithmetic
// (p256field.go; on amd64 the products and the mixed addition of the sums
// run in assembly, p256field_amd64.s) and formulas that branch on special
// cases (p256point.go; the sums are kept in XYZZ coordinates, the cheapest
// for adding affine points):
//
//   - u1·G: a signed comb table of G, T[w][d-1] = d·2^(10w)·G for windows
//     w = 0..25 and digits d = 1..512, affine, built once per process
//     (852 KB, about 9 ms). u1·G = Σ_w ±T[w][|digit_w|]: at most 26 mixed
//     additions and no doubling.
//   - u2·Q: the same comb of Q with 7-bit windows (37 windows of 64
//     points, 151 KB), at most 37 mixed additions. A table takes about as
//     long to build as 17 cold verifications, so it is built once a key
//     has verified hotThreshold times, and at most maxHotTables live at
//     once (19 MB). A key that has verified wideThreshold times gets
//     G's window size instead (26 additions, 852 KB), at most
//     maxWideTables keys at once.
//
// Wider windows trade memory and building time for additions. G's table
// is built once, so it is wide: 10-bit windows verify 10% faster than
// 8-bit ones. For Q, 8-bit windows would save another 5% per verification
// but take twice as long to build (about 2 ms), which only pays off after
// about a thousand verifications with the key; 10-bit ones save ~15%
// (BenchmarkP256VerifyWide) for ~9 ms, paid back after a few thousand.
//
// Both sums' points are loaded once before the first addition
// (touchPoints), so that their cache misses overlap.
//
// x(R) mod N = r is then checked without an inversion: x(R) = X/ZZ, so X
// is compared with r·ZZ and, when r + N < p, with (r+N)·ZZ.
//
// A key without a table is verified with nistec (p256verify.go).
const (
	combBitsG = 10
	combBitsQ = 7
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

// newP256Comb builds the table of p with the given window size. The window
// bases 2^(bits·w)·p are made affine first (one inversion for all), so the
// rows d·base are built with mixed additions; then the whole table is made
// affine with one more inversion.
func newP256Comb(p *p256Jac, bits uint) *p256Comb {
	t := &p256Comb{bits: bits, entries: 1 << (bits - 1)}
	windows := combWindows(bits)
	bases := make([]p256Jac, windows)
	bases[0] = *p
	for w := 1; w < windows; w++ {
		bases[w] = bases[w-1]
		for range bits {
			bases[w].double(&bases[w])
		}
	}
	affine := make([]p256Affine, windows)
	p256BatchAffine(affine, bases)
	jac := make([]p256Jac, windows*t.entries)
	for w := range windows {
		b := &affine[w]
		row := jac[w*t.entries : (w+1)*t.entries]
		row[0].setAffine(&b.x, &b.y)
		row[1].double(&row[0])
		for d := 2; d < t.entries; d++ {
			row[d].addAffine(&row[d-1], &b.x, &b.y)
		}
	}
	t.points = make([]p256Affine, len(jac))
	p256BatchAffine(t.points, jac)
	return t
}

// addMul adds k·P to acc.
func (t *p256Comb) addMul(acc *p256XYZZ, k *p256Scalar) {
	var digits [64]int32
	d := digits[:signedDigits(k, t.bits, &digits)]
	touchPoints(t, d, nil, nil)
	t.addDigits(acc, d)
}

// point returns the table's point for digit d ≠ 0 of window w and whether
// it is to be negated.
func (t *p256Comb) point(w int, d int32) (*p256Affine, bool) {
	if d < 0 {
		return &t.points[w*t.entries+int(-d)-1], true
	}
	return &t.points[w*t.entries+int(d)-1], false
}

// addDigits adds Σ_w ±point(w, |digits[w]|) to acc.
func (t *p256Comb) addDigits(acc *p256XYZZ, digits []int32) {
	var ny p256Elem
	for w, d := range digits {
		if d == 0 {
			continue
		}
		pt, negate := t.point(w, d)
		if negate {
			acc.addAffine(&pt.x, ny.neg(&pt.y))
		} else {
			acc.addAffine(&pt.x, &pt.y)
		}
	}
}

// touchPoints loads one word of every point that digits a select in
// table ta and digits b in tb (tb may be nil) before any of them is added.
// A verification's 52 points are scattered over 1.7 MB of tables, which a
// busy node's other work evicts between two verifications; these loads do
// not depend on each other, so their misses overlap, where in the
// additions each one waits behind the previous addition's arithmetic.
// Measured: BenchmarkP256VerifyEvicted ~25 → ~20 µs; a single BoltDB node
// under neo-bench spent 30% less CPU in verification (5.30 → 3.73 s of a
// 20 s profile, at higher TPS). It is not inlined so that the loads,
// whose result nobody uses, are not removed.
//
//go:noinline
func touchPoints(ta *p256Comb, a []int32, tb *p256Comb, b []int32) uint64 {
	var s uint64
	for w, d := range a {
		if d != 0 {
			pt, _ := ta.point(w, d)
			s ^= pt.x[0]
		}
	}
	for w, d := range b {
		if d != 0 {
			pt, _ := tb.point(w, d)
			s ^= pt.x[0]
		}
	}
	return s
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
