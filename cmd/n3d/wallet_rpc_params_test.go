package main

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/stretchr/testify/require"
)

const testAddr = "NfgHwwTi3wHAS8aFAN243C5vGbkYDpqLHP"

func TestParseHashForms(t *testing.T) {
	h, err := parseAddress(testAddr)
	require.NoError(t, err)
	require.Equal(t, testAddr, address.Uint160ToString(h))
	for _, s := range []string{h.String(), h.StringBE()} {
		got, err := parseAddress(s)
		require.NoError(t, err)
		require.Equal(t, h, got, "neo-go's LE form is the RPC's 0x form")
	}
	gas, err := parseAddress("d2a4cff31913016155e38e474a2c06d08be276cf")
	require.NoError(t, err)
	require.Equal(t, txbuild.GasHash, gas)
	_, err = parseAddress("nope")
	require.Error(t, err)
}

func TestAmounts(t *testing.T) {
	for _, tc := range []struct {
		in   string
		dec  int64
		want string
	}{
		{"1", 8, "100000000"}, {"0.5", 8, "50000000"}, {"1.00000001", 8, "100000001"},
		{"10", 0, "10"}, {"123.45", 2, "12345"},
	} {
		n, err := parseAmount(tc.in, tc.dec)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.want, n.String(), tc.in)
	}
	for _, bad := range []struct {
		in  string
		dec int64
	}{{"1.5", 0}, {"1.123456789", 8}, {"-1", 8}, {"", 8}, {"1.", 8}, {".5", 8}, {"x", 8}, {"1", 100}} {
		_, err := parseAmount(bad.in, bad.dec)
		require.Error(t, err, bad.in)
	}
	for _, tc := range []struct {
		n    int64
		dec  int
		want string
	}{{100000000, 8, "1"}, {150000000, 8, "1.5"}, {1, 8, "0.00000001"}, {-250, 2, "-2.5"}, {7, 0, "7"}, {0, 8, "0"}} {
		require.Equal(t, tc.want, formatAmount(big.NewInt(tc.n), tc.dec))
		back, err := parseAmount(formatAmount(big.NewInt(max(tc.n, 0)), tc.dec), int64(tc.dec))
		require.NoError(t, err)
		require.Equal(t, max(tc.n, 0), back.Int64(), "format and parse round-trip")
	}
	require.Equal(t, "x", decimalAmount("x", 8))
}

func TestParseData(t *testing.T) {
	h, err := parseAddress(testAddr)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "data.bin")
	require.NoError(t, os.WriteFile(file, []byte{1, 2, 3}, 0o600))
	for _, tc := range []struct {
		args []string
		want any
	}{
		{nil, nil},
		{[]string{"nil"}, nil},
		{[]string{"42"}, big.NewInt(42)},
		{[]string{"int:-7"}, big.NewInt(-7)},
		{[]string{"true"}, true},
		{[]string{"bool:false"}, false},
		{[]string{"string:a:b"}, "a:b"},
		{[]string{`a\:b`}, "a:b"},
		{[]string{"hello"}, "hello"},
		{[]string{testAddr}, h},
		{[]string{"hash160:" + testAddr}, h},
		{[]string{"dead"}, []byte{0xde, 0xad}},
		{[]string{"bytes:00ff"}, []byte{0, 0xff}},
		{[]string{"filebytes:" + file}, []byte{1, 2, 3}},
		{[]string{"[", "1", "[", "x", "]", "]"}, []any{big.NewInt(1), []any{"x"}}},
		{[]string{"[", "]"}, []any{}},
	} {
		got, err := parseData(tc.args)
		require.NoError(t, err, "%q", tc.args)
		require.Equal(t, tc.want, got, "%q", tc.args)
	}
	for _, bad := range [][]string{{"1", "2"}, {"["}, {"]"}, {"int:x"}, {"bool:yes"}, {"nope:1"},
		{"signature:00"}, {"key:0011"}, {"filebytes:/nonexistent"}} {
		_, err := parseData(bad)
		require.Error(t, err, "%q", bad)
	}
}

func TestParseSigners(t *testing.T) {
	h, err := parseAddress(testAddr)
	require.NoError(t, err)
	ss, err := parseSigners([]string{testAddr, testAddr + ":Global", h.String() + ":CalledByEntry,CustomContracts:" + txbuild.GasHash.StringBE()})
	require.NoError(t, err)
	require.Equal(t, []transaction.Signer{
		{Account: h, Scopes: transaction.CalledByEntry},
		{Account: h, Scopes: transaction.Global},
		{Account: h, Scopes: transaction.CalledByEntry | transaction.CustomContracts, AllowedContracts: []util.Uint160{txbuild.GasHash}},
	}, ss)
	for _, bad := range []string{"x", testAddr + ":Nope", testAddr + ":Global,CalledByEntry", testAddr + ":CalledByEntry,Global",
		testAddr + ":CustomContracts", testAddr + ":CustomGroups:zz"} {
		_, err := parseSigners([]string{bad})
		require.Error(t, err, bad)
	}
	// urfave/cli drops the "--"; the raw arguments kept by `wallet` tell
	// where it was.
	raw := func(args ...string) context.Context {
		return context.WithValue(context.Background(), rawArgsKey{}, args)
	}
	lead, cos := splitCosigners(raw("nep17", "transfer", "--to", "x", "42", "--", testAddr), []string{"42", testAddr})
	require.Equal(t, []string{"42"}, lead)
	require.Equal(t, []string{testAddr}, cos)
	lead, cos = splitCosigners(raw("nep17", "transfer", "--", testAddr, testAddr), []string{testAddr, testAddr})
	require.Empty(t, lead)
	require.Len(t, cos, 2)
	lead, cos = splitCosigners(raw("nep17", "transfer", testAddr), []string{testAddr})
	require.Equal(t, []string{testAddr}, lead)
	require.Empty(t, cos)
	lead, cos = splitCosigners(raw("x", "a", "b", "--", "c"), []string{"a", "b", "--", "c"})
	require.Equal(t, []string{"a", "b"}, lead, "a -- after the second positional argument is kept by urfave/cli")
	require.Equal(t, []string{"c"}, cos)
	lead, cos = splitCosigners(context.Background(), []string{"a", "b"})
	require.Equal(t, []string{"a", "b"}, lead)
	require.Empty(t, cos)
}

func TestWalletTokensKeepOtherExtra(t *testing.T) {
	w := wallet.New("")
	toks, err := walletTokens(w)
	require.NoError(t, err)
	require.Empty(t, toks)
	w.Extra = []byte(`{"Other":1,"Tokens":null}`)
	gas := walletToken{Name: "GasToken", Hash: txbuild.GasHash, Decimals: 8, Symbol: "GAS", Standard: nep17Standard}
	require.NoError(t, setWalletTokens(w, []walletToken{gas}))
	require.JSONEq(t, `{"Other":1,"Tokens":[{"name":"GasToken","script_hash":"`+txbuild.GasHash.String()+
		`","decimals":8,"symbol":"GAS","standard":"NEP-17"}]}`, string(w.Extra))
	toks, err = walletTokens(w)
	require.NoError(t, err)
	require.Equal(t, []walletToken{gas}, toks)
	for _, name := range []string{"GAS", "GasToken", txbuild.GasHash.String(), txbuild.GasHash.StringBE(), address.Uint160ToString(txbuild.GasHash)} {
		got, err := matchToken(nil, toks, name, nep17Standard)
		require.NoError(t, err, name)
		require.Equal(t, gas, *got)
	}
	_, err = matchToken(nil, toks, "GAS", nep11Standard)
	require.ErrorIs(t, err, errTokenNotFound)
	require.Empty(t, removeToken(toks, txbuild.GasHash))
	w.Extra = []byte(`[`)
	_, err = walletTokens(w)
	require.Error(t, err)
}
