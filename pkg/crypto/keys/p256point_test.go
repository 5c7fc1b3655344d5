package keys

import (
	"crypto/elliptic"
	"crypto/rand"
	"math/big"
	"testing"

	"filippo.io/nistec"
	"github.com/stretchr/testify/require"
)

// pointOf returns the key as a Jacobian point.
func pointOf(p *PublicKey) *p256Jac {
	var j p256Jac
	return j.setAffine(&p.hot.q.x, &p.hot.q.y)
}

// p256Base returns the generator as a key (private key 1).
func p256Base(t testing.TB) *PublicKey {
	k, err := NewPrivateKeyFromBytes(word(big.NewInt(1)))
	require.NoError(t, err)
	return k.PublicKey()
}

// jacBytes encodes p uncompressed, or as {0} for the point at infinity, as
// nistec does.
func jacBytes(p *p256Jac) []byte {
	if p.isInfinity() {
		return []byte{0}
	}
	var a [1]p256Affine
	p256BatchAffine(a[:], []p256Jac{*p})
	x, y := a[0].x.canonical(), a[0].y.canonical()
	var xb, yb [32]byte
	x.putBytes(&xb)
	y.putBytes(&yb)
	return join(join([]byte{4}, xb[:]), yb[:])
}

// xyzzBytes encodes p like jacBytes.
func xyzzBytes(p *p256XYZZ) []byte {
	if p.isInfinity() {
		return []byte{0}
	}
	var zi, zzi p256Elem
	zi.inv(&p.zz)
	zzi.inv(&p.zzz)
	var q p256Jac // (x, y, 1)
	q.x.mul(&p.x, &zi)
	q.y.mul(&p.y, &zzi)
	q.z = p256One
	return jacBytes(&q)
}

// testScalars returns edge and random scalars below N.
func testScalars(t testing.TB) []*big.Int {
	n := p256Order
	one := big.NewInt(1)
	out := []*big.Int{big.NewInt(0), one, big.NewInt(2), big.NewInt(15), big.NewInt(16), big.NewInt(17),
		big.NewInt(64), big.NewInt(65), big.NewInt(128), big.NewInt(129), big.NewInt(255),
		new(big.Int).Sub(n, one), new(big.Int).Sub(n, big.NewInt(2)), new(big.Int).Rsh(n, 1),
		new(big.Int).Lsh(one, 255), new(big.Int).Sub(new(big.Int).Lsh(one, 255), one),
		new(big.Int).Lsh(one, 252), new(big.Int).Sub(new(big.Int).Lsh(one, 128), one)}
	for range 20 {
		v, err := rand.Int(rand.Reader, n)
		require.NoError(t, err)
		out = append(out, v)
	}
	return out
}

func scalarOf(v *big.Int) p256Scalar { return p256Scalar(limbsFromBig(v)) }

// TestP256Constants checks our constants against crypto/elliptic's.
func TestP256Constants(t *testing.T) {
	params := elliptic.P256().Params()
	requireBig(t, params.P, p256Prime.toBig())
	requireBig(t, params.N, p256Order)
	one := p256One.canonical()
	requireBig(t, big.NewInt(1), one.toBig())
	require.Equal(t, ^uint64(0), p256N[0]*p256NInv, "N·(-N^-1) = -1 mod 2^64")
	gx, gy := p256G.x.canonical(), p256G.y.canonical()
	requireBig(t, params.Gx, gx.toBig())
	requireBig(t, params.Gy, gy.toBig())
}

// TestP256ScalarMult checks comb multiplication against nistec.
func TestP256ScalarMult(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	for _, pub := range []*PublicKey{priv.PublicKey(), p256Base(t)} {
		q := pointOf(pub)
		comb := newP256Comb(q, combBitsQ)
		comb5 := newP256Comb(q, 5)
		for _, k := range testScalars(t) {
			kb := word(k)
			ref, err := nistec.NewP256Point().SetBytes(pub.UncompressedBytes())
			require.NoError(t, err)
			_, err = ref.ScalarMult(ref, kb)
			require.NoError(t, err)
			ks := scalarOf(k)
			var c, c5 p256XYZZ
			comb.addMul(&c, &ks)
			comb5.addMul(&c5, &ks)
			require.Equal(t, ref.Bytes(), xyzzBytes(&c), "comb k=%x", kb)
			require.Equal(t, ref.Bytes(), xyzzBytes(&c5), "comb5 k=%x", kb)
		}
	}
	for _, k := range testScalars(t) {
		ref, err := nistec.NewP256Point().ScalarBaseMult(word(k))
		require.NoError(t, err)
		ks := scalarOf(k)
		var c p256XYZZ
		p256GComb().addMul(&c, &ks)
		require.Equal(t, ref.Bytes(), xyzzBytes(&c), "G comb k=%x", k)
	}
}

// nistecMult returns k·G encoded by nistec.
func nistecMult(t *testing.T, k int64) []byte {
	p, err := nistec.NewP256Point().ScalarBaseMult(word(big.NewInt(k)))
	require.NoError(t, err)
	return p.Bytes()
}

// TestP256AddEdges checks the special cases of the addition formulas.
func TestP256AddEdges(t *testing.T) {
	g := pointOf(p256Base(t))
	gx, gy := &p256G.x, &p256G.y
	var negY p256Elem
	negY.neg(gy)
	// Jacobian, as tables are built.
	var j, inf p256Jac
	require.Equal(t, nistecMult(t, 2), jacBytes(j.double(g)), "2G")
	require.Equal(t, nistecMult(t, 3), jacBytes(j.addAffine(&j, gx, gy)), "2G+G in place")
	require.Equal(t, nistecMult(t, 2), jacBytes(j.addAffine(g, gx, gy)), "G+G")
	require.True(t, j.addAffine(g, gx, &negY).isInfinity(), "G-G")
	require.Equal(t, jacBytes(g), jacBytes(j.addAffine(&inf, gx, gy)), "O+G")
	require.True(t, j.double(&inf).isInfinity(), "2O")
	// XYZZ, as verification sums.
	var x p256XYZZ
	x.addAffine(gx, gy)
	require.Equal(t, jacBytes(g), xyzzBytes(&x), "O+G")
	x.addAffine(gx, gy)
	require.Equal(t, nistecMult(t, 2), xyzzBytes(&x), "G+G")
	x.addAffine(gx, gy)
	require.Equal(t, nistecMult(t, 3), xyzzBytes(&x), "2G+G")
	x.addAffine(gx, &negY)
	require.Equal(t, nistecMult(t, 2), xyzzBytes(&x), "3G-G")
	x = p256XYZZ{}
	x.setAffine(gx, gy)
	x.addAffine(gx, &negY)
	require.True(t, x.isInfinity(), "G-G")
	x.doubleAffine(gx, gy)
	require.Equal(t, nistecMult(t, 2), xyzzBytes(&x), "mdbl")
}

// TestDigits checks the signed comb digits reconstruct the scalar and stay
// in range.
func TestDigits(t *testing.T) {
	all := testScalars(t)
	all = append(all, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 256), big.NewInt(1)))
	for _, k := range all {
		ks := scalarOf(k)
		for _, bits := range []uint{5, 6, combBitsQ, combBitsG} {
			var d [64]int32
			n := signedDigits(&ks, bits, &d)
			sum := new(big.Int)
			for w := n - 1; w >= 0; w-- {
				require.LessOrEqual(t, d[w], int32(1)<<(bits-1))
				require.Greater(t, d[w], -(int32(1) << (bits - 1)))
				sum.Lsh(sum, bits).Add(sum, big.NewInt(int64(d[w])))
			}
			requireBig(t, k, sum, "bits %d", bits)
		}
	}
}

// TestP256Scalars checks u1, u2 and the range checks against math/big.
func TestP256Scalars(t *testing.T) {
	n := p256Order
	for _, s := range testScalars(t) {
		for _, r := range testScalars(t)[:12] {
			var d [32]byte
			_, err := rand.Read(d[:])
			require.NoError(t, err)
			sig := join(word(r), word(s))
			gotR, u1, u2, ok := p256VerifyScalars(sig, d[:])
			require.Equal(t, r.Sign() > 0 && s.Sign() > 0, ok)
			if !ok {
				continue
			}
			w := new(big.Int).ModInverse(s, n)
			e := new(big.Int).SetBytes(d[:])
			requireBig(t, r, (*p256Elem)(&gotR).toBig())
			requireBig(t, new(big.Int).Mod(new(big.Int).Mul(e, w), n), (*p256Elem)(&u1).toBig())
			requireBig(t, new(big.Int).Mod(new(big.Int).Mul(r, w), n), (*p256Elem)(&u2).toBig())
		}
	}
	_, _, _, ok := p256VerifyScalars(join(word(n), word(big.NewInt(1))), nil)
	require.False(t, ok, "r = N")
	_, _, _, ok = p256VerifyScalars(join(word(big.NewInt(1)), word(n)), nil)
	require.False(t, ok, "s = N")
	// e = N reduces to 0; a digest over 32 bytes is truncated.
	_, u1, _, ok := p256VerifyScalars(join(word(big.NewInt(1)), word(big.NewInt(1))), append(word(n), 7))
	require.True(t, ok)
	require.True(t, u1.isZero())
}
