package ecdsa

import (
	stdecdsa "crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"math/big"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
	"github.com/stretchr/testify/require"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

// testKey is a private key with a signer producing r ‖ s over a digest.
type testKey struct {
	curve Curve
	pub   []byte // uncompressed
	sign  func(t testing.TB, hash []byte) []byte
}

func newTestKey(t testing.TB, c Curve, priv []byte) testKey {
	t.Helper()
	switch c {
	case Secp256k1:
		k := secp256k1.PrivKeyFromBytes(priv)
		return testKey{curve: c, pub: k.PubKey().SerializeUncompressed(), sign: func(t testing.TB, hash []byte) []byte {
			compact := k1ecdsa.SignCompact(k, hash, false) // v ‖ r ‖ s
			return compact[1:]
		}}
	default:
		k, err := stdecdsa.ParseRawPrivateKey(elliptic.P256(), priv)
		require.NoError(t, err)
		pub, err := k.PublicKey.Bytes()
		require.NoError(t, err)
		return testKey{curve: c, pub: pub, sign: func(t testing.TB, hash []byte) []byte {
			r, s, err := stdecdsa.Sign(rand.Reader, k, hash)
			require.NoError(t, err)
			sig := make([]byte, SignatureSize)
			r.FillBytes(sig[:32])
			s.FillBytes(sig[32:])
			return sig
		}}
	}
}

func compress(uncompressed []byte) []byte {
	out := make([]byte, CompressedSize)
	out[0] = 0x02 | uncompressed[64]&1
	copy(out[1:], uncompressed[1:33])
	return out
}

func hexs(b []byte) string { return hex.EncodeToString(b) }

func repeat(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// offCurve is the reference's format-valid but invalid P-256 key (1, 1).
func offCurve() []byte {
	b := make([]byte, UncompressedSize)
	b[0], b[32], b[64] = 4, 1, 1
	return b
}

func orderOf(c Curve) *big.Int {
	if c == Secp256k1 {
		return secp256k1.S256().N
	}
	return elliptic.P256().Params().N
}

func orderR1() []byte { return orderOf(Secp256r1).FillBytes(make([]byte, 32)) }

func bigFrom(b []byte) *big.Int { return new(big.Int).SetBytes(b) }

// signCompact signs hash with k and returns v ‖ r ‖ s (v in 27..28).
func signCompact(k *secp256k1.PrivateKey, hash []byte) []byte {
	return k1ecdsa.SignCompact(k, hash, false)
}
