package wallet_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/stretchr/testify/require"
)

// neoGoWallets are neo-go's privnet wallets and their published passwords.
var neoGoWallets = []struct{ file, pass string }{
	{"neogo_wallet1.json", "one"},
	{"neogo_wallet1_solo.json", "one"},
	{"neogo_wallet2.json", "two"},
	{"neogo_wallet3.json", "three"},
	{"neogo_wallet4.json", "four"},
}

func TestNeoGoWalletsRoundTrip(t *testing.T) {
	for _, nw := range neoGoWallets {
		path := filepath.Join("testdata", nw.file)
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		w, err := wallet.Open(path)
		require.NoError(t, err)
		require.Equal(t, path, w.Path())
		require.Equal(t, "1.0", w.Version)
		require.Equal(t, keys.NEP2ScryptParams(), w.Scrypt)
		out, err := w.JSON()
		require.NoError(t, err)
		require.Equal(t, string(raw), string(out), nw.file)
	}
}

// TestNeoGoWalletsDecrypt decrypts every key of neo-go's wallets and checks
// each account's address and contract against the key.
func TestNeoGoWalletsDecrypt(t *testing.T) {
	for i, nw := range neoGoWallets {
		t.Run(nw.file, func(t *testing.T) {
			if testing.Short() && i > 1 {
				t.Skip("scrypt is slow; two wallets are enough in -short")
			}
			t.Parallel()
			w, err := wallet.Open(filepath.Join("testdata", nw.file))
			require.NoError(t, err)
			defer w.Close()
			require.NoError(t, w.DecryptAll(nw.pass))
			for _, a := range w.Accounts {
				require.True(t, a.CanSign(), a.Address)
				pub := a.PublicKey()
				h, err := a.ScriptHash()
				require.NoError(t, err)
				require.Equal(t, a.Contract.ScriptHash(), h)
				require.Len(t, a.Contract.Parameters, paramCount(t, a.Contract.Script))
				if scripts.IsSignatureContract(a.Contract.Script) {
					require.Equal(t, pub.Address(), a.Address)
					continue
				}
				_, pubs, ok := scripts.ParseMultiSigContract(a.Contract.Script)
				require.True(t, ok)
				require.True(t, pubs.Contains(pub))
			}
			require.Equal(t, w.Accounts[0], w.DefaultAccount())
		})
	}
	w, err := wallet.Open(filepath.Join("testdata", neoGoWallets[0].file))
	require.NoError(t, err)
	require.ErrorIs(t, w.Accounts[0].Decrypt("two", w.Scrypt), keys.ErrWrongPassphrase)
}

func paramCount(t *testing.T, script []byte) int {
	if scripts.IsSignatureContract(script) {
		return 1
	}
	m, _, ok := scripts.MultiSigCounts(script)
	require.True(t, ok)
	return m
}

// TestRebuildConsensusAccount rebuilds wallet1's 3-of-4 consensus account
// from its own key and the other three validators' keys: the result must be
// the account neo-go wrote, byte for byte.
func TestRebuildConsensusAccount(t *testing.T) {
	var validators keys.PublicKeys
	var first *wallet.Wallet
	for _, nw := range neoGoWallets {
		if nw.file == "neogo_wallet1_solo.json" {
			continue
		}
		w, err := wallet.Open(filepath.Join("testdata", nw.file))
		require.NoError(t, err)
		defer w.Close()
		if first == nil {
			first = w
			require.NoError(t, w.Accounts[0].Decrypt(nw.pass, w.Scrypt))
		}
		// The other validators' public keys are in their single-signature
		// scripts: no need to decrypt them.
		key, ok := scripts.ParseSignatureContract(w.Accounts[0].Contract.Script)
		require.True(t, ok)
		pub, err := keys.NewPublicKeyFromBytes(key)
		require.NoError(t, err)
		validators = append(validators, pub)
	}
	require.True(t, validators[0].Equal(first.Accounts[0].PublicKey()))
	require.Len(t, validators, 4)
	own := first.Accounts[0]
	multi, err := own.MultisigAccount(scripts.BFTThreshold(len(validators)), validators)
	require.NoError(t, err)
	want, err := json.Marshal(first.Accounts[1])
	require.NoError(t, err)
	got, err := json.Marshal(multi)
	require.NoError(t, err)
	require.JSONEq(t, string(want), string(got))

	// Each account owns its key copy.
	own.Close()
	require.True(t, multi.CanSign())
	_, err = own.MultisigAccount(3, validators)
	require.ErrorIs(t, err, wallet.ErrNoKey)
	other, err := wallet.NewAccount()
	require.NoError(t, err)
	_, err = other.MultisigAccount(3, validators)
	require.ErrorIs(t, err, wallet.ErrNotMember)
	_, err = multi.MultisigAccount(5, validators)
	require.ErrorIs(t, err, scripts.ErrMultisigParams)
	multi.Locked = true
	_, err = multi.MultisigAccount(3, validators)
	require.ErrorIs(t, err, wallet.ErrLocked)
}

var cheap = keys.ScryptParams{N: 2, R: 1, P: 1}

func TestCreateSaveOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.json")
	w := wallet.New(path)
	w.Scrypt = cheap
	w.Name = "node"
	a, err := w.CreateAccount("main", "pass")
	require.NoError(t, err)
	a.Default = true
	watch := &wallet.Account{Address: a.Address}
	w.AddAccount(watch)
	require.NoError(t, w.Save())

	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(raw)
	order := []string{`"name"`, `"version"`, `"accounts"`, `"address"`, `"key"`, `"label"`, `"contract"`, `"script"`, `"parameters"`, `"deployed"`, `"lock"`, `"isDefault"`, `"scrypt"`, `"extra"`}
	last := -1
	for _, k := range order {
		i := strings.Index(text, k)
		require.Greater(t, i, last, "field %s out of order in\n%s", k, text)
		last = i
	}
	require.Contains(t, text, `"key": null`)
	require.Contains(t, text, `"contract": null`)
	require.Contains(t, text, `"extra": null`)
	require.Contains(t, text, `"type": "Signature"`)

	back, err := wallet.Open(path)
	require.NoError(t, err)
	require.Equal(t, "node", back.Name)
	require.Len(t, back.Accounts, 2)
	require.Nil(t, back.Accounts[1].Key)
	require.Nil(t, back.Accounts[1].Contract)
	require.ErrorIs(t, back.Accounts[1].Decrypt("pass", back.Scrypt), wallet.ErrNoKey)
	require.Equal(t, back.Accounts[0], back.DefaultAccount())
	require.NoError(t, back.Accounts[0].Decrypt("pass", back.Scrypt))
	require.Equal(t, a.PrivateKey().Bytes(), back.Accounts[0].PrivateKey().Bytes())
	again, err := back.JSON()
	require.NoError(t, err)
	require.Equal(t, raw, again)

	h, err := a.ScriptHash()
	require.NoError(t, err)
	require.Equal(t, back.Accounts[0].Address, back.GetAccount(h).Address)
	require.NoError(t, back.RemoveAccount(a.Address))
	require.NoError(t, back.RemoveAccount(a.Address)) // the watch-only twin
	require.ErrorIs(t, back.RemoveAccount(a.Address), wallet.ErrNotFound)
	require.Nil(t, back.GetAccount(h))
	require.Nil(t, back.DefaultAccount())

	require.ErrorIs(t, wallet.New("").Save(), wallet.ErrNoPath)
}

func TestAccountFromWIF(t *testing.T) {
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	a, err := wallet.NewAccountFromWIF(k.WIF())
	require.NoError(t, err)
	require.Equal(t, k.Address(), a.Address)
	require.Equal(t, k.PublicKey().VerificationScript(), a.Contract.Script)
	require.Equal(t, []wallet.ContractParam{{Name: "parameter0", Type: smartcontract.SignatureType}}, a.Contract.Parameters)
	require.Nil(t, a.Key)
	require.NoError(t, a.Encrypt("p", cheap))
	require.NotNil(t, a.Key)
	_, err = wallet.NewAccountFromWIF("bad")
	require.Error(t, err)
	require.ErrorIs(t, (&wallet.Account{}).Encrypt("p", cheap), wallet.ErrNoKey)
}

// TestReferenceStyleWallet reads a wallet in the C# reference's shape
// (name, null label and extra, deployed contract with empty script).
func TestReferenceStyleWallet(t *testing.T) {
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	src := `{"name":"ref","version":"1.0","scrypt":{"n":2,"r":1,"p":1},"accounts":[` +
		`{"address":"` + k.Address() + `","label":null,"isDefault":false,"lock":false,"key":null,` +
		`"contract":{"script":"","parameters":[{"name":"a","type":"Integer"}],"deployed":true},"extra":{"x":1}}],"extra":null}`
	w, err := wallet.FromBytes([]byte(src))
	require.NoError(t, err)
	require.Equal(t, "ref", w.Name)
	require.Equal(t, smartcontract.IntegerType, w.Accounts[0].Contract.Parameters[0].Type)
	require.True(t, w.Accounts[0].Contract.Deployed)
	out, err := json.Marshal(w)
	require.NoError(t, err)
	require.Contains(t, string(out), `"extra":{"x":1}`)
	require.Contains(t, string(out), `"script":""`)
	back, err := wallet.FromBytes(out)
	require.NoError(t, err)
	out2, err := json.Marshal(back)
	require.NoError(t, err)
	require.Equal(t, out, out2)
}

func TestInvalidWallets(t *testing.T) {
	good := `{"version":"1.0","accounts":[],"scrypt":{"n":16384,"r":8,"p":8},"extra":null}`
	_, err := wallet.FromBytes([]byte(good))
	require.NoError(t, err)
	bad := map[string]string{
		"not json":      `{`,
		"no version":    `{"accounts":[],"scrypt":{"n":16384,"r":8,"p":8}}`,
		"bad scrypt":    `{"version":"1.0","accounts":[],"scrypt":{"n":3,"r":8,"p":8}}`,
		"huge scrypt":   `{"version":"1.0","accounts":[],"scrypt":{"n":1073741824,"r":8,"p":8}}`,
		"null account":  `{"version":"1.0","accounts":[null],"scrypt":{"n":2,"r":1,"p":1}}`,
		"bad address":   `{"version":"1.0","accounts":[{"address":"Nxx"}],"scrypt":{"n":2,"r":1,"p":1}}`,
		"bad type":      `{"version":"1.0","accounts":[{"address":"NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq","contract":{"script":"","parameters":[{"name":"a","type":"Nope"}]}}],"scrypt":{"n":2,"r":1,"p":1}}`,
		"bad base64":    `{"version":"1.0","accounts":[{"address":"NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq","contract":{"script":"!!"}}],"scrypt":{"n":2,"r":1,"p":1}}`,
		"accounts type": `{"version":"1.0","accounts":{},"scrypt":{"n":2,"r":1,"p":1}}`,
	}
	for name, s := range bad {
		_, err := wallet.FromBytes([]byte(s))
		require.Error(t, err, name)
	}
	_, err = wallet.FromBytes(make([]byte, wallet.MaxFileSize+1))
	require.ErrorIs(t, err, wallet.ErrTooLarge)
	_, err = wallet.Open(filepath.Join(t.TempDir(), "missing.json"))
	require.Error(t, err)
}
