package keys

import (
	"crypto/rand"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// fieldSamples returns field elements (as integers) around the edges of
// the field plus random ones.
func fieldSamples(t testing.TB, n int) []*big.Int {
	p := p256Prime.toBig()
	one := big.NewInt(1)
	out := []*big.Int{big.NewInt(0), big.NewInt(1), big.NewInt(2),
		new(big.Int).Sub(p, one), new(big.Int).Sub(p, big.NewInt(2)),
		new(big.Int).Lsh(one, 255), new(big.Int).Sub(new(big.Int).Lsh(one, 224), one),
		new(big.Int).Lsh(one, 192), new(big.Int).Lsh(one, 64), new(big.Int).Sub(new(big.Int).Lsh(one, 64), one)}
	for range n {
		v, err := rand.Int(rand.Reader, p)
		require.NoError(t, err)
		out = append(out, v)
	}
	// Values with long runs of ones and zeroes stress carry chains.
	for i := range 8 {
		v := new(big.Int).Lsh(one, uint(32*i+1))
		out = append(out, v.Sub(v, one).Mod(v, p))
	}
	return out
}

// requireBig fails unless want == got.
func requireBig(t testing.TB, want, got *big.Int, msg ...any) {
	t.Helper()
	require.Equal(t, want.Text(16), got.Text(16), msg...)
}

func toElem(t testing.TB, v *big.Int) p256Elem {
	var e p256Elem
	plain := limbsFromBig(v)
	require.True(t, e.setCanonical(&plain))
	return e
}

func fromElem(e *p256Elem) *big.Int {
	c := e.canonical()
	return c.toBig()
}

// TestP256FieldMatchesBig checks every field operation against math/big.
func TestP256FieldMatchesBig(t *testing.T) {
	p := p256Prime.toBig()
	xs := fieldSamples(t, 40)
	mod := func(v *big.Int) *big.Int { return v.Mod(v, p) }
	for _, a := range xs {
		ea := toElem(t, a)
		requireBig(t, a, fromElem(&ea))
		var z p256Elem
		requireBig(t, mod(new(big.Int).Neg(a)), fromElem(z.neg(&ea)), "neg %x", a)
		if a.Sign() != 0 {
			requireBig(t, new(big.Int).ModInverse(a, p), fromElem(z.inv(&ea)), "inv %x", a)
		}
		for _, b := range xs {
			eb := toElem(t, b)
			requireBig(t, mod(new(big.Int).Mul(a, b)), fromElem(z.mul(&ea, &eb)), "%x * %x", a, b)
			requireBig(t, mod(new(big.Int).Add(a, b)), fromElem(z.add(&ea, &eb)), "%x + %x", a, b)
			requireBig(t, mod(new(big.Int).Sub(a, b)), fromElem(z.sub(&ea, &eb)), "%x - %x", a, b)
		}
		requireBig(t, mod(new(big.Int).Mul(a, a)), fromElem(z.sqr(&ea)), "%x ^2", a)
	}
	var z p256Elem
	require.False(t, z.setCanonical(&p256Prime), "p is not a field element")
}

func BenchmarkP256FieldMul(b *testing.B) {
	x := toElem(b, big.NewInt(12345))
	y := toElem(b, new(big.Int).Lsh(big.NewInt(987654321), 200))
	for b.Loop() {
		x.mul(&x, &y)
	}
}

func BenchmarkP256FieldSqr(b *testing.B) {
	x := toElem(b, big.NewInt(12345))
	for b.Loop() {
		x.sqr(&x)
	}
}
