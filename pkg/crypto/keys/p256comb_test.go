package keys

import (
	"crypto/ecdsa"
	"crypto/rand"
	"crypto/sha256"
	"fmt"
	"math/big"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// slowVerify is crypto/ecdsa's verdict, which ours must match.
func slowVerify(p *PublicKey, sig, digest []byte) bool {
	r := new(big.Int).SetBytes(sig[:coordLen])
	s := new(big.Int).SetBytes(sig[coordLen:])
	return ecdsa.Verify(p.r1, digest, r, s)
}

// word returns v as 32 big-endian bytes.
func word(v *big.Int) []byte { return v.FillBytes(make([]byte, 32)) }

func join(a, b []byte) []byte { return append(append([]byte{}, a...), b...) }

// combCases returns signatures and digests around every acceptance rule.
func combCases(t testing.TB, priv *PrivateKey) (sigs, digests [][]byte) {
	d := sha256.Sum256([]byte("comb"))
	sig := priv.SignHash(d)
	n := p256Order
	s := new(big.Int).SetBytes(sig[32:])
	r := new(big.Int).SetBytes(sig[:32])
	one := big.NewInt(1)
	sigs = [][]byte{
		sig,
		join(sig[:32], word(new(big.Int).Sub(n, s))), // high S
		join(word(r), word(new(big.Int).Add(s, one))),
		join(word(new(big.Int).Sub(r, one)), sig[32:]),
		join(word(big.NewInt(0)), sig[32:]),
		join(sig[:32], word(big.NewInt(0))),
		join(word(n), sig[32:]),
		join(sig[:32], word(n)),
		join(word(new(big.Int).Sub(n, one)), word(new(big.Int).Sub(n, one))),
		join(word(one), word(one)),
		join(make([]byte, 32), make([]byte, 32)),
		join(word(p256Prime.toBig()), sig[32:]),
	}
	if rn := new(big.Int).Add(r, n); rn.BitLen() <= 256 {
		sigs = append(sigs, join(word(rn), sig[32:])) // r + N, for small r
	}
	ones := make([]byte, 32)
	for i := range ones {
		ones[i] = 0xff
	}
	long := append(d[:], ones...)
	digests = [][]byte{d[:], ones, make([]byte, 32), d[:20], long, {}, word(n), word(new(big.Int).Add(n, one))}
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
	for _, dg := range digests[:8] {
		if len(dg) >= 32 {
			sigs = append(sigs, priv.SignHash([32]byte(dg[:32])))
		}
	}
	return sigs, digests
}

// requireAllPaths checks the cold (nistec) and hot (comb) verifiers and the
// public Verify against crypto/ecdsa and returns the verdict.
func requireAllPaths(t testing.TB, pub *PublicKey, tab *p256Comb, sig, dg []byte) bool {
	want := slowVerify(pub, sig, dg)
	require.Equal(t, want, p256VerifyNistec(pub.hot.nq, sig, dg), "cold: sig %x digest %x", sig, dg)
	require.Equal(t, want, p256Verify(tab, sig, dg), "comb: sig %x digest %x", sig, dg)
	require.Equal(t, want, pub.Verify(sig, dg), "Verify: sig %x digest %x", sig, dg)
	return want
}

// TestVerifyMatchesECDSA checks both verifiers against crypto/ecdsa on
// every combination of key, signature and digest above.
func TestVerifyMatchesECDSA(t *testing.T) {
	for range 3 {
		priv, err := NewPrivateKey()
		require.NoError(t, err)
		pub := priv.PublicKey()
		tab := newP256Comb(pointOf(pub), combBitsQ)
		sigs, digests := combCases(t, priv)
		valid := 0
		for _, sig := range sigs {
			for _, dg := range digests {
				if requireAllPaths(t, pub, tab, sig, dg) {
					valid++
				}
			}
		}
		require.Greater(t, valid, 10)
	}
}

// TestVerifyRandomKeys compares with crypto/ecdsa on many keys, with valid
// signatures and single-bit corruptions of the signature and the digest.
func TestVerifyRandomKeys(t *testing.T) {
	for i := range 40 {
		priv, err := NewPrivateKey()
		require.NoError(t, err)
		pub := priv.PublicKey()
		tab := newP256Comb(pointOf(pub), combBitsQ)
		var d [32]byte
		_, err = rand.Read(d[:])
		require.NoError(t, err)
		sig := priv.SignHash(d)
		require.True(t, requireAllPaths(t, pub, tab, sig, d[:]))
		bad := join(sig, nil)
		bad[i%64] ^= 1 << (i % 8)
		require.False(t, requireAllPaths(t, pub, tab, bad, d[:]))
		d[i%32] ^= 0x80
		require.False(t, requireAllPaths(t, pub, tab, sig, d[:]))
	}
}

func TestHotKeyPath(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	d := sha256.Sum256([]byte("hot"))
	sig := priv.SignHash(d)
	bad := join(sig, nil)
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

// TestHotKeyConcurrent verifies with one key from many goroutines while it
// turns hot (run with -race).
func TestHotKeyConcurrent(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	d := sha256.Sum256([]byte("concurrent"))
	sig := priv.SignHash(d)
	enc := priv.PublicKey().Bytes()
	var wg sync.WaitGroup
	results := make(chan bool, 8*hotThreshold)
	for range 8 {
		wg.Go(func() {
			for range hotThreshold {
				k, err := NewPublicKeyFromBytes(enc)
				results <- err == nil && k.Verify(sig, d[:])
			}
		})
	}
	wg.Wait()
	close(results)
	for ok := range results {
		require.True(t, ok)
	}
	k, err := NewPublicKeyFromBytes(enc)
	require.NoError(t, err)
	require.NotNil(t, k.hot.table.Load())
}

// BenchmarkCombTableBuild is the one-time cost of making a key hot.
func BenchmarkCombTableBuild(b *testing.B) {
	priv, err := NewPrivateKey()
	require.NoError(b, err)
	q := pointOf(priv.PublicKey())
	b.ReportAllocs()
	for b.Loop() {
		newP256Comb(q, combBitsQ)
	}
}

// FuzzP256Verify compares both verifiers with crypto/ecdsa on arbitrary
// signatures and digests, for a fixed key and for a key from the input.
func FuzzP256Verify(f *testing.F) {
	priv, err := NewPrivateKey()
	require.NoError(f, err)
	pub := priv.PublicKey()
	tab := newP256Comb(pointOf(pub), combBitsQ)
	sigs, digests := combCases(f, priv)
	for i, s := range sigs {
		f.Add(pub.Bytes(), s, digests[i%len(digests)])
	}
	g := p256Base(f)
	f.Add(g.Bytes(), join(word(big.NewInt(1)), word(big.NewInt(1))), make([]byte, 32))
	f.Fuzz(func(t *testing.T, key, sig, digest []byte) {
		if len(sig) != SignatureLen {
			return
		}
		if want, got := slowVerify(pub, sig, digest), p256Verify(tab, sig, digest); want != got {
			t.Fatalf("comb: sig %x digest %x: ecdsa %v, ours %v", sig, digest, want, got)
		}
		k, err := NewPublicKeyFromBytes(key)
		if err != nil {
			k = pub
		}
		if want, got := slowVerify(k, sig, digest), p256VerifyNistec(k.hot.nq, sig, digest); want != got {
			t.Fatalf("key %x sig %x digest %x: ecdsa %v, ours %v", key, sig, digest, want, got)
		}
	})
}

// BenchmarkP256VerifyPaths compares the verifiers on one key: our comb,
// the nistec-based cold path, and crypto/ecdsa.
func BenchmarkP256VerifyPaths(b *testing.B) {
	pub, tab, sig, d := benchSignedComb(b)
	paths := []struct {
		name string
		f    func() bool
	}{
		{"comb", func() bool { return p256Verify(tab, sig, d[:]) }},
		{"nistec", func() bool { return p256VerifyNistec(pub.hot.nq, sig, d[:]) }},
		{"ecdsa", func() bool { return slowVerify(pub, sig, d[:]) }},
	}
	for _, p := range paths {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !p.f() {
					b.Fatal("verify failed")
				}
			}
		})
	}
}

// benchSignedComb makes a key, its comb table and a signature of digest d
// by it, for the verification benchmarks.
func benchSignedComb(b *testing.B) (pub *PublicKey, tab *p256Comb, sig []byte, d [32]byte) {
	priv, err := NewPrivateKey()
	require.NoError(b, err)
	pub = priv.PublicKey()
	d = sha256.Sum256([]byte("paths"))
	return pub, newP256Comb(pointOf(pub), combBitsQ), priv.SignHash(d), d
}

// TestWideKeyPath verifies with one key until it gets its wide table, then
// checks that the wide table accepts and rejects exactly as the other
// paths do.
func TestWideKeyPath(t *testing.T) {
	priv, err := NewPrivateKey()
	require.NoError(t, err)
	d := sha256.Sum256([]byte("wide"))
	sig := priv.SignHash(d)
	k, err := NewPublicKeyFromBytes(priv.PublicKey().Bytes())
	require.NoError(t, err)
	for i := range wideThreshold + 1 {
		if i == hotThreshold {
			tab := k.hot.table.Load()
			require.NotNil(t, tab, "hot after %d uses", i)
			require.Equal(t, uint(combBitsQ), tab.bits)
		}
		require.True(t, k.hot.verify(sig, d[:]), "use %d", i)
	}
	tab := k.hot.table.Load()
	require.NotNil(t, tab)
	require.Equal(t, uint(combBitsWide), tab.bits, "wide after %d uses", wideThreshold)
	sigs, digests := combCases(t, priv)
	valid := 0
	for i, sg := range sigs {
		for j, dg := range digests {
			want := slowVerify(k, sg, dg)
			require.Equal(t, want, p256Verify(tab, sg, dg), "signature %d, digest %d", i, j)
			if want {
				valid++
			}
		}
	}
	require.Greater(t, valid, 10)
	for i := range 64 {
		bad := join(sig, nil)
		bad[i] ^= 1 << (i % 8)
		require.False(t, p256Verify(tab, bad, d[:]))
	}
}

// BenchmarkP256VerifyWide compares a verification with a hot key's table
// and with a very hot key's wide one.
func BenchmarkP256VerifyWide(b *testing.B) {
	pub, _, sig, d := benchSignedComb(b)
	for _, bits := range []uint{combBitsQ, combBitsWide} {
		tab := newP256Comb(pointOf(pub), bits)
		b.Run(fmt.Sprintf("q%d", bits), func(b *testing.B) {
			for b.Loop() {
				if !p256Verify(tab, sig, d[:]) {
					b.Fatal("verify failed")
				}
			}
		})
	}
}

// BenchmarkP256VerifyEvicted verifies after evicting the tables from the
// caches (as a node's other work does between two verifications of its
// transactions), with and without touching every selected point first.
func BenchmarkP256VerifyEvicted(b *testing.B) {
	pub, _, sig, d := benchSignedComb(b)
	evict := make([]uint64, 48<<20/8)
	untouched := func(t *p256Comb) bool {
		r, u1, u2, ok := p256VerifyScalars(sig, d[:])
		if !ok {
			return false
		}
		var qd, gd [64]int32
		var acc p256XYZZ
		t.addDigits(&acc, qd[:signedDigits(&u2, t.bits, &qd)])
		g := p256GComb()
		g.addDigits(&acc, gd[:signedDigits(&u1, g.bits, &gd)])
		return acc.xModNEquals(&r)
	}
	touched := func(t *p256Comb) bool { return p256Verify(t, sig, d[:]) }
	for _, bits := range []uint{combBitsQ, combBitsWide} {
		tab := newP256Comb(pointOf(pub), bits)
		for _, v := range []struct {
			name   string
			verify func(*p256Comb) bool
		}{{"untouched", untouched}, {"touched", touched}} {
			b.Run(fmt.Sprintf("q%d/%s", bits, v.name), func(b *testing.B) {
				for b.Loop() {
					b.StopTimer()
					for i := 0; i < len(evict); i += 8 {
						evict[i]++
					}
					b.StartTimer()
					if !v.verify(tab) {
						b.Fatal("verify failed")
					}
				}
			})
		}
	}
}
