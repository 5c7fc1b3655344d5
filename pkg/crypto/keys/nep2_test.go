package keys_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/base58"
	"github.com/stretchr/testify/require"
)

// TestNEP2Vectors decrypts every published vector and re-encrypts the first
// (encryption is deterministic). Each scrypt run at the standard parameters
// costs about half a second, so the wrong-passphrase path is tested with
// cheap parameters below.
func TestNEP2Vectors(t *testing.T) {
	params := keys.NEP2ScryptParams()
	for i, v := range loadVectors(t).Keys {
		t.Run(v.Address, func(t *testing.T) {
			if testing.Short() && i > 0 {
				t.Skip("one vector is enough in -short")
			}
			t.Parallel()
			priv, err := keys.NEP2Decrypt(v.NEP2, v.Passphrase, params)
			require.NoError(t, err)
			require.Equal(t, v.PrivateKey, priv.String())
			require.Equal(t, v.Address, priv.Address())
			if i > 0 {
				return
			}
			enc, err := keys.NEP2Encrypt(priv, v.Passphrase, params)
			require.NoError(t, err)
			require.Equal(t, v.NEP2, enc)
		})
	}
}

// cheap scrypt parameters keep the format tests fast.
var cheap = keys.ScryptParams{N: 2, R: 1, P: 1}

func TestNEP2RoundTripCheap(t *testing.T) {
	for _, c := range []keys.Curve{keys.Secp256r1} {
		priv, err := keys.NewPrivateKeyOnCurve(c)
		require.NoError(t, err)
		enc, err := keys.NEP2Encrypt(priv, "pass", cheap)
		require.NoError(t, err)
		require.Len(t, enc, 58)
		require.Equal(t, "6P", enc[:2])
		back, err := keys.NEP2Decrypt(enc, "pass", cheap)
		require.NoError(t, err)
		require.Equal(t, priv.Bytes(), back.Bytes())
		_, err = keys.NEP2Decrypt(enc, "Pass", cheap)
		require.ErrorIs(t, err, keys.ErrWrongPassphrase)
	}
	k1, err := keys.NewPrivateKeyOnCurve(keys.Secp256k1)
	require.NoError(t, err)
	_, err = keys.NEP2Encrypt(k1, "pass", cheap)
	require.ErrorIs(t, err, keys.ErrInvalidPrivateKey)
}

// NEP2DecryptFor checks the passphrase against the address its function
// gives: the N3 address for NEP-2 keys, another one (Neo Legacy wallets)
// only when the key was encrypted for it.
func TestNEP2DecryptFor(t *testing.T) {
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	enc, err := keys.NEP2Encrypt(priv, "pass", cheap)
	require.NoError(t, err)
	back, err := keys.NEP2DecryptFor(enc, "pass", cheap, (*keys.PublicKey).Address)
	require.NoError(t, err)
	require.Equal(t, priv.Bytes(), back.Bytes())
	other := func(p *keys.PublicKey) string { return "x" + p.Address() }
	_, err = keys.NEP2DecryptFor(enc, "pass", cheap, other)
	require.ErrorIs(t, err, keys.ErrWrongPassphrase)
}

func TestNEP2Format(t *testing.T) {
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	enc, err := keys.NEP2Encrypt(priv, "pass", cheap)
	require.NoError(t, err)
	raw, err := base58.CheckDecode(enc)
	require.NoError(t, err)
	require.Len(t, raw, 39)
	for _, mutate := range []func([]byte) []byte{
		func(b []byte) []byte { b[0] = 0x02; return b },
		func(b []byte) []byte { b[1] = 0x43; return b },
		func(b []byte) []byte { b[2] = 0xE1; return b },
		func(b []byte) []byte { return b[:38] },
		func(b []byte) []byte { return append(b, 0) },
	} {
		bad := base58.CheckEncode(mutate(append([]byte{}, raw...)))
		_, err := keys.NEP2Decrypt(bad, "pass", cheap)
		require.ErrorIs(t, err, keys.ErrInvalidNEP2)
	}
	last := "1" // a different last base58 digit breaks the checksum
	if enc[len(enc)-1] == '1' {
		last = "2"
	}
	_, err = keys.NEP2Decrypt(enc[:len(enc)-1]+last, "pass", cheap)
	require.ErrorIs(t, err, keys.ErrInvalidNEP2, "checksum")
	for _, p := range []keys.ScryptParams{{N: 3, R: 1, P: 1}, {N: 0, R: 1, P: 1}, {N: 2, R: 0, P: 1}, {N: 2, R: 1, P: 0}, {N: 1 << 30, R: 8, P: 8}} {
		_, err := keys.NEP2Decrypt(enc, "pass", p)
		require.ErrorIs(t, err, keys.ErrScryptParams, "%+v", p)
	}
}
