package ecdsa

import (
	"crypto/ed25519"
	"crypto/sha512"
	"testing"

	"filippo.io/edwards25519"
	"github.com/stretchr/testify/require"
)

// RFC 8032 section 7.1 vectors 1-3 as used by the reference
// (UT_Ed25519.TestVectorCase1..3, UT_CryptoLib.TestVerifyWithEd25519).
var rfc8032 = []struct{ seed, pub, msg, sig string }{
	{"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
		"d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
		"e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
	{"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
		"3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
		"92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
	{"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
		"fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
		"6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
}

var variants = []Variant{VariantCockatrice, VariantGorgon}

func TestEd25519RFC8032(t *testing.T) {
	for i, v := range rfc8032 {
		priv := ed25519.NewKeyFromSeed(unhex(t, v.seed))
		require.Equal(t, v.pub, hexs(priv.Public().(ed25519.PublicKey)), "case %d", i)
		require.Equal(t, v.sig, hexs(ed25519.Sign(priv, unhex(t, v.msg))), "case %d", i)
		for _, vr := range variants {
			ok, err := VerifyEd25519(vr, unhex(t, v.msg), unhex(t, v.pub), unhex(t, v.sig))
			require.NoError(t, err)
			require.True(t, ok, "case %d", i)
		}
	}
}

// The reference's own negative cases (UT_CryptoLib.TestVerifyWithEd25519,
// TestVerifyWithEd25519InvalidParameters, ..._PreGorgon_InvalidLength...).
func TestEd25519ReferenceNegatives(t *testing.T) {
	pub, sig := unhex(t, rfc8032[0].pub), unhex(t, rfc8032[0].sig)
	for _, vr := range variants {
		ok, err := VerifyEd25519(vr, []byte("Different message"), pub, sig)
		require.NoError(t, err)
		require.False(t, ok)
		badSig := append([]byte{}, sig...)
		badSig[0] ^= 1
		ok, err = VerifyEd25519(vr, nil, pub, badSig)
		require.NoError(t, err)
		require.False(t, ok)
	}
	badPub := append([]byte{}, pub...)
	badPub[0] ^= 1 // not a curve point: the reference FAULTs from Gorgon
	_, err := VerifyEd25519(VariantGorgon, nil, badPub, sig)
	require.ErrorIs(t, err, ErrEd25519PublicKey)
	ok, err := VerifyEd25519(VariantCockatrice, nil, badPub, sig)
	require.NoError(t, err)
	require.False(t, ok)

	for _, c := range []struct {
		pub, sig []byte
		want     error
	}{{nil, sig, ErrEd25519PublicKeyLength}, {pub, nil, ErrEd25519SignatureLength}, {pub, sig[:63], ErrEd25519SignatureLength}, {pub[:31], sig, ErrEd25519PublicKeyLength}} {
		_, err := VerifyEd25519(VariantGorgon, nil, c.pub, c.sig)
		require.ErrorIs(t, err, c.want)
		ok, err := VerifyEd25519(VariantCockatrice, nil, c.pub, c.sig)
		require.NoError(t, err)
		require.False(t, ok)
	}
}

// Keys the reference's partial validation refuses: the eight small-order
// points and non-canonical encodings.
func TestEd25519PublicKeyValidation(t *testing.T) {
	order8 := unhex(t, "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa")
	t8, err := new(edwards25519.Point).SetBytes(order8)
	require.NoError(t, err)
	var p edwards25519.Point
	require.Equal(t, 1, p.MultByCofactor(t8).Equal(edwards25519.NewIdentityPoint()))
	p.Add(t8, t8)
	p.Add(&p, &p)
	require.Equal(t, 0, p.Equal(edwards25519.NewIdentityPoint()), "t8 has order 8")

	multiple := edwards25519.NewIdentityPoint()
	for i := range 8 {
		enc := multiple.Bytes()
		_, err := DecodeEd25519PublicKey(enc)
		require.ErrorIs(t, err, ErrEd25519PublicKey, "torsion point %d", i)
		multiple.Add(multiple, t8)
	}
	for name, enc := range map[string]string{
		"y = p (0, non-canonical)":   "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"y = p+1 (1, non-canonical)": "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"identity with sign bit":     "0100000000000000000000000000000000000000000000000000000000000080",
	} {
		_, err := DecodeEd25519PublicKey(unhex(t, enc))
		require.ErrorIs(t, err, ErrEd25519PublicKey, name)
	}
	k, err := DecodeEd25519PublicKey(unhex(t, rfc8032[1].pub))
	require.NoError(t, err)
	require.Equal(t, rfc8032[1].pub, hexs(k.Bytes()))
	_, err = DecodeEd25519PublicKey(make([]byte, 31))
	require.ErrorIs(t, err, ErrEd25519PublicKeyLength)
}

// The reference's check is cofactored: a key with a small-order component
// gives signatures that verify here although crypto/ed25519 (cofactorless)
// refuses most of them.
func TestEd25519Cofactored(t *testing.T) {
	t8, err := new(edwards25519.Point).SetBytes(unhex(t, "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"))
	require.NoError(t, err)
	a := scalarFrom(t, "secret")
	pubPoint := new(edwards25519.Point).ScalarBaseMult(a)
	pubPoint.Add(pubPoint, t8)
	pub := pubPoint.Bytes()

	stdRejected := 0
	for i := range 16 {
		msg := []byte{byte(i)}
		r := scalarFrom(t, "nonce"+string(msg))
		bigR := new(edwards25519.Point).ScalarBaseMult(r).Bytes()
		h := sha512.Sum512(append(append(append([]byte{}, bigR...), pub...), msg...))
		k, err := edwards25519.NewScalar().SetUniformBytes(h[:])
		require.NoError(t, err)
		s := edwards25519.NewScalar().MultiplyAdd(k, a, r)
		sig := append(bigR, s.Bytes()...)
		for _, vr := range variants {
			ok, err := VerifyEd25519(vr, msg, pub, sig)
			require.NoError(t, err)
			require.True(t, ok, "message %d", i)
		}
		if !ed25519.Verify(pub, msg, sig) {
			stdRejected++
		}
		// S + L is not canonical: false.
		sig2 := append(append([]byte{}, sig[:32]...), addL(s.Bytes())...)
		ok, err := VerifyEd25519(VariantGorgon, msg, pub, sig2)
		require.NoError(t, err)
		require.False(t, ok)
	}
	require.Positive(t, stdRejected, "the cofactorless verifier disagrees on some")
}

func scalarFrom(t *testing.T, seed string) *edwards25519.Scalar {
	t.Helper()
	h := sha512.Sum512([]byte(seed))
	s, err := edwards25519.NewScalar().SetUniformBytes(h[:])
	require.NoError(t, err)
	return s
}

// addL returns the 32-byte little-endian s + L (no overflow for s < L).
func addL(s []byte) []byte {
	l := []byte{0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10}
	out := make([]byte, 32)
	var carry uint16
	for i := range out {
		v := uint16(s[i]) + uint16(l[i]) + carry
		out[i] = byte(v)
		carry = v >> 8
	}
	return out
}
