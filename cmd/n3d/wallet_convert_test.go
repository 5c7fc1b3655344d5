package main

import (
	"encoding/hex"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestWalletConvert(t *testing.T) {
	t.Parallel()
	legacy := filepath.Join("testdata", "neogo_legacy_wallet_NEO2.json")
	want := loadWallet(t, filepath.Join("testdata", "neogo_legacy_wallet_NEO3.json"))
	out := filepath.Join(t.TempDir(), "n3.json")
	mustFail(t, "", "", `Required flag "out" not set`, "convert", "-w", legacy)
	mustFail(t, "", "two\n", "wrong passphrase", "convert", "-w", legacy, "-o", out)
	require.NoFileExists(t, out)
	mustFail(t, "", "", "no input", "convert", "-w", legacy, "-o", out)
	require.NoFileExists(t, out)

	mustRun(t, "one\none\n", "convert", "-w", legacy, "--out", out)
	got := loadWallet(t, out)
	require.Equal(t, want.Scrypt, got.Scrypt)
	require.Len(t, got.Accounts, len(want.Accounts))
	for i := range want.Accounts {
		requireSameAccount(t, want.Accounts[i], got.Accounts[i])
	}
	mustFail(t, out, "one\none\n", "already exists", "convert", "-w", legacy, "-o", out)
}

func TestLegacyMultisigParse(t *testing.T) {
	lw, err := readLegacyWallet(filepath.Join("testdata", "neogo_legacy_wallet_NEO2.json"))
	require.NoError(t, err)
	script, err := hex.DecodeString(lw.Accounts[1].Contract.Script)
	require.NoError(t, err)
	m, pubs, err := parseLegacyMultisig(script)
	require.NoError(t, err)
	require.Equal(t, 3, m)
	require.Len(t, pubs, 4)
	// With RET, with PUSHBYTES1 counts.
	_, _, err = parseLegacyMultisig(append(append([]byte{}, script...), legacyRet))
	require.NoError(t, err)
	alt := append([]byte{legacyPushBytes1, 3}, script[1:]...)
	m, _, err = parseLegacyMultisig(alt)
	require.NoError(t, err)
	require.Equal(t, 3, m)
	for _, bad := range [][]byte{nil, script[:len(script)-1], append(append([]byte{}, script...), 0), {legacyPush1, legacyPush1, legacyCheckMultiSig}, script[:40]} {
		_, _, err := parseLegacyMultisig(bad)
		require.ErrorIs(t, err, errLegacyMultisig, "%x", bad)
	}
}

func FuzzLegacyMultisig(f *testing.F) {
	lw, err := readLegacyWallet(filepath.Join("testdata", "neogo_legacy_wallet_NEO2.json"))
	require.NoError(f, err)
	script, err := hex.DecodeString(lw.Accounts[1].Contract.Script)
	require.NoError(f, err)
	f.Add(script)
	f.Add([]byte{legacyPushBytes2, 1, 0})
	f.Fuzz(func(t *testing.T, s []byte) {
		m, pubs, err := parseLegacyMultisig(s)
		if err == nil {
			require.True(t, m >= 1 && m <= len(pubs))
		}
	})
}
