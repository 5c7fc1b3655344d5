package ecdsa

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Key pairs from the reference's tests (C# UT_CryptoLib.TestVerifyWithECDsa,
// UT_Crypto.TestSecp256k1): the public keys are the reference's, the
// private keys sign with our signers.
var refKeys = []struct {
	curve     Curve
	priv, pub string
}{
	{Secp256r1, "6e63fda41e9e3aba9bb5696d58a75731f044a9bdc48fe546da571543b2fa460e",
		"04cae768e1cf58d50260cab808da8d6d83d5d3ab91eac41cdce577ce5862d736413643bdecd6d21c3b66f122ab080f9219204b10aa8bbceb86c1896974768648f3"},
	{Secp256k1, "0b5fb3a050385196b327be7d86cbce6e40a04c8832445af83ad19c82103b3ed9",
		"04b6363b353c3ee1620c5af58594458aa00abf43a6d134d7c4cb2d901dc0f474fd74c94740bd7169aa0b1ef7bc657e824b1d7f4283c547e7ec18c8576acf84418a"},
	{Secp256k1, "7177f0d04c79fa0b8c91fe90c1cf1d44772d1fba6e5eb9b281a22cd3aafb51fe",
		"04fd0a8c1ce5ae5570fdd46e7599c16b175bf0ebdfe9c178f1ab848fb16dac74a5d301b0534c7bcf1b3760881f0c420d17084907edd771e1c9c8e941bbf6ff9108"},
	{Secp256k1, "b2dde592bfce654ef03f1ceea452d2b0112e90f9f52099bcd86697a2bd0a2b60",
		"04" + "0486468683c112125978ffe876245b2006bfe739aca8539b67335079262cb27ad0dedc9e5583f99b61c6f46bf80b97eaec3654b87add0e5bd7106c69922a229d"},
}

func curveHashes(c Curve) []CurveHash {
	if c == Secp256k1 {
		return []CurveHash{Secp256k1SHA256, Secp256k1Keccak256}
	}
	return []CurveHash{Secp256r1SHA256, Secp256r1Keccak256}
}

func TestVerifyReferenceKeys(t *testing.T) {
	msg := []byte("HelloWorld")
	for _, rk := range refKeys {
		key := newTestKey(t, rk.curve, unhex(t, rk.priv))
		require.Equal(t, rk.pub, hexs(key.pub), "derived public key")
		for _, ch := range curveHashes(rk.curve) {
			h := digest(ch.Hash(), msg)
			sig := key.sign(t, h[:])
			for _, pub := range [][]byte{key.pub, compress(key.pub)} {
				for _, v := range []Variant{VariantPreCockatrice, VariantCockatrice, VariantGorgon} {
					ok, err := Verify(v, msg, pub, sig, ch)
					if v == VariantPreCockatrice && ch.Hash() == Keccak256 {
						require.ErrorIs(t, err, ErrUnsupportedCurveHash)
						continue
					}
					require.NoError(t, err)
					require.True(t, ok, "%s %d variant %d", rk.curve, ch, v)
					ok, err = Verify(v, []byte("other"), pub, sig, ch)
					require.NoError(t, err)
					require.False(t, ok)
				}
			}
			ok, err := VerifyWithCurveHash(msg, key.pub, sig, byte(ch))
			require.NoError(t, err)
			require.True(t, ok)
		}
	}
}

// A fixed signature from the reference (UT_Crypto.TestSecp256k1) over
// UTF-8 "中文" with SHA-256.
func TestVerifyReferenceSignatureK1(t *testing.T) {
	sig := unhex(t, "b8cba1ff42304d74d083e87706058f59cdd4f755b995926d2cd80a734c5a3c37e4583bfd4339ac762c1c91eee3782660a6baf62cd29e407eccd3da3e9de55a02")
	pub := unhex(t, "03661b86d54eb3a8e7ea2399e0db36ab65753f95fff661da53ae0121278b881ad0")
	ok, err := VerifyWithCurveHash([]byte("中文"), pub, sig, byte(Secp256k1SHA256))
	require.NoError(t, err)
	require.True(t, ok)
	ok, err = VerifyWithCurveHash([]byte("中文"), pub, sig, byte(Secp256k1Keccak256))
	require.NoError(t, err)
	require.False(t, ok)
}

// EIP-2098's second example as used by the reference (UT_Crypto.TestERC2098):
// r ‖ s over the Ethereum personal-message digest, Keccak-256.
func TestVerifyReferenceSignatureK1Keccak(t *testing.T) {
	body := "It's a small(er) world"
	msg := append([]byte("\x19Ethereum Signed Message:\n22"), body...)
	sig := unhex(t, "9328da16089fcba9bececa81663203989f2df5fe1faa6291a45381c81bd17f76139c6d6b623b42da56557e5e734a43dc83345ddfadec52cbe24d0cc64f550793")
	key := newTestKey(t, Secp256k1, unhex(t, "1234567890123456789012345678901234567890123456789012345678901234"))
	ok, err := VerifyWithCurveHash(msg, key.pub, sig, byte(Secp256k1Keccak256))
	require.NoError(t, err)
	require.True(t, ok)
}

// TestVerifyFaultVersusFalse checks the table in Verify's doc comment; the
// cases marked "ref" are the reference's own (UT_CryptoLib.
// TestVerifyWithECDsaInvalidParameters, UT_Crypto.TestVerifySignature).
func TestVerifyFaultVersusFalse(t *testing.T) {
	r1 := newTestKey(t, Secp256r1, unhex(t, refKeys[0].priv))
	msg := []byte("hello world")
	h := digest(SHA256, msg)
	sig := r1.sign(t, h[:])
	// no marks a (false, nil) answer; any other entry is the expected error.
	var no error
	var (
		format, curveHash = ErrPublicKeyFormat, ErrUnsupportedCurveHash
		offC, noPoint     = ErrPublicKeyNotOnCurve, ErrPublicKeyNoPoint
		rng, sigLen       = ErrPublicKeyRange, ErrSignatureLength
	)
	cases := []struct {
		name string
		pub  []byte
		sig  []byte
		ch   CurveHash
		want [3]error // PreCockatrice, Cockatrice, Gorgon
	}{
		{"ref: empty key", nil, sig, Secp256r1SHA256, [3]error{format, format, format}},
		{"ref: unknown curve hash", r1.pub, sig, 99, [3]error{curveHash, curveHash, curveHash}},
		{"ref: key 0x01", []byte{1}, sig, Secp256r1SHA256, [3]error{format, format, format}},
		{"ref: empty signature", compress(r1.pub), nil, Secp256r1SHA256, [3]error{no, no, sigLen}},
		{"ref: r1 key as k1", r1.pub, sig, Secp256k1SHA256, [3]error{offC, offC, offC}},
		{"ref: k1 x with no point", append([]byte{3}, repeat(3, 32)...), sig, Secp256k1SHA256, [3]error{noPoint, noPoint, noPoint}},
		{"ref: r1 x = 2^256-1", append([]byte{3}, repeat(0xff, 32)...), sig, Secp256r1SHA256, [3]error{no, no, rng}},
		{"ref: r1 (1,1) off curve", offCurve(), sig, Secp256r1SHA256, [3]error{offC, offC, offC}},
		{"off curve with Keccak", offCurve(), sig, Secp256r1Keccak256, [3]error{curveHash, no, offC}},
		{"off curve, short signature", offCurve(), sig[:32], Secp256r1SHA256, [3]error{no, no, offC}},
		{"wrong length compressed", compress(r1.pub)[:32], sig, Secp256r1SHA256, [3]error{format, format, format}},
		{"prefix 0x06", append([]byte{6}, r1.pub[1:]...), sig, Secp256r1SHA256, [3]error{format, format, format}},
		{"y = p", append(append([]byte{4}, r1.pub[1:33]...), primeR1...), sig, Secp256r1SHA256, [3]error{no, no, rng}},
		{"k1 x = p", append([]byte{2}, primeK1...), sig, Secp256k1SHA256, [3]error{no, no, rng}},
		{"keccak before Cockatrice", r1.pub, sig, Secp256r1Keccak256, [3]error{curveHash, no, no}},
		{"r = 0", r1.pub, append(make([]byte, 32), sig[32:]...), Secp256r1SHA256, [3]error{no, no, no}},
		{"s = n", r1.pub, append(append([]byte{}, sig[:32]...), orderR1()...), Secp256r1SHA256, [3]error{no, no, no}},
	}
	for _, c := range cases {
		for i, v := range []Variant{VariantPreCockatrice, VariantCockatrice, VariantGorgon} {
			ok, err := Verify(v, msg, c.pub, c.sig, c.ch)
			if c.want[i] != nil {
				require.ErrorIs(t, err, c.want[i], "%s variant %d", c.name, v)
			} else {
				require.NoError(t, err, "%s variant %d", c.name, v)
				require.False(t, ok, "%s variant %d", c.name, v)
			}
		}
	}
	// ref: 0x02 ‖ 0³² is a valid P-256 point; the signature is just wrong.
	ok, err := VerifyWithCurveHash(msg, append([]byte{2}, make([]byte, 32)...), sig, byte(Secp256r1SHA256))
	require.NoError(t, err)
	require.False(t, ok)
}

// High s is accepted, as the reference does not normalize signatures.
func TestVerifyHighS(t *testing.T) {
	for _, rk := range refKeys[:2] {
		key := newTestKey(t, rk.curve, unhex(t, rk.priv))
		h := digest(SHA256, []byte("malleable"))
		sig := key.sign(t, h[:])
		n := orderOf(rk.curve)
		s := bigFrom(sig[32:])
		s.Sub(n, s)
		s.FillBytes(sig[32:])
		ok, err := Verify(VariantGorgon, []byte("malleable"), key.pub, sig, curveHashes(rk.curve)[0])
		require.NoError(t, err)
		require.True(t, ok, rk.curve.String())
	}
}

func TestKeccakReference(t *testing.T) {
	// Values from the reference's UT_CryptoLib.TestKeccak256_* tests.
	for in, want := range map[string]string{
		"Hello, World!": "acaf3289d7b601cbd114fb36c4d29c85bbfd5e133f14cb355c3fd8d99367964f",
		"Keccak":        "868c016b666c7d3698636ee1bd023f3f065621514ab61bf26f062c175fdbe7f2",
		"Cryptography":  "53d49d225dd2cfe77d8c5e2112bcc9efe77bea1c7aa5e5ede5798a36e99e2d29",
		"Testing123":    "3f82db7b16b0818a1c6b2c6152e265f682d5ebcf497c9aad776ad38bc39cb6ca",
		"This is a longer string for Keccak256 testing purposes.": "24115e5c2359f85f6840b42acd2f7ea47bc239583e576d766fa173bf711bdd2f",
		"": "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
	} {
		got := KeccakSum256([]byte(in))
		require.Equal(t, want, hexs(got[:]), in)
	}
}

func TestCurveHashParts(t *testing.T) {
	require.Equal(t, Secp256k1, Secp256k1Keccak256.Curve())
	require.Equal(t, Keccak256, Secp256k1Keccak256.Hash())
	require.Equal(t, Secp256r1, Secp256r1SHA256.Curve())
	require.Equal(t, SHA256, Secp256r1SHA256.Hash())
	require.False(t, CurveHash(24).Valid())
	require.Equal(t, Curve(0), CurveHash(24).Curve())
	require.Equal(t, HashAlgorithm(0), CurveHash(24).Hash())
	require.Equal(t, VariantPreCockatrice, VariantAt(false, false))
	require.Equal(t, VariantCockatrice, VariantAt(true, false))
	require.Equal(t, VariantGorgon, VariantAt(true, true))
	require.Equal(t, "unknown", Curve(9).String())
}

func TestPublicKeyRoundTrip(t *testing.T) {
	for _, rk := range refKeys {
		pub := unhex(t, rk.pub)
		for _, enc := range [][]byte{pub, compress(pub)} {
			k, err := DecodePublicKey(rk.curve, enc)
			require.NoError(t, err)
			require.Equal(t, rk.curve, k.Curve())
			require.Equal(t, enc, k.Bytes(len(enc) == CompressedSize))
			require.Equal(t, pub, k.Bytes(false))
		}
	}
	_, err := DecodePublicKey(Curve(7), unhex(t, refKeys[0].pub))
	require.ErrorIs(t, err, ErrUnsupportedCurveHash)
}
