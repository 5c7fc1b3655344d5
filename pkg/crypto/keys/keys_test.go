package keys_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"os"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/stretchr/testify/require"
)

type keyVector struct {
	Address    string `json:"address"`
	PrivateKey string `json:"privateKey"`
	PublicKey  string `json:"publicKey"`
	WIF        string `json:"wif"`
	Passphrase string `json:"passphrase"`
	NEP2       string `json:"nep2"`
}

type rfcVector struct {
	PrivateKey string `json:"privateKey"`
	PublicKeyX string `json:"publicKeyX"`
	PublicKeyY string `json:"publicKeyY"`
	Cases      []struct {
		Message string `json:"message"`
		R       string `json:"r"`
		S       string `json:"s"`
	} `json:"cases"`
}

type vectors struct {
	Keys    []keyVector `json:"keys"`
	Invalid []struct {
		WIF string `json:"wif"`
	} `json:"invalid"`
	RFC6979 rfcVector `json:"rfc6979"`
}

func loadVectors(t testing.TB) vectors {
	t.Helper()
	b, err := os.ReadFile("testdata/vectors.json")
	require.NoError(t, err)
	var v vectors
	require.NoError(t, json.Unmarshal(b, &v))
	require.NotEmpty(t, v.Keys)
	return v
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	require.NoError(t, err)
	return b
}

func TestKeyVectors(t *testing.T) {
	for _, v := range loadVectors(t).Keys {
		t.Run(v.Address, func(t *testing.T) {
			priv, err := keys.NewPrivateKeyFromHex(v.PrivateKey)
			require.NoError(t, err)
			require.Equal(t, v.PrivateKey, priv.String())
			require.Equal(t, v.PublicKey, priv.PublicKey().String())
			require.Equal(t, v.Address, priv.Address())
			require.Equal(t, v.WIF, priv.WIF())

			fromWIF, err := keys.NewPrivateKeyFromWIF(v.WIF)
			require.NoError(t, err)
			require.Equal(t, v.PrivateKey, fromWIF.String())

			pub, err := keys.NewPublicKeyFromString(v.PublicKey)
			require.NoError(t, err)
			require.True(t, pub.Equal(priv.PublicKey()))
			require.Equal(t, v.Address, pub.Address())
			require.Equal(t, priv.ScriptHash(), pub.ScriptHash())
		})
	}
}

func TestInvalidWIF(t *testing.T) {
	for _, v := range loadVectors(t).Invalid {
		_, err := keys.NewPrivateKeyFromWIF(v.WIF)
		require.ErrorIs(t, err, keys.ErrInvalidWIF)
	}
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	// Version and compression flag are both mandatory (reference rule).
	_, err = keys.NewPrivateKeyFromWIF("5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ") // bitcoin uncompressed WIF
	require.ErrorIs(t, err, keys.ErrInvalidWIF)
	back, err := keys.NewPrivateKeyFromWIF(priv.WIF())
	require.NoError(t, err)
	require.Equal(t, priv.Bytes(), back.Bytes())
}

func TestRFC6979(t *testing.T) {
	v := loadVectors(t).RFC6979
	priv, err := keys.NewPrivateKeyFromHex(v.PrivateKey)
	require.NoError(t, err)
	un := priv.PublicKey().UncompressedBytes()
	require.Equal(t, v.PublicKeyX, hex.EncodeToString(un[1:33]))
	require.Equal(t, v.PublicKeyY, hex.EncodeToString(un[33:]))
	for _, c := range v.Cases {
		sig := priv.Sign([]byte(c.Message))
		require.Equal(t, c.R+c.S, hex.EncodeToString(sig), c.Message)
		require.True(t, priv.PublicKey().VerifyMessage(sig, []byte(c.Message)))
	}
}

func TestSignVerify(t *testing.T) {
	for _, c := range []keys.Curve{keys.Secp256r1, keys.Secp256k1} {
		t.Run(c.String(), func(t *testing.T) {
			priv, err := keys.NewPrivateKeyOnCurve(c)
			require.NoError(t, err)
			require.Equal(t, c, priv.Curve())
			msg := []byte("neo n3")
			digest := sha256.Sum256(msg)
			sig := priv.Sign(msg)
			require.Len(t, sig, keys.SignatureLen)
			require.Equal(t, sig, priv.SignHash(digest), "deterministic")
			pub := priv.PublicKey()
			require.True(t, pub.Verify(sig, digest[:]))

			// The same key decoded from both encodings verifies too.
			for _, enc := range [][]byte{pub.Bytes(), pub.UncompressedBytes()} {
				p2, err := keys.NewPublicKeyFromBytesOnCurve(enc, c)
				require.NoError(t, err)
				require.True(t, p2.Equal(pub))
				require.True(t, p2.Verify(sig, digest[:]))
			}

			// High S (N - s) is accepted, as by the reference.
			n := curveOrder(c)
			s := new(big.Int).SetBytes(sig[32:])
			hi := append(append([]byte{}, sig[:32]...), new(big.Int).Sub(n, s).FillBytes(make([]byte, 32))...)
			require.True(t, pub.Verify(hi, digest[:]))

			bad := append([]byte{}, sig...)
			bad[10] ^= 1
			require.False(t, pub.Verify(bad, digest[:]))
			require.False(t, pub.Verify(sig[:63], digest[:]))
			require.False(t, pub.Verify(make([]byte, 64), digest[:]), "r = s = 0")
			over := append(n.FillBytes(make([]byte, 32)), sig[32:]...)
			require.False(t, pub.Verify(over, digest[:]), "r = N")
			other := sha256.Sum256([]byte("other"))
			require.False(t, pub.Verify(sig, other[:]))
			require.False(t, (&keys.PublicKey{}).Verify(sig, digest[:]), "infinity")

			back, err := keys.NewPrivateKeyFromBytesOnCurve(priv.Bytes(), c)
			require.NoError(t, err)
			require.True(t, back.PublicKey().Equal(pub))
		})
	}
}

func curveOrder(c keys.Curve) *big.Int {
	if c == keys.Secp256k1 {
		n, _ := new(big.Int).SetString("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141", 16)
		return n
	}
	n, _ := new(big.Int).SetString("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551", 16)
	return n
}

func TestPrivateKeyRange(t *testing.T) {
	for _, c := range []keys.Curve{keys.Secp256r1, keys.Secp256k1} {
		_, err := keys.NewPrivateKeyFromBytesOnCurve(make([]byte, 32), c)
		require.ErrorIs(t, err, keys.ErrInvalidPrivateKey, "zero")
		_, err = keys.NewPrivateKeyFromBytesOnCurve(curveOrder(c).Bytes(), c)
		require.ErrorIs(t, err, keys.ErrInvalidPrivateKey, "N")
		_, err = keys.NewPrivateKeyFromBytesOnCurve(make([]byte, 31), c)
		require.ErrorIs(t, err, keys.ErrInvalidPrivateKey, "short")
		one := make([]byte, 32)
		one[31] = 1
		_, err = keys.NewPrivateKeyFromBytesOnCurve(one, c)
		require.NoError(t, err)
	}
	_, err := keys.NewPrivateKeyOnCurve(keys.Curve(7))
	require.ErrorIs(t, err, keys.ErrUnknownCurve)
}

func TestDestroy(t *testing.T) {
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	priv.Destroy()
	require.Equal(t, make([]byte, 32), priv.Bytes())
}
