package ecdsa

import (
	"bytes"
	"testing"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	"github.com/stretchr/testify/require"
)

func FuzzDecodePublicKey(f *testing.F) {
	for _, rk := range refKeys {
		pub := unhex(f, rk.pub)
		f.Add(byte(rk.curve), pub)
		f.Add(byte(rk.curve), compress(pub))
	}
	f.Add(byte(Secp256r1), offCurve())
	f.Add(byte(Secp256k1), []byte{3})
	f.Fuzz(func(t *testing.T, curve byte, data []byte) {
		c := Curve(curve%2 + 1)
		k, err := DecodePublicKey(c, data)
		if err != nil {
			require.Nil(t, k)
			return
		}
		// A decoded key re-encodes to its input in the same form, and the
		// other form decodes to the same key.
		compressed := len(data) == CompressedSize
		require.Equal(t, data, k.Bytes(compressed))
		other, err := DecodePublicKey(c, k.Bytes(!compressed))
		require.NoError(t, err)
		require.Equal(t, data, other.Bytes(compressed))
	})
}

func FuzzVerify(f *testing.F) {
	sig := unhex(f, "b8cba1ff42304d74d083e87706058f59cdd4f755b995926d2cd80a734c5a3c37e4583bfd4339ac762c1c91eee3782660a6baf62cd29e407eccd3da3e9de55a02")
	f.Add([]byte("中文"), unhex(f, "03661b86d54eb3a8e7ea2399e0db36ab65753f95fff661da53ae0121278b881ad0"), sig, byte(22))
	f.Add([]byte{}, offCurve(), sig, byte(123))
	f.Fuzz(func(t *testing.T, msg, pub, sig []byte, ch byte) {
		strictOK, strictErr := Verify(VariantGorgon, msg, pub, sig, CurveHash(ch))
		laxOK, laxErr := Verify(VariantCockatrice, msg, pub, sig, CurveHash(ch))
		// The Gorgon rules only turn false answers into FAULTs, never the
		// other way round, and never change a verified result.
		if strictErr == nil {
			require.NoError(t, laxErr)
			require.Equal(t, strictOK, laxOK)
		}
		if laxErr != nil {
			require.Error(t, strictErr)
		}
	})
}

func FuzzRecoverSecp256k1(f *testing.F) {
	for _, c := range refRecover {
		f.Add(unhex(f, c.hash), unhex(f, c.sig))
	}
	f.Add(make([]byte, 32), make([]byte, 64))
	f.Fuzz(func(t *testing.T, hash, sig []byte) {
		pub, ok := RecoverSecp256k1(hash, sig)
		if !ok {
			require.Nil(t, pub)
			return
		}
		k, err := secp256k1.ParsePubKey(pub)
		require.NoError(t, err)
		require.True(t, bytes.Equal(pub, k.SerializeCompressed()))
	})
}

func FuzzVerifyEd25519(f *testing.F) {
	for _, v := range rfc8032 {
		f.Add(unhex(f, v.msg), unhex(f, v.pub), unhex(f, v.sig))
	}
	f.Fuzz(func(t *testing.T, msg, pub, sig []byte) {
		strictOK, strictErr := VerifyEd25519(VariantGorgon, msg, pub, sig)
		laxOK, laxErr := VerifyEd25519(VariantCockatrice, msg, pub, sig)
		require.NoError(t, laxErr)
		if strictErr == nil {
			require.Equal(t, strictOK, laxOK)
		} else {
			require.False(t, laxOK)
		}
		if k, err := DecodeEd25519PublicKey(pub); err == nil {
			require.Equal(t, pub, k.Bytes())
		}
	})
}
