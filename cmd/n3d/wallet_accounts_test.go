package main

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/stretchr/testify/require"
)

// requireSameAccount compares two accounts as written to a file.
func requireSameAccount(t *testing.T, want, got *wallet.Account) {
	t.Helper()
	require.Equal(t, want.Address, got.Address)
	require.Equal(t, want.Key, got.Key)
	require.Equal(t, want.Label, got.Label)
	require.Equal(t, want.Contract, got.Contract)
	require.Equal(t, want.Locked, got.Locked)
	require.Equal(t, want.Default, got.Default)
}

func TestWalletImportWIF(t *testing.T) {
	t.Parallel()
	ref := loadWallet(t, filepath.Join("..", "..", "pkg", "wallet", "testdata", "neogo_wallet1.json"))
	own, multi := ref.Accounts[0], ref.Accounts[1]

	t.Run("wif", func(t *testing.T) {
		t.Parallel()
		path := cheapWallet(t)
		out := mustRun(t, "pw\npw\n", "import", "-w", path, "--wif", validatorWIF, "-n", "validator")
		require.Equal(t, "Provided WIF was unencrypted. Wallet can contain only encrypted keys.\n", out)
		w := loadWallet(t, path)
		require.Len(t, w.Accounts, 1)
		a := w.Accounts[0]
		require.Equal(t, own.Address, a.Address)
		require.Equal(t, own.Contract, a.Contract)
		require.Equal(t, "validator", a.Label)
		require.NoError(t, a.Decrypt("pw", cheapScrypt))
		require.Equal(t, validatorWIF, a.PrivateKey().WIF())
		mustFail(t, path, "pw\npw\n", "is already in wallet", "import", "-w", path, "--wif", validatorWIF, "-n", "again")
	})
	t.Run("nep2", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "std.json")
		require.NoError(t, wallet.New(path).Save())
		// No --name: the label is asked for, then the NEP-2 password.
		mustFail(t, path, "lbl\ntwo\n", "wrong passphrase", "import", "-w", path, "--wif", *own.Key)
		mustRun(t, "lbl\none\n", "import", "-w", path, "--wif", *own.Key)
		w := loadWallet(t, path)
		require.Len(t, w.Accounts, 1)
		want := *own
		want.Label = "lbl"
		requireSameAccount(t, &want, w.Accounts[0])
	})
	t.Run("nep2 with wallet-config retries at the prompt", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "std.json")
		require.NoError(t, wallet.New(path).Save())
		mustRun(t, "one\n", "import", "--wallet-config", walletConfig(t, path, "not-it"), "--wif", *own.Key, "--name", "")
		requireSameAccount(t, own, loadWallet(t, path).Accounts[0])
	})
	t.Run("custom contract", func(t *testing.T) {
		t.Parallel()
		// The multisig script of the reference wallet: the account is the
		// script's, with its three Signature parameters.
		path := cheapWallet(t)
		mustRun(t, "", "import", "--wallet-config", walletConfig(t, path, "pw"), "--wif", validatorWIF, "-n", "",
			"--contract", hex.EncodeToString(multi.Contract.Script))
		a := loadWallet(t, path).Accounts[0]
		require.Equal(t, multi.Address, a.Address)
		require.Equal(t, multi.Contract, a.Contract)
	})
	t.Run("errors", func(t *testing.T) {
		t.Parallel()
		path := cheapWallet(t)
		mustFail(t, path, "", "--wif is required", "import", "-w", path)
		mustFail(t, path, "", "invalid contract", "import", "-w", path, "--wif", validatorWIF, "--contract", "zz")
		mustFail(t, path, "x\n", "invalid WIF", "import", "-w", path, "--wif", "notawif")
		mustFail(t, path, "x\npw\npx\n", "do not match", "import", "-w", path, "--wif", validatorWIF)
	})
}

func TestWalletImportMultisig(t *testing.T) {
	t.Parallel()
	committee := privnetCommittee(t)
	ref := loadWallet(t, filepath.Join("..", "..", "pkg", "wallet", "testdata", "neogo_wallet1.json"))
	keyArgs := committee.Strings()

	t.Run("converts the wallet's account", func(t *testing.T) {
		t.Parallel()
		// wallet1 without its multisig account: import-multisig must
		// rebuild exactly the account neo-go wrote (same encrypted key).
		path, _ := neoGoWallet(t, "neogo_wallet1.json")
		mustRun(t, "", "remove", "-w", path, "-a", ref.Accounts[1].Address, "--force")
		require.Len(t, loadWallet(t, path).Accounts, 1)
		mustRun(t, "", append([]string{"import-multisig", "-w", path, "-m", "3"}, keyArgs...)...)
		w := loadWallet(t, path)
		require.Len(t, w.Accounts, 2)
		requireSameAccount(t, ref.Accounts[1], w.Accounts[1])
		mustFail(t, path, "", "is already in wallet", append([]string{"import-multisig", "-w", path, "-m", "3"}, keyArgs...)...)
		// A 2-of-4 with a name is another account with the same key.
		mustRun(t, "", append([]string{"import-multisig", "-w", path, "--min", "2", "--name", "two"}, keyArgs...)...)
		w = loadWallet(t, path)
		require.Len(t, w.Accounts, 3)
		two := w.Accounts[2]
		require.Equal(t, "two", two.Label)
		require.Equal(t, ref.Accounts[0].Key, two.Key)
		m, pubs, ok := scripts.ParseMultiSigContract(two.Contract.Script)
		require.True(t, ok)
		require.Equal(t, 2, m)
		require.ElementsMatch(t, keyArgs, pubs.Strings())
		require.Len(t, two.Contract.Parameters, 2)
	})
	t.Run("from wif", func(t *testing.T) {
		t.Parallel()
		path := cheapWallet(t)
		mustRun(t, "pw\npw\n", append([]string{"import-multisig", "-w", path, "--wif", validatorWIF, "-n", "cn", "-m", "3"}, keyArgs...)...)
		a := loadWallet(t, path).Accounts[0]
		require.Equal(t, ref.Accounts[1].Address, a.Address)
		require.Equal(t, ref.Accounts[1].Contract, a.Contract)
		require.Equal(t, "cn", a.Label)
		require.NoError(t, a.Decrypt("pw", cheapScrypt))
		require.Equal(t, validatorWIF, a.PrivateKey().WIF())
	})
	t.Run("errors", func(t *testing.T) {
		t.Parallel()
		path := cheapWallet(t)
		args := func(extra ...string) []string {
			return append(append([]string{"import-multisig", "-w", path}, extra...), keyArgs...)
		}
		mustFail(t, path, "", "insufficient number of public keys", args("-m", "5")...)
		mustFail(t, path, "", "--min must be at least 1", args()...)
		mustFail(t, path, "", "no WIF is provided", args("-m", "3")...)
		mustFail(t, path, "", "can't decode public key 1", "import-multisig", "-w", path, "-m", "1", keyArgs[0], "02ff")
		// A key that is not among the multisig keys cannot sign for it.
		other, err := keys.NewPrivateKeyFromWIF(otherValidatorWIF)
		require.NoError(t, err)
		require.True(t, committee.Contains(other.PublicKey()))
		mustFail(t, path, "pw\npw\n", wallet.ErrNotMember.Error(),
			"import-multisig", "-w", path, "--wif", otherValidatorWIF, "-n", "", "-m", "1", keyArgs[0])
	})
}

func TestWalletRemove(t *testing.T) {
	t.Parallel()
	path, _ := neoGoWallet(t, "neogo_wallet1_solo.json")
	w := loadWallet(t, path)
	first, last := w.Accounts[0], w.Accounts[2]

	out := mustRun(t, "n\n", "remove", "-w", path, "-a", first.Address)
	require.Equal(t, "Account "+first.Address+" will be removed. This action is irreversible.\nCancelled.\n", out)
	require.Len(t, loadWallet(t, path).Accounts, 3)
	mustRun(t, "", "remove", "-w", path, "-a", first.Address) // no answer is no
	require.Len(t, loadWallet(t, path).Accounts, 3)

	mustRun(t, "y\n", "remove", "-w", path, "-a", first.Address)
	h, err := last.ScriptHash()
	require.NoError(t, err)
	mustRun(t, "", "remove", "--wallet-config", walletConfig(t, path, ""), "--address", h.String(), "--force")
	w2 := loadWallet(t, path)
	require.Len(t, w2.Accounts, 1)
	requireSameAccount(t, w.Accounts[1], w2.Accounts[0])

	mustFail(t, path, "", "account wasn't found", "remove", "-w", path, "-a", first.Address, "--force")
	mustFail(t, path, "", `Required flag "address" not set`, "remove", "-w", path)
}

func TestWalletChangePassword(t *testing.T) {
	t.Parallel()
	t.Run("neo-go wallet", func(t *testing.T) {
		t.Parallel()
		path, _ := neoGoWallet(t, "neogo_wallet1.json")
		mustRun(t, "one\nnew\nnew\n", "change-password", "-w", path)
		w := loadWallet(t, path)
		// Both accounts share the key, so they share the new NEP-2 string.
		require.Equal(t, w.Accounts[0].Key, w.Accounts[1].Key)
		require.NoError(t, w.Accounts[0].Decrypt("new", w.Scrypt))
		require.Equal(t, validatorWIF, w.Accounts[0].PrivateKey().WIF())
	})
	t.Run("one account", func(t *testing.T) {
		t.Parallel()
		path := cheapWallet(t)
		cfg := walletConfig(t, path, "old")
		mustRun(t, "", "create", "--wallet-config", cfg)
		mustRun(t, "", "create", "--wallet-config", cfg)
		before := loadWallet(t, path)
		a0, a1 := before.Accounts[0], before.Accounts[1]
		mustFail(t, path, "wrong\n", "unable to decrypt account", "change-password", "-w", path)
		mustFail(t, path, "old\nnew\nNEW\n", "do not match", "change-password", "-w", path)
		mustRun(t, "old\nnew\nnew\n", "change-password", "-w", path, "-a", a1.Address)
		after := loadWallet(t, path)
		require.Equal(t, a0.Key, after.Accounts[0].Key)
		require.NoError(t, after.Accounts[1].Decrypt("new", cheapScrypt))
		mustFail(t, path, "", "account is missing", "change-password", "-w", path, "-a", wifAddress(t, otherValidatorWIF))
	})
	t.Run("empty wallet", func(t *testing.T) {
		t.Parallel()
		path := cheapWallet(t)
		mustFail(t, path, "", "wallet has no accounts", "change-password", "-w", path)
	})
}

// wifAddress returns the standard address of a WIF key.
func wifAddress(t *testing.T, wif string) string {
	t.Helper()
	k, err := keys.NewPrivateKeyFromWIF(wif)
	require.NoError(t, err)
	return k.Address()
}

func TestWalletStripKeys(t *testing.T) {
	t.Parallel()
	path, raw := neoGoWallet(t, "neogo_wallet2.json")
	require.Equal(t, "All private keys for all accounts will be removed from the wallet. This action is irreversible.\nCancelled.\n",
		mustRun(t, "no\n", "strip-keys", "-w", path))
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, raw, after)
	keysBefore := mustRun(t, "", "dump-keys", "-w", path)
	mustRun(t, "", "strip-keys", "-w", path, "--force")
	w := loadWallet(t, path)
	for _, a := range w.Accounts {
		require.Nil(t, a.Key)
		require.False(t, a.HasKey())
	}
	require.Equal(t, keysBefore, mustRun(t, "", "dump-keys", "-w", path))
	require.Empty(t, mustRun(t, "", "export", "-w", path))
}
