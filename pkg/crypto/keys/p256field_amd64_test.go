//go:build amd64 && !purego

package keys

import (
	"crypto/rand"
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// requireADX skips a test of the assembly on a CPU that cannot run it.
func requireADX(t testing.TB) {
	if !useADX {
		t.Skip("CPU lacks ADX or BMI2")
	}
}

// withGeneric runs f with the assembly switched off.
func withGeneric(f func()) {
	saved := useADX
	useADX = false
	defer func() { useADX = saved }()
	f()
}

// rawEdges returns limb patterns below p that stress carries and the final
// subtraction: 0, 1, p-1, p-2, values just below 2^256 and p, runs of ones
// in every limb, single bits (every fifth), and random values near p and near 2^192.
func rawEdges(t testing.TB) []p256Elem {
	const m = ^uint64(0)
	out := []p256Elem{
		{}, {1}, {2}, p256One, p256RR,
		{p256P0 - 1, p256P1, p256P2, p256P3}, // p-1
		{p256P0 - 2, p256P1, p256P2, p256P3}, // p-2
		{m, m, m, p256P3 - 1},                // the largest value with limb 3 below p3
		{0, 0, 0, p256P3 - 1},
		{m, p256P1 - 1, p256P2, p256P3}, // p-1-2^64
		{m, m, m, 0}, {m, 0, m, 0}, {0, m, 0, m >> 1}, {m, 0, 0, 0}, {0, m, 0, 0}, {0, 0, m, 0},
		{0x00000000ffffffff, 0xffffffff00000000, 0x00000000ffffffff, 0x7fffffff00000000},
	}
	for i := 0; i < 256; i += 5 {
		var e p256Elem
		e[i/64] = 1 << (i % 64)
		out = append(out, e)
	}
	r := mrand.New(mrand.NewPCG(1, 2))
	for range 32 {
		d := r.Uint64() >> r.IntN(64)
		near := p256Elem{p256P0 - d, p256P1, p256P2, p256P3} // p-1-d, d < 2^64-1
		out = append(out, near, p256Elem{r.Uint64(), r.Uint64(), r.Uint64(), 0})
	}
	for _, e := range out {
		require.True(t, e.lessThan(&p256Prime), "edge %x not below p", e)
	}
	return out
}

// randomElems returns n uniformly random values below p.
func randomElems(t testing.TB, n int) []p256Elem {
	p := p256Prime.toBig()
	out := make([]p256Elem, n)
	for i := range out {
		v, err := rand.Int(rand.Reader, p)
		require.NoError(t, err)
		out[i] = limbsFromBig(v)
	}
	return out
}

// montBig returns x·y·R^-1 mod p with math/big, on plain limbs.
func montBig(x, y *p256Elem) p256Elem {
	p := p256Prime.toBig()
	rInv := new(big.Int).ModInverse(new(big.Int).Lsh(big.NewInt(1), 256), p)
	v := new(big.Int).Mul(x.toBig(), y.toBig())
	v.Mul(v, rInv)
	return limbsFromBig(v.Mod(v, p))
}

// checkMulSqr compares the assembly with the Go code and math/big on x, y,
// including every way the output may alias the inputs.
func checkMulSqr(t testing.TB, x, y p256Elem) {
	var want, got p256Elem
	want.mulGeneric(&x, &y)
	require.Equal(t, montBig(&x, &y), want, "mulGeneric %x·%x", x, y)
	p256MulADX(&got, &x, &y)
	require.Equal(t, want, got, "mul %x·%x", x, y)
	a := x
	p256MulADX(&a, &a, &y)
	require.Equal(t, want, a, "mul, z = x")
	b := y
	p256MulADX(&b, &x, &b)
	require.Equal(t, want, b, "mul, z = y")

	want.sqrGeneric(&x)
	require.Equal(t, montBig(&x, &x), want, "sqrGeneric %x", x)
	p256SqrADX(&got, &x)
	require.Equal(t, want, got, "sqr %x", x)
	p256MulADX(&got, &x, &x)
	require.Equal(t, want, got, "mul %x·%x", x, x)
	a = x
	p256SqrADX(&a, &a)
	require.Equal(t, want, a, "sqr, z = x")
}

// TestP256MulADX checks the assembly products on every pair of edge values
// and on random pairs.
func TestP256MulADX(t *testing.T) {
	requireADX(t)
	edges := rawEdges(t)
	for i := range edges {
		for j := range edges {
			checkMulSqr(t, edges[i], edges[j])
		}
	}
	rnd := randomElems(t, 2000)
	for i := range rnd {
		checkMulSqr(t, rnd[i], rnd[(i+1)%len(rnd)])
		checkMulSqr(t, rnd[i], edges[i%len(edges)])
	}
}

// randomXYZZ returns λ-scaled XYZZ coordinates of the affine point a:
// (x·λ², y·λ³, λ², λ³) for a random λ ≠ 0.
func randomXYZZ(t testing.TB, a *p256Affine) p256XYZZ {
	var l p256Elem
	for l.isZero() {
		l = randomElems(t, 1)[0]
	}
	var p p256XYZZ
	p.zz.sqrGeneric(&l)
	p.zzz.mulGeneric(&p.zz, &l)
	p.x.mulGeneric(&a.x, &p.zz)
	p.y.mulGeneric(&a.y, &p.zzz)
	return p
}

// TestP256AddAffineADX checks the assembly mixed addition against the Go
// one on random multiples of G, and that it declines equal and opposite
// points without touching the sum.
func TestP256AddAffineADX(t *testing.T) {
	requireADX(t)
	tab := p256GComb()
	r := mrand.New(mrand.NewPCG(3, 4))
	for range 500 {
		a := &tab.points[r.IntN(len(tab.points))]
		b := &tab.points[r.IntN(len(tab.points))]
		if a.x == b.x {
			continue
		}
		p := randomXYZZ(t, a)
		want, got := p, p
		withGeneric(func() { want.addAffineGeneric(&b.x, &b.y) })
		require.True(t, p256XYZZAddAffineADX(&got, &b.x, &b.y))
		require.Equal(t, want, got)
		// Through the dispatch, with a negated y as the comb adds it.
		var ny p256Elem
		ny.neg(&b.y)
		want, got = p, p
		withGeneric(func() { want.addAffine(&b.x, &ny) })
		got.addAffine(&b.x, &ny)
		require.Equal(t, want, got)
		// Equal and opposite points go back to the caller.
		var nay p256Elem
		nay.neg(&a.y)
		for _, y := range []*p256Elem{&a.y, &nay} {
			got = p
			require.False(t, p256XYZZAddAffineADX(&got, &a.x, y))
			require.Equal(t, p, got)
		}
	}
}

// TestP256GenericFallback runs the verification and field tests with the
// assembly switched off, as on a CPU without ADX.
func TestP256GenericFallback(t *testing.T) {
	withGeneric(func() {
		t.Run("field", TestP256FieldMatchesBig)
		t.Run("edges", TestP256AddEdges)
		t.Run("ecdsa", TestVerifyMatchesECDSA)
		t.Run("constructed", TestVerifyConstructedEdges)
	})
}

// FuzzP256FieldMul compares the assembly products with the Go ones on
// arbitrary 32-byte inputs, reduced below p.
func FuzzP256FieldMul(f *testing.F) {
	requireADX(f)
	for _, e := range rawEdges(f)[:20] {
		var b [32]byte
		e.putBytes(&b)
		f.Add(b[:], b[:])
	}
	p := p256Prime.toBig()
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if len(a) != 32 || len(b) != 32 {
			return
		}
		x := limbsFromBig(new(big.Int).Mod(new(big.Int).SetBytes(a), p))
		y := limbsFromBig(new(big.Int).Mod(new(big.Int).SetBytes(b), p))
		checkMulSqr(t, x, y)
	})
}

// The benchmarks below run the pure-Go code in the same binary, for
// same-run comparisons with BenchmarkP256FieldMul, BenchmarkP256FieldSqr
// and BenchmarkP256VerifyPaths/comb.

func BenchmarkP256FieldMulGeneric(b *testing.B) {
	x := toElem(b, big.NewInt(12345))
	y := toElem(b, new(big.Int).Lsh(big.NewInt(987654321), 200))
	for b.Loop() {
		x.mulGeneric(&x, &y)
	}
}

func BenchmarkP256FieldSqrGeneric(b *testing.B) {
	x := toElem(b, big.NewInt(12345))
	for b.Loop() {
		x.sqrGeneric(&x)
	}
}

// BenchmarkP256VerifyComb compares comb verification with the assembly
// and with the pure-Go field arithmetic.
func BenchmarkP256VerifyComb(b *testing.B) {
	_, tab, sig, d := benchSignedComb(b)
	p256GComb()
	run := func(b *testing.B) {
		for b.Loop() {
			if !p256Verify(tab, sig, d[:]) {
				b.Fatal("verify failed")
			}
		}
	}
	b.Run("asm", run)
	b.Run("generic", func(b *testing.B) { withGeneric(func() { run(b) }) })
}
