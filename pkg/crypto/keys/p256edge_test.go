package keys

import (
	"crypto/elliptic"
	"crypto/rand"
	"math/big"
	"testing"

	"filippo.io/nistec"
	"github.com/stretchr/testify/require"
)

// keyFromScalar returns d·G as a key.
func keyFromScalar(t testing.TB, d *big.Int) *PublicKey {
	k, err := NewPrivateKeyFromBytes(word(d))
	require.NoError(t, err)
	return k.PublicKey()
}

// xOfMult returns x(k·G) mod N.
func xOfMult(t testing.TB, k *big.Int) *big.Int {
	p, err := nistec.NewP256Point().ScalarBaseMult(word(new(big.Int).Mod(k, p256Order)))
	require.NoError(t, err)
	x, err := p.BytesX()
	require.NoError(t, err)
	return new(big.Int).Mod(new(big.Int).SetBytes(x), p256Order)
}

// requireBothPaths checks that a signature gets the expected verdict from
// crypto/ecdsa and from both our verifiers.
func requireBothPaths(t *testing.T, pub *PublicKey, want bool, sig, digest []byte, what string) {
	t.Helper()
	tab := newP256Comb(pointOf(pub), combBitsQ)
	require.Equal(t, want, slowVerify(pub, sig, digest), "ecdsa: %s", what)
	require.Equal(t, want, p256Verify(tab, sig, digest), "comb: %s", what)
	require.Equal(t, want, p256VerifyNistec(pub.hot.nq, sig, digest), "nistec: %s", what)
}

// TestVerifyConstructedEdges builds signatures whose verification hits the
// special cases of the point arithmetic: u1·G and u2·Q equal (a doubling
// inside an addition), opposite (R at infinity), u1 = 0, and x(R) ≥ N.
func TestVerifyConstructedEdges(t *testing.T) {
	n := p256Order
	one := big.NewInt(1)
	g := keyFromScalar(t, one)
	negG := keyFromScalar(t, new(big.Int).Sub(n, one))
	rnd, err := rand.Int(rand.Reader, n)
	require.NoError(t, err)
	for _, k := range []*big.Int{one, big.NewInt(5), big.NewInt(64), big.NewInt(65), big.NewInt(129), rnd} {
		// Q = G, e = r, s = r/k: u1 = u2 = k, so R = 2k·G, reached by
		// adding k·G to k·G.
		r := xOfMult(t, new(big.Int).Lsh(k, 1))
		s := new(big.Int).Mul(r, new(big.Int).ModInverse(k, n))
		s.Mod(s, n)
		sig := join(word(r), word(s))
		requireBothPaths(t, g, true, sig, word(r), "u1·G = u2·Q")
		// Q = -G with the same signature: R = k·G - k·G, infinity.
		requireBothPaths(t, negG, false, sig, word(r), "u1·G = -u2·Q")
		// Q = G, e = N - r: u1 + u2 = 0, infinity again.
		requireBothPaths(t, g, false, sig, word(new(big.Int).Sub(n, r)), "u1 = -u2")
		// e = 0 (and e = N, which reduces to 0): u1 = 0, R = u2·Q = k·G.
		r = xOfMult(t, k)
		s.Mul(r, new(big.Int).ModInverse(k, n)).Mod(s, n)
		sig = join(word(r), word(s))
		requireBothPaths(t, g, true, sig, make([]byte, 32), "u1 = 0")
		requireBothPaths(t, g, true, sig, word(n), "e = N")
		requireBothPaths(t, g, false, sig, word(one), "e = 1")
	}
	for range 4 {
		requireXAboveN(t)
	}
}

// requireXAboveN builds a key and a signature for which R = u1·G + u2·Q is
// a chosen point with x(R) ≥ N, so r = x(R) - N: the check must accept it
// (x(R) mod N = r) and reject r' = x(R) itself (out of range).
func requireXAboveN(t *testing.T) {
	params := elliptic.P256().Params()
	n, p := params.N, params.P
	// A point R with N ≤ x < p: about half of the candidates are on the curve.
	var rPoint *nistec.P256Point
	for rPoint == nil {
		span := new(big.Int).Sub(p, n)
		off, err := rand.Int(rand.Reader, span)
		require.NoError(t, err)
		x := off.Add(off, n)
		rhs := new(big.Int).Exp(x, big.NewInt(3), p)
		rhs.Sub(rhs, new(big.Int).Mul(big.NewInt(3), x)).Add(rhs, params.B).Mod(rhs, p)
		y := new(big.Int).ModSqrt(rhs, p)
		if y == nil {
			continue
		}
		rPoint, err = nistec.NewP256Point().SetBytes(join(join([]byte{4}, word(x)), word(y)))
		require.NoError(t, err)
	}
	xb, err := rPoint.BytesX()
	require.NoError(t, err)
	x := new(big.Int).SetBytes(xb)
	r := new(big.Int).Sub(x, n)
	// Any s and e; then Q = (R - u1·G)/u2 makes u1·G + u2·Q = R.
	s, err := rand.Int(rand.Reader, n)
	require.NoError(t, err)
	s.Add(s, big.NewInt(1)).Mod(s, n)
	e, err := rand.Int(rand.Reader, n)
	require.NoError(t, err)
	w := new(big.Int).ModInverse(s, n)
	u1 := new(big.Int).Mul(e, w)
	u1.Mod(u1, n)
	u2 := new(big.Int).Mul(r, w)
	u2.Mod(u2, n)
	u1G, err := nistec.NewP256Point().ScalarBaseMult(word(u1))
	require.NoError(t, err)
	q := nistec.NewP256Point().Add(rPoint, nistec.NewP256Point().Negate(u1G))
	_, err = q.ScalarMult(q, word(new(big.Int).ModInverse(u2, n)))
	require.NoError(t, err)
	pub, err := NewPublicKeyFromBytes(q.BytesCompressed())
	require.NoError(t, err)
	requireBothPaths(t, pub, true, join(word(r), word(s)), word(e), "x(R) = r + N")
	requireBothPaths(t, pub, false, join(word(x), word(s)), word(e), "r = x(R) ≥ N")
}
