package testwallet

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestKeyAndAccountAgree(t *testing.T) {
	path := filepath.Join("..", "..", "config", "wallet.privnet.single.json")
	k := Key(t, path, "one")
	a := Account(t, path, "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP", "one")
	require.Equal(t, k.PublicKey().Bytes(), a.PrivateKey().PublicKey().Bytes(),
		"the validators' multisig account shares the validator's key")
}
