package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/stretchr/testify/require"
)

// validatorWIF is the key of neo-go's privnet wallet1 as neo-go publishes
// it (ValidatorWIF in its internal/testcli/executor.go), password "one".
const validatorWIF = "KxyjQ8eUa4FHt3Gvioyt1Wz29cTUrE4eTqX3yFSk1YFCsPL8uNsY"

// otherValidatorWIF is another privnet validator key (privNetKeys in
// neo-go's internal/testchain/address.go).
const otherValidatorWIF = "KzfPUYDC9n2yf4fK5ro4C8KMcdeXtFuEnStycbZgX3GomiUsvX6W"

// cheapScrypt keeps the tests that create keys fast; the neo-go wallets
// use the standard parameters.
var cheapScrypt = keys.ScryptParams{N: 16, R: 1, P: 1}

// runWallet runs `n3d wallet args...` in-process with the given stdin.
func runWallet(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := &env{stdout: &out, stderr: &errOut, stdin: strings.NewReader(stdin)}
	code = run(ctx, append([]string{"n3d", "wallet"}, args...), e)
	return code, out.String(), errOut.String()
}

// mustRun runs a wallet command that must succeed and returns its stdout.
func mustRun(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	code, out, errOut := runWallet(t, stdin, args...)
	require.Equal(t, 0, code, "stdout: %s\nstderr: %s", out, errOut)
	return out
}

// mustFail runs a wallet command that must fail with msg and leave the
// file at path (when given) untouched.
func mustFail(t *testing.T, path, stdin, msg string, args ...string) {
	t.Helper()
	var before []byte
	if path != "" {
		var err error
		before, err = os.ReadFile(path)
		require.NoError(t, err)
	}
	code, _, errOut := runWallet(t, stdin, args...)
	require.Equal(t, 1, code, errOut)
	require.Contains(t, errOut, msg)
	if path != "" {
		after, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, string(before), string(after), "a failed command must not change the wallet")
	}
}

// neoGoWallet copies one of neo-go's privnet wallets into a temp dir and
// returns the copy's path and the original bytes.
func neoGoWallet(t *testing.T, name string) (string, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "pkg", "wallet", "testdata", name))
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	return path, raw
}

// cheapWallet writes an empty wallet with cheap scrypt parameters.
func cheapWallet(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cheap.json")
	w := wallet.New(path)
	w.Scrypt = cheapScrypt
	require.NoError(t, w.Save())
	return path
}

func loadWallet(t *testing.T, path string) *wallet.Wallet {
	t.Helper()
	w, err := wallet.Open(path)
	require.NoError(t, err)
	return w
}

// walletConfig writes a --wallet-config file.
func walletConfig(t *testing.T, path, pass string) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "wallet.yml")
	require.NoError(t, os.WriteFile(cfg, fmt.Appendf(nil, "Path: %s\nPassword: %s\n", path, pass), 0o600))
	return cfg
}

// privnetCommittee returns the privnet standby committee from the
// repository's config (neo-go's privnet keys).
func privnetCommittee(t *testing.T) keys.PublicKeys {
	t.Helper()
	cfg, err := config.LoadFile(filepath.Join(repoConfigDir(t), config.FileName(config.NetPrivNet)), "")
	require.NoError(t, err)
	pubs, err := keys.NewPublicKeysFromStrings(cfg.ProtocolConfiguration.StandbyCommittee)
	require.NoError(t, err)
	require.Len(t, pubs, 4)
	return pubs
}

func TestWalletDumpNeoGoWallets(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"neogo_wallet1.json", "neogo_wallet1_solo.json", "neogo_wallet2.json", "neogo_wallet3.json", "neogo_wallet4.json"} {
		path, raw := neoGoWallet(t, name)
		want := "\n" + string(raw) + "\n\n"
		require.Equal(t, want, mustRun(t, "", "dump", "-w", path), name)
		require.Equal(t, want, mustRun(t, "", "list", "--wallet", path), name)
		require.Equal(t, want, mustRun(t, string(raw), "dump", "-w", "-"), name)
	}
	path, raw := neoGoWallet(t, "neogo_wallet1.json")
	want := "\n" + string(raw) + "\n\n"
	t.Run("decrypt stdin wallet", func(t *testing.T) {
		t.Parallel()
		// The wallet and then the password, both on stdin.
		code, out, prompts := runWallet(t, string(raw)+"\none\n", "dump", "-w", "-", "--decrypt")
		require.Equal(t, 0, code, prompts)
		require.Equal(t, want, out)
		require.Equal(t, promptPassword+"\n", prompts)
	})
	t.Run("decrypt wallet-config", func(t *testing.T) {
		t.Parallel()
		require.Equal(t, want, mustRun(t, "", "dump", "--wallet-config", walletConfig(t, path, "one"), "-d"))
	})
	t.Run("wrong password", func(t *testing.T) {
		t.Parallel()
		mustFail(t, path, "two\n", "wrong passphrase", "dump", "-w", path, "-d")
	})
	t.Run("no password", func(t *testing.T) {
		t.Parallel()
		mustFail(t, path, "", "no input", "dump", "-w", path, "-d")
	})
}

func TestWalletLocationErrors(t *testing.T) {
	t.Parallel()
	path, _ := neoGoWallet(t, "neogo_wallet1.json")
	cfg := walletConfig(t, path, "one")
	mustFail(t, "", "", errNoWalletPath.Error(), "dump")
	mustFail(t, "", "", errWalletFlags.Error(), "dump", "-w", path, "--wallet-config", cfg)
	mustFail(t, "", "", "nope.yml", "dump", "--wallet-config", filepath.Join(t.TempDir(), "nope.yml"))
	mustFail(t, "", "", "nope.json", "dump", "-w", filepath.Join(t.TempDir(), "nope.json"))
	bad := filepath.Join(t.TempDir(), "bad.yml")
	require.NoError(t, os.WriteFile(bad, []byte("Path: [1"), 0o600))
	mustFail(t, "", "", "bad.yml", "dump", "--wallet-config", bad)
	mustFail(t, "", "", "unexpected arguments", "dump", "-w", path, "extra")
	mustFail(t, "", "", errNoStdin.Error(), "create", "-w", "-")
	// change-password takes no wallet config, as in neo-go.
	mustFail(t, path, "", "wallet-config", "change-password", "--wallet-config", cfg)
	broken := filepath.Join(t.TempDir(), "broken.json")
	require.NoError(t, os.WriteFile(broken, []byte(`{"version":"1.0","accounts":[{"address":"x"}]}`), 0o600))
	mustFail(t, broken, "", "failed to read wallet", "dump-keys", "-w", broken)
}

func TestWalletDumpKeys(t *testing.T) {
	t.Parallel()
	committee := privnetCommittee(t)
	sorted := committee.Copy()
	sorted.Sort()
	multisig, err := scripts.MultiSigContract(scripts.BFTThreshold(len(committee)), committee)
	require.NoError(t, err)
	multiAddr := scripts.Address(multisig)
	own := committee[0] // neo-go's wallet1 holds the first standby key
	multiPart := fmt.Sprintf("%s (3 out of 4 multisig contract):\n%s\n", multiAddr, strings.Join(sorted.Strings(), "\n"))
	ownPart := fmt.Sprintf("%s (simple signature contract):\n%s\n", own.Address(), own.String())

	path, raw := neoGoWallet(t, "neogo_wallet1.json")
	require.Equal(t, ownPart+"\n"+multiPart, mustRun(t, "", "dump-keys", "-w", path))
	require.Equal(t, multiPart, mustRun(t, "", "dump-keys", "-w", path, "-a", multiAddr))
	require.Equal(t, ownPart, mustRun(t, "", "dump-keys", "-w", path, "--address", strings.TrimPrefix(own.ScriptHash().String(), "0x")))
	require.Equal(t, ownPart, mustRun(t, "", "dump-keys", "-w", path, "-a", own.ScriptHash().String()))
	require.Equal(t, ownPart+"\n"+multiPart, mustRun(t, string(raw), "dump-keys", "-w", "-"))
	mustFail(t, "", "", "account is missing", "dump-keys", "-w", path, "-a", committee[1].Address())
	mustFail(t, "", "", "invalid address", "dump-keys", "-w", path, "-a", "NotAnAddress")

	// A custom script is skipped in the listing and an error when asked for.
	w := loadWallet(t, path)
	custom := &wallet.Account{Address: scripts.Address([]byte{0x11}), Contract: &wallet.Contract{Script: []byte{0x11}}}
	w.AddAccount(custom)
	w.AddAccount(&wallet.Account{Address: committee[2].Address()}) // watch-only, no contract
	require.NoError(t, w.Save())
	require.Equal(t, ownPart+"\n"+multiPart, mustRun(t, "", "dump-keys", "-w", path))
	mustFail(t, "", "", "unknown script type for address "+custom.Address, "dump-keys", "-w", path, "-a", custom.Address)
}

func TestWalletExport(t *testing.T) {
	t.Parallel()
	path, _ := neoGoWallet(t, "neogo_wallet1.json")
	w := loadWallet(t, path)
	nep2 := *w.Accounts[0].Key
	own := w.Accounts[0].Address
	multi := w.Accounts[1].Address

	// NEP-2: the key as stored, once even though two accounts share it.
	require.Equal(t, nep2+"\n", mustRun(t, "", "export", "-w", path))
	require.Equal(t, nep2+"\n", mustRun(t, "", "export", "-w", path, multi))
	t.Run("wif", func(t *testing.T) {
		t.Parallel()
		require.Equal(t, validatorWIF+"\n", mustRun(t, "", "export", "--wallet-config", walletConfig(t, path, "one"), "--format", "wif", multi))
	})
	t.Run("pem", func(t *testing.T) {
		t.Parallel()
		out := mustRun(t, "one\n", "export", "-w", path, "-f", "pem", own)
		block, rest := pem.Decode([]byte(out))
		require.NotNil(t, block)
		require.Empty(t, rest)
		require.Equal(t, "PRIVATE KEY", block.Type)
		parsed, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		require.NoError(t, err)
		want, err := keys.NewPrivateKeyFromWIF(validatorWIF)
		require.NoError(t, err)
		d, err := parsed.(*ecdsa.PrivateKey).Bytes()
		require.NoError(t, err)
		require.Equal(t, want.Bytes(), d)
	})
	t.Run("errors", func(t *testing.T) {
		t.Parallel()
		mustFail(t, "", "", "address must be provided", "export", "-w", path, "-d")
		mustFail(t, "", "", "unknown private key export format: x", "export", "-w", path, "-f", "x")
		mustFail(t, "", "", "--decrypt conflicts with --format pem", "export", "-w", path, "-d", "-f", "pem", own)
		mustFail(t, "", "", "can't parse address", "export", "-w", path, "bad")
		mustFail(t, "", "", "not in the wallet", "export", "-w", path, address.Uint160ToString([20]byte{1}))
		mustFail(t, "", "two\n", "wrong passphrase", "export", "-w", path, "-d", own)
	})
}

func TestWalletInit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "w.json")
	out := mustRun(t, "", "init", "-w", path)
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "\n"+string(raw)+"\n\nwallet successfully created, file location is "+path+"\n", out)
	w := loadWallet(t, path)
	require.Empty(t, w.Accounts)
	require.Equal(t, keys.NEP2ScryptParams(), w.Scrypt)
	require.Equal(t, wallet.Version, w.Version)

	// An existing wallet is never overwritten.
	mustFail(t, path, "", "already exists", "init", "-w", path)
	mustFail(t, "", "", "stdout", "init", "-w", "-")
	mustFail(t, "", "", errNoWalletPath.Error(), "init")

	t.Run("account from prompts", func(t *testing.T) {
		t.Parallel()
		p := filepath.Join(t.TempDir(), "a.json")
		mustRun(t, "my label\npw\npw\n", "init", "-w", p, "-a")
		w := loadWallet(t, p)
		require.Len(t, w.Accounts, 1)
		a := w.Accounts[0]
		require.Equal(t, "my label", a.Label)
		require.NoError(t, a.Decrypt("pw", w.Scrypt))
		require.Equal(t, a.PublicKey().Address(), a.Address)
		require.True(t, scripts.IsSignatureContract(a.Contract.Script))
	})
	t.Run("account from wallet-config", func(t *testing.T) {
		t.Parallel()
		p := filepath.Join(t.TempDir(), "c.json")
		mustRun(t, "", "init", "--wallet-config", walletConfig(t, p, "secret"), "--account")
		w := loadWallet(t, p)
		require.Len(t, w.Accounts, 1)
		require.Empty(t, w.Accounts[0].Label)
		require.NoError(t, w.Accounts[0].Decrypt("secret", w.Scrypt))
	})
	t.Run("password mismatch writes nothing", func(t *testing.T) {
		t.Parallel()
		p := filepath.Join(t.TempDir(), "m.json")
		mustFail(t, "", "x\npw\nother\n", "do not match", "init", "-w", p, "-a")
		require.NoFileExists(t, p)
	})
}

func TestWalletCreate(t *testing.T) {
	t.Parallel()
	path := cheapWallet(t)
	mustRun(t, "first\npw1\npw1\n", "create", "-w", path)
	mustRun(t, "", "add", "--wallet-config", walletConfig(t, path, "pw2"))
	w := loadWallet(t, path)
	require.Len(t, w.Accounts, 2)
	require.Equal(t, "first", w.Accounts[0].Label)
	require.NoError(t, w.Accounts[0].Decrypt("pw1", cheapScrypt))
	require.NoError(t, w.Accounts[1].Decrypt("pw2", cheapScrypt))
	require.NotEqual(t, w.Accounts[0].Address, w.Accounts[1].Address)
	mustFail(t, path, "x\npw\npw2\n", "do not match", "create", "-w", path)
	mustFail(t, path, "x\n", "no input", "create", "-w", path)
}

// TestWalletRPCVerbsNeedEndpoint: the verbs that talk to a node say so
// when -r is missing, before reading any wallet.
func TestWalletRPCVerbsNeedEndpoint(t *testing.T) {
	t.Parallel()
	for _, verb := range [][]string{
		{"claim", "-a", "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"},
		{"import-deployed", "--contract", "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"},
		{"nep17", "balance"}, {"nep17", "import", "--token", "GAS"},
		{"nep17", "transfer", "--to", "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"}, {"nep17", "multitransfer"},
		{"nep11", "balance"}, {"nep11", "transfer", "--to", "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"},
		{"candidate", "register", "-a", "x"}, {"candidate", "unregister", "-a", "x"},
		{"candidate", "vote", "-a", "x"},
	} {
		mustFail(t, "", "", `"rpc-endpoint" not set`, append(verb, "-w", "x.json")...)
	}
	for _, verb := range [][]string{
		{"nep11", "ownerOf", "--token", "GAS"}, {"nep11", "properties", "--token", "GAS"},
		{"nep11", "ownerOfD", "--token", "GAS"}, {"nep11", "tokens", "--token", "GAS"},
		{"nep11", "tokensOf", "--token", "GAS", "--address", "x"},
		{"candidate", "getstate", "-a", "x"},
	} {
		mustFail(t, "", "", `"rpc-endpoint" not set`, verb...)
	}
	mustFail(t, "", "", `"in" not set`, "sign", "-w", "x.json", "-a", "x")
}
