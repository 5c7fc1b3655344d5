package keys

import (
	"crypto/sha256"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestKeyCacheGenerations(t *testing.T) {
	c := newGenCache[[CompressedLen]byte, *PublicKey](2)
	mk := func(i byte) ([CompressedLen]byte, *PublicKey) {
		var k [CompressedLen]byte
		k[0], k[1] = 0x02, i
		return k, &PublicKey{set: true, comp: k}
	}
	get := func(k [CompressedLen]byte) *PublicKey {
		p, _ := c.get(k)
		return p
	}
	k1, p1 := mk(1)
	k2, p2 := mk(2)
	k3, p3 := mk(3)
	k4, p4 := mk(4)
	require.Nil(t, get(k1))
	require.Nil(t, c.cur, "no generation made before the first put")
	c.put(k1, p1)
	require.Nil(t, c.old, "the first put makes the current generation only")
	c.put(k2, p2)
	require.Same(t, p1, get(k1))
	c.put(k3, p3) // rotates: {1,2} old, {3} current
	require.Len(t, c.cur, 1)
	require.Same(t, p2, get(k2)) // promoted: current {3,2}
	require.Same(t, p3, get(k3))
	c.put(k4, p4) // rotates: {3,2} old, {4} current; 1 is gone
	require.Nil(t, get(k1))
	require.Same(t, p2, get(k2))
	require.Same(t, p4, get(k4))
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
	_, ok := caches[Secp256r1].get([CompressedLen]byte(enc))
	require.True(t, ok)
	_, ok = caches[Secp256k1].get([CompressedLen]byte(enc))
	require.False(t, ok)
}

func TestSigCache(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	pub := priv.PublicKey()
	d1 := sha256.Sum256([]byte("a"))
	d2 := sha256.Sum256([]byte("b"))
	sig := priv.SignHash(d1)
	sc := NewSigCache(4)
	require.True(t, sc.Verify(pub, sig, d1[:]))
	_, ok := sc.ok.get(sc.sigID(pub, sig, d1[:]))
	require.True(t, ok, "success remembered")
	require.True(t, sc.Verify(pub, sig, d1[:]))
	require.False(t, sc.Verify(pub, sig, d2[:]))
	_, ok = sc.fail.get(sc.sigID(pub, sig, d2[:]))
	require.True(t, ok, "failure remembered")
	_, ok = sc.ok.get(sc.sigID(pub, sig, d2[:]))
	require.False(t, ok, "failure not among the successes")
	require.False(t, sc.Verify(pub, sig, d2[:]), "remembered failure")
	require.False(t, sc.Verify(pub, sig, d1[:31]), "digest length is part of the identity")
	require.False(t, sc.Verify(&PublicKey{}, sig, d1[:]))
	require.False(t, sc.Verify(pub, sig[:63], d1[:]))
	other, err := NewPrivateKey()
	require.NoError(t, err)
	require.False(t, sc.Verify(other.PublicKey(), sig, d1[:]))
	require.NotNil(t, NewSigCache(0))
}

// TestSigCacheSalted checks that identifiers are stable within a cache and
// differ between caches: each has its own secret salt, so nobody outside
// can compute (and aim collisions at) the 128-bit identifiers.
func TestSigCacheSalted(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	pub := priv.PublicKey()
	d := sha256.Sum256([]byte("a"))
	sig := priv.SignHash(d)
	a, b := NewSigCache(4), NewSigCache(4)
	require.NotEqual(t, a.salt, b.salt)
	require.Equal(t, a.sigID(pub, sig, d[:]), a.sigID(pub, sig, d[:]))
	require.NotEqual(t, a.sigID(pub, sig, d[:]), b.sigID(pub, sig, d[:]))
}

// TestGenerationGrowsAsItFills: starting a generation does not allocate
// room for all of it (a signature cache's generation is ~1 MB and its
// failure generation rarely fills).
func TestGenerationGrowsAsItFills(t *testing.T) {
	const size = 50000
	c := newGenCache[sigKey, struct{}](size)
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	before := ms.TotalAlloc
	for i := range 16 {
		c.put(sigKey{byte(i)}, struct{}{})
	}
	runtime.ReadMemStats(&ms)
	// A full-size generation of 16-byte keys takes ~1 MB; 16 entries a few KB.
	require.Less(t, ms.TotalAlloc-before, uint64(size), "bytes allocated for 16 entries")
	for i := range size {
		c.put(sigKey{byte(i), byte(i >> 8), byte(i >> 16), 1}, struct{}{})
	}
	require.Len(t, c.old, size, "rotated once the generation was full")
	require.Len(t, c.cur, 16)
}
