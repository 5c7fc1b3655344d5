// Package testwallet opens the NEP-6 wallets the tests use (the
// repository's config/ and pkg/wallet/testdata wallets) and decrypts what
// a test signs with. It is for tests only: every failure ends the test.
package testwallet

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// Key returns the private key of the first account of the wallet at path
// that has one (in the reference wallets: the single-signature account,
// whose key the multisig accounts after it share).
func Key(t testing.TB, path, password string) *keys.PrivateKey {
	t.Helper()
	w, err := wallet.Open(path)
	require.NoError(t, err)
	for _, a := range w.Accounts {
		if a.HasKey() {
			require.NoError(t, a.Decrypt(password, w.Scrypt), "wallet %s", path)
			return a.PrivateKey()
		}
	}
	t.Fatalf("no key in wallet %s", path)
	return nil
}

// Account returns the account with the given address of the wallet at
// path, decrypted.
func Account(t testing.TB, path, address, password string) *wallet.Account {
	t.Helper()
	w, err := wallet.Open(path)
	require.NoError(t, err)
	for _, a := range w.Accounts {
		if a.Address == address {
			require.NoError(t, a.Decrypt(password, w.Scrypt), "wallet %s", path)
			return a
		}
	}
	t.Fatalf("no account %s in wallet %s", address, path)
	return nil
}
