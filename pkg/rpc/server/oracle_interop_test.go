//go:build interop

package server

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/n3d-io/n3d/internal/neogotest"
	"github.com/n3d-io/n3d/pkg/services/oracle"
)

// TestInteropSubmitOracleResponse asks a real neo-go (NEOGO_BIN) with its
// oracle service on, and n3d with one, the same submitoracleresponse calls
// (a valid one, wrong message signatures, bad parameters) and requires
// equal answers (codes and messages); both without the service answer
// -602 alike.
func TestInteropSubmitOracleResponse(t *testing.T) {
	bin := neogotest.Bin(t, "run scripts/neogo-interop.sh (make interop)")
	base := node(t, "testblocks")
	plainURL := startNeogoRPC(t, bin, base, nil)
	oracleURL := startNeogoOracle(t, bin, base)
	rec := &oracleRecorder{got: make(chan struct{}, 16)}
	n := withServices(t, base, Config{Oracle: rec})

	key := oracleKey(t, "n3d rpc oracle test")
	pub := key.PublicKey()
	txSig := key.Sign([]byte("some transaction"))
	msgSig := key.Sign(oracle.ResponseMessage(pub, 42, txSig))
	b64 := base64.StdEncoding.EncodeToString
	other := oracleKey(t, "another oracle")
	require.JSONEq(t, `{"result":{}}`, string(callURL(t, oracleURL, "submitoracleresponse",
		b64(pub.Bytes()), 42, b64(txSig), b64(msgSig))))
	for _, ps := range [][]any{
		{b64(pub.Bytes()), 42, b64(txSig), b64(msgSig)},
		{b64(pub.Bytes()), "42", b64(txSig), b64(msgSig)},
		{b64(pub.Bytes()), 43, b64(txSig), b64(msgSig)},
		{b64(other.PublicKey().Bytes()), 42, b64(txSig), b64(msgSig)},
		{b64(pub.Bytes()), 42, b64(msgSig), b64(msgSig)},
		{},
		{"!!", 42, b64(txSig), b64(msgSig)},
		{b64([]byte{2, 1}), 42, b64(txSig), b64(msgSig)},
		{b64(pub.Bytes())},
		{b64(pub.Bytes()), "x", b64(txSig), b64(msgSig)},
		{b64(pub.Bytes()), 42},
		{b64(pub.Bytes()), 42, "!!", b64(msgSig)},
		{b64(pub.Bytes()), 42, b64(txSig)},
		{b64(pub.Bytes()), 42, b64(txSig), "!!"},
	} {
		requireJSON(t, callURL(t, oracleURL, "submitoracleresponse", ps...),
			callURL(t, n.http.URL, "submitoracleresponse", ps...), "%v", ps)
	}
	ps := []any{b64(pub.Bytes()), 42, b64(txSig), b64(msgSig)}
	require.Contains(t, string(callURL(t, plainURL, "submitoracleresponse", ps...)), "-602")
	requireJSON(t, callURL(t, plainURL, "submitoracleresponse", ps...),
		callURL(t, base.http.URL, "submitoracleresponse", ps...))
}

// startNeogoOracle runs a neo-go over the chain of n with its oracle
// service on (the wallet of neo-go's privnet node 1) and returns its RPC
// URL.
func startNeogoOracle(t *testing.T, bin string, n *testNode) string {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join(n.dir, "protocol.yml"))
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	app := cfg["ApplicationConfiguration"].(map[string]any)
	app["DBConfiguration"] = map[string]any{"Type": "inmemory"}
	app["P2P"].(map[string]any)["Addresses"] = []string{neogotest.FreeAddr(t)}
	rpcAddr := neogotest.FreeAddr(t)
	app["RPC"].(map[string]any)["Addresses"] = []string{rpcAddr}
	wallet, err := filepath.Abs(filepath.Join("..", "..", "wallet", "testdata", "neogo_wallet1.json"))
	require.NoError(t, err)
	app["Oracle"] = map[string]any{"Enabled": true, "AllowPrivateHost": true,
		"UnlockWallet": map[string]any{"Path": wallet, "Password": "one"}}
	path := neogotest.WriteYAML(t, filepath.Join(dir, "neogo.yml"), cfg)
	return neogotest.Start(t, bin, path, rpcAddr).URL
}
