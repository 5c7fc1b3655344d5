package ecdsa

import (
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/stretchr/testify/require"
)

// Recovery vectors from the reference's UT_Crypto.TestECRecover.
var refRecover = []struct{ hash, sig, pub string }{
	{"5ae8317d34d1e595e3fa7247db80c0af4320cce1116de187f8f7e2e099c0d8d0",
		"45c0b7f8c09a9e1f1cea0c25785594427b6bf8f9f878a8af0b1abbb48e16d0920d8becd0c220f67c51217eecfd7184ef0732481c843857e6bc7fc095c4f6b78801",
		"034a071e8a6e10aada2b8cf39fa3b5fb3400b04e99ea8ae64ceea1a977dbeaf5d5"},
	{"586052916fb6f746e1d417766cceffbe1baf95579bab67ad49addaaa6e798862",
		"4e0ea79d4a476276e4b067facdec7460d2c98c8a65326a6e5c998fd7c65061140e45aea5034af973410e65cf97651b3f2b976e3fc79c6a93065ed7cb69a2ab5a01",
		"02dbf1f4092deb3cfd4246b2011f7b24840bc5dbedae02f28471ce5b3bfbf06e71"},
	{"c36d0ecf4bfd178835c97aae7585f6a87de7dfa23cc927944f99a8d60feff68b",
		"f25b86e1d8a11d72475b3ed273b0781c7d7f6f9e1dae0dd5d3ee9b84f3fab89163d9c4e1391de077244583e9a6e3d8e8e1f236a3bf5963735353b93b1a3ba93500",
		"03414549fd05bfb7803ae507ff86b99becd36f8d66037a7f5ba612792841d42eb9"},
}

func TestRecoverReference(t *testing.T) {
	for i, c := range refRecover {
		pub, ok := RecoverSecp256k1(unhex(t, c.hash), unhex(t, c.sig))
		require.True(t, ok, "case %d", i)
		require.Equal(t, c.pub, hexs(pub), "case %d", i)

		// v may also be given as 27/28.
		sig := unhex(t, c.sig)
		sig[64] += 27
		pub, ok = RecoverSecp256k1(unhex(t, c.hash), sig)
		require.True(t, ok)
		require.Equal(t, c.pub, hexs(pub))
	}
	// ref: an all-zero signature and recovery id 29 (x = r + n ≥ p) give null.
	_, ok := RecoverSecp256k1(unhex(t, refRecover[0].hash), make([]byte, 65))
	require.False(t, ok)
	sig := unhex(t, refRecover[0].sig)
	sig[64] = 29
	_, ok = RecoverSecp256k1(unhex(t, refRecover[0].hash), sig)
	require.False(t, ok)
	// ref: the wrong hash recovers some other key.
	pub, ok := RecoverSecp256k1(unhex(t, refRecover[1].hash), unhex(t, refRecover[0].sig))
	require.True(t, ok)
	require.NotEqual(t, refRecover[0].pub, hexs(pub))
}

// EIP-2098 examples as used by the reference (UT_Crypto.TestERC2098).
func TestRecoverEIP2098(t *testing.T) {
	key := newTestKey(t, Secp256k1, unhex(t, "1234567890123456789012345678901234567890123456789012345678901234"))
	want := hexs(compress(key.pub))
	personal := func(body string) []byte {
		msg := append([]byte("\x19Ethereum Signed Message:\n"), []byte(itoa(len(body)))...)
		h := KeccakSum256(append(msg, body...))
		return h[:]
	}
	sig := unhex(t, "68a020a209d3d56c46f38cc50a33f704f4a9a10a59377f8dd762ac66910e9b907e865ad05c4035ab5792787d4a0297a43617ae897930a6fe4d822b8faea520641b")
	pub, ok := RecoverSecp256k1(personal("Hello World"), sig)
	require.True(t, ok)
	require.Equal(t, want, hexs(pub))

	compact := unhex(t, "9328da16089fcba9bececa81663203989f2df5fe1faa6291a45381c81bd17f76939c6d6b623b42da56557e5e734a43dc83345ddfadec52cbe24d0cc64f550793")
	pub, ok = RecoverSecp256k1(personal("It's a small(er) world"), compact)
	require.True(t, ok)
	require.Equal(t, want, hexs(pub))
}

// Our own signatures recover to the signer for every recovery id.
func TestRecoverOwnSignatures(t *testing.T) {
	for i := range 20 {
		priv := make([]byte, 32)
		priv[0], priv[31] = byte(i+1), byte(7*i+3)
		k := secp256k1.PrivKeyFromBytes(priv)
		h := KeccakSum256([]byte{byte(i)})
		compact := signCompact(k, h[:]) // v ‖ r ‖ s with v in 27..28
		sig := append(append([]byte{}, compact[1:]...), compact[0]-27)
		pub, ok := RecoverSecp256k1(h[:], sig)
		require.True(t, ok)
		require.Equal(t, k.PubKey().SerializeCompressed(), pub)
	}
}

func TestRecoverRejects(t *testing.T) {
	hash := unhex(t, refRecover[0].hash)
	sig := unhex(t, refRecover[0].sig)
	for _, c := range []struct {
		name      string
		hash, sig []byte
	}{
		{"short hash", hash[:31], sig},
		{"long hash", append(hash, 0), sig},
		{"63-byte sig", hash, sig[:63]},
		{"66-byte sig", hash, append(sig, 0)},
		{"v = 4", hash, withV(sig, 4)},
		{"v = 26", hash, withV(sig, 26)},
		{"v = 31", hash, withV(sig, 31)},
		{"r = 0", hash, withR(sig, make([]byte, 32))},
		{"r = n", hash, withR(sig, secp256k1.S256().N.FillBytes(make([]byte, 32)))},
		{"x not on curve", hash, withR(sig, repeat(0, 31))},
	} {
		_, ok := RecoverSecp256k1(c.hash, c.sig)
		require.False(t, ok, c.name)
	}
}

// The reference reduces s modulo n and takes r as the x coordinate before
// reducing it: s = 0, s ≥ n and r ∈ [n, p) all recover a key (neo-go
// refuses them).
func TestRecoverLikeReference(t *testing.T) {
	hash := unhex(t, refRecover[0].hash)
	n := secp256k1.S256().N
	sig := func(r, s *big.Int, v byte) []byte {
		out := make([]byte, 65)
		r.FillBytes(out[:32])
		s.FillBytes(out[32:64])
		out[64] = v
		return out
	}
	// Find a small j such that both x = j and x = n + j are on the curve.
	var j int64
	for j = 1; ; j++ {
		_, okLow := RecoverSecp256k1(hash, sig(big.NewInt(j), big.NewInt(5), 0))
		_, okHigh := RecoverSecp256k1(hash, sig(big.NewInt(j), big.NewInt(5), 2))
		if okLow && okHigh {
			break
		}
	}
	r := big.NewInt(j)
	s := big.NewInt(5)
	base, ok := RecoverSecp256k1(hash, sig(r, s, 0))
	require.True(t, ok)

	sn, ok := RecoverSecp256k1(hash, sig(r, new(big.Int).Add(s, n), 0))
	require.True(t, ok, "s + n")
	require.Equal(t, base, sn)

	_, ok = RecoverSecp256k1(hash, sig(r, new(big.Int), 0))
	require.True(t, ok, "s = 0 gives -e/r·G")

	// r' = n + j with v = 0 lifts x = n + j and inverts j: the same as
	// r = j with v = 2.
	high, ok := RecoverSecp256k1(hash, sig(r, s, 2))
	require.True(t, ok)
	rn, ok := RecoverSecp256k1(hash, sig(new(big.Int).Add(r, n), s, 0))
	require.True(t, ok, "r ≥ n")
	require.Equal(t, high, rn)
}

func withV(sig []byte, v byte) []byte {
	c := append([]byte{}, sig...)
	c[64] = v
	return c
}

func withR(sig, r []byte) []byte {
	c := append([]byte{}, sig...)
	copy(c[32-len(r):32], r)
	if len(r) < 32 {
		for i := range 32 - len(r) {
			c[i] = 0
		}
		c[31] = 5 // x = 5 has no point on secp256k1
	}
	return c
}

func itoa(v int) string { return big.NewInt(int64(v)).String() }
