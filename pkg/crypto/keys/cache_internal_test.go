package keys

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestKeyCacheGenerations(t *testing.T) {
	c := newKeyCache(2)
	mk := func(i byte) (*[CompressedLen]byte, *PublicKey) {
		var k [CompressedLen]byte
		k[0], k[1] = 0x02, i
		return &k, &PublicKey{set: true, comp: k}
	}
	k1, p1 := mk(1)
	k2, p2 := mk(2)
	k3, p3 := mk(3)
	k4, p4 := mk(4)
	c.put(k1, p1)
	c.put(k2, p2)
	require.Same(t, p1, c.get(k1))
	c.put(k3, p3) // rotates: {1,2} old, {3} current
	require.Len(t, c.cur, 1)
	require.Same(t, p2, c.get(k2)) // promoted: current {3,2}
	require.Same(t, p3, c.get(k3))
	c.put(k4, p4) // rotates: {3,2} old, {4} current; 1 is gone
	require.Nil(t, c.get(k1))
	require.Same(t, p2, c.get(k2))
	require.Same(t, p4, c.get(k4))
	require.LessOrEqual(t, len(c.cur)+len(c.old), 2*c.size)
}

func TestCachedDecompressSharesPoint(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	enc := priv.PublicKey().Bytes()
	a, err := cachedDecompress(enc, Secp256r1)
	require.NoError(t, err)
	b, err := cachedDecompress(enc, Secp256r1)
	require.NoError(t, err)
	require.NotSame(t, a, b, "each caller gets its own struct")
	require.Same(t, a.r1, b.r1, "the decoded point is shared")
	require.NotNil(t, caches[Secp256r1].get((*[CompressedLen]byte)(enc)))
	require.Nil(t, caches[Secp256k1].get((*[CompressedLen]byte)(enc)))
}
