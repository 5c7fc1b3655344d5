package keys

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

// slowVerify is the crypto/ecdsa path the comb table must agree with.
func slowVerify(p *PublicKey, sig, digest []byte) bool {
	var buf [maxDERLen]byte
	return ecdsa.VerifyASN1(p.r1, digest, asn1Signature(&buf, sig))
}

// combCases returns signatures and digests around every acceptance rule.
func combCases(t testing.TB, priv *PrivateKey) (sigs, digests [][]byte) {
	d := sha256.Sum256([]byte("comb"))
	sig := priv.SignHash(d)
	n := p256Order
	word := func(v *big.Int) []byte { return v.FillBytes(make([]byte, 32)) }
	s := new(big.Int).SetBytes(sig[32:])
	r := new(big.Int).SetBytes(sig[:32])
	join := func(a, b []byte) []byte { return append(append([]byte{}, a...), b...) }
	sigs = [][]byte{
		sig,
		join(sig[:32], word(new(big.Int).Sub(n, s))), // high S
		join(word(r), word(new(big.Int).Add(s, big.NewInt(1)))),
		join(word(new(big.Int).Sub(r, big.NewInt(1))), sig[32:]),
		join(word(big.NewInt(0)), sig[32:]),
		join(sig[:32], word(big.NewInt(0))),
		join(word(n), sig[32:]),
		join(sig[:32], word(n)),
		join(word(new(big.Int).Sub(n, big.NewInt(1))), word(new(big.Int).Sub(n, big.NewInt(1)))),
		join(word(big.NewInt(1)), word(big.NewInt(1))),
	}
	ones := make([]byte, 32)
	for i := range ones {
		ones[i] = 0xff
	}
	long := append(d[:], ones...)
	digests = [][]byte{d[:], ones, make([]byte, 32), d[:20], long, {}, word(n)}
	for i := range 8 {
		var buf [32]byte
		_, err := rand.Read(buf[:])
		require.NoError(t, err)
		sigs = append(sigs, priv.SignHash(buf))
		digests = append(digests, buf[:])
		if i%2 == 0 {
			sigs = append(sigs, join(buf[:], buf[:]))
		}
	}
	// Signatures over the edge digests (truncated to 32 bytes when longer).
	for _, dg := range digests[:7] {
		if len(dg) >= 32 {
			sigs = append(sigs, priv.SignHash([32]byte(dg[:32])))
		}
	}
	return sigs, digests
}

// TestCombMatchesECDSA checks the comb verifier against crypto/ecdsa on
// every combination of key, signature and digest above.
func TestCombMatchesECDSA(t *testing.T) {
	for range 3 {
		priv, err := NewPrivateKey()
		require.NoError(t, err)
		pub := priv.PublicKey()
		tab, err := newP256Table(pub.UncompressedBytes())
		require.NoError(t, err)
		sigs, digests := combCases(t, priv)
		valid := 0
		for _, sig := range sigs {
			for _, dg := range digests {
				want := slowVerify(pub, sig, dg)
				require.Equal(t, want, tab.verify(sig, dg), "sig %x digest %x", sig, dg)
				if want {
					valid++
				}
			}
		}
		require.Greater(t, valid, 10)
	}
}

// TestCombScalarMult checks k·Q from the table against nistec's own scalar
// multiplication for edge scalars.
func TestCombScalarMult(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	un := priv.PublicKey().UncompressedBytes()
	tab, err := newP256Table(un)
	require.NoError(t, err)
	nm1 := new(big.Int).Sub(p256Order, big.NewInt(1))
	scalars := []*big.Int{big.NewInt(1), big.NewInt(2), big.NewInt(31), big.NewInt(32), nm1,
		new(big.Int).Lsh(big.NewInt(1), 255), new(big.Int).Rsh(nm1, 1)}
	for range 5 {
		var b [32]byte
		_, err := rand.Read(b[:])
		require.NoError(t, err)
		scalars = append(scalars, new(big.Int).Mod(new(big.Int).SetBytes(b[:]), p256Order))
	}
	for _, k := range scalars {
		var kb [32]byte
		k.FillBytes(kb[:])
		q, err := newPoint(un)
		require.NoError(t, err)
		want, err := q.ScalarMult(q, kb[:])
		require.NoError(t, err)
		require.Equal(t, want.Bytes(), tab.mul(&kb).Bytes(), "k=%x", kb)
	}
}

func TestHotKeyPath(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	d := sha256.Sum256([]byte("hot"))
	sig := priv.SignHash(d)
	bad := append([]byte{}, sig...)
	bad[40] ^= 1
	k, err := NewPublicKeyFromBytes(priv.PublicKey().Bytes())
	require.NoError(t, err)
	for i := range 2 * hotThreshold {
		require.True(t, k.Verify(sig, d[:]), "use %d", i)
		require.False(t, k.Verify(bad, d[:]), "use %d", i)
	}
	require.NotNil(t, k.hot.table.Load(), "table built for a hot key")
	// A fresh copy from the cache shares the table.
	k2, err := NewPublicKeyFromBytes(priv.PublicKey().Bytes())
	require.NoError(t, err)
	require.Same(t, k.hot, k2.hot)
	require.True(t, k2.Verify(sig, d[:]))
}

// BenchmarkVerifyR1ECDSAPath is a verification of a key that is not hot
// (cache hit, crypto/ecdsa).
func BenchmarkVerifyR1ECDSAPath(b *testing.B) {
	priv, err := NewPrivateKey()
	require.NoError(b, err)
	d := sha256.Sum256([]byte("cold"))
	sig := priv.SignHash(d)
	enc := priv.PublicKey().Bytes()
	b.ReportAllocs()
	for b.Loop() {
		k, err := NewPublicKeyFromBytes(enc)
		if err != nil || !slowVerify(k, sig, d[:]) {
			b.Fatal("verify failed")
		}
	}
}

// BenchmarkCombTableBuild is the one-time cost of making a key hot.
func BenchmarkCombTableBuild(b *testing.B) {
	priv, err := NewPrivateKey()
	require.NoError(b, err)
	un := priv.PublicKey().UncompressedBytes()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := newP256Table(un); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzCombVerify compares the comb verifier with crypto/ecdsa on arbitrary
// signatures and digests for a fixed key.
func FuzzCombVerify(f *testing.F) {
	priv, err := NewPrivateKey()
	require.NoError(f, err)
	pub := priv.PublicKey()
	tab, err := newP256Table(pub.UncompressedBytes())
	require.NoError(f, err)
	sigs, digests := combCases(f, priv)
	for i, s := range sigs {
		f.Add(s, digests[i%len(digests)])
	}
	f.Fuzz(func(t *testing.T, sig, digest []byte) {
		if len(sig) != SignatureLen {
			return
		}
		if want, got := slowVerify(pub, sig, digest), tab.verify(sig, digest); want != got {
			t.Fatalf("sig %x digest %x: ecdsa %v, comb %v", sig, digest, want, got)
		}
	})
}
