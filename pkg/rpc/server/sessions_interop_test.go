//go:build interop

package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/n3d-io/n3d/internal/neogotest"
	"github.com/n3d-io/n3d/pkg/config"
)

// TestInteropRPCExtensions asks a real neo-go (NEOGO_BIN, see
// scripts/neogo-interop.sh) and n3d, both on the restored testblocks chain
// with sessions on, the same questions about iterator sessions, NEP-11,
// getblocknotifications and historic invocations, and requires equal
// answers (UUIDs aside).
func TestInteropRPCExtensions(t *testing.T) {
	bin := neogotest.Bin(t, "run scripts/neogo-interop.sh (make interop)")
	n := node(t, "testblocks").variant(t, func(r *config.RPC) { r.SessionEnabled = true })
	url := startNeogoRPC(t, bin, n, nil)

	ask := func(method string, params ...any) (json.RawMessage, json.RawMessage) {
		t.Helper()
		return callURL(t, url, method, params...), callURL(t, n.http.URL, method, params...)
	}
	same := func(method string, params ...any) {
		t.Helper()
		ref, got := ask(method, params...)
		requireJSON(t, hideUUIDs(ref), hideUUIDs(got), "%s %v", method, params)
	}

	// Sessions: equal first answers, then equal pages.
	for _, c := range [][2]string{{managementHash, "getContractHashes"}, {nnsHash, "tokens"}} {
		ref, got := ask("invokefunction", c[0], c[1], []any{})
		requireJSON(t, hideUUIDs(ref), hideUUIDs(got), c[1])
		rs, ri := sessionOf(t, ref)
		gs, gi := sessionOf(t, got)
		for page := 0; page < 5; page++ {
			a, b := callURL(t, url, "traverseiterator", rs, ri, 2), callURL(t, n.http.URL, "traverseiterator", gs, gi, 2)
			requireJSON(t, a, b, page)
		}
		requireJSON(t, callURL(t, url, "terminatesession", rs), callURL(t, n.http.URL, "terminatesession", gs))
		requireJSON(t, callURL(t, url, "terminatesession", rs), callURL(t, n.http.URL, "terminatesession", gs))
	}
	same("traverseiterator", "abc", "x", 1)

	// NEP-11.
	addrs := readJSON[map[string]json.RawMessage](t, filepath.Join(n.dir, "addresses.json"))
	for a := range addrs {
		ref, got := ask("getnep11balances", a)
		require.Equal(t, sortedBalances(t, resultOf(t, ref)), sortedBalances(t, resultOf(t, got)), a)
		same("getnep11transfers", a, 0, 1<<62)
	}
	same("getnep11properties", nnsHash, "6e656f2e636f6d")
	same("getnep11properties", nfsoHash, "7e244ffd6aa85fb1579d2ed22e9b761ab62e3486")
	same("getnep11properties", nnsHash, "00")

	// Block notifications, plain and filtered.
	for h := range n.chain.BlockHeight() + 1 {
		same("getblocknotifications", h)
		same("getblocknotifications", h, map[string]any{"contract": gasHash, "name": "Transfer"})
	}
	same("getblocknotifications", 1, map[string]any{"bad": 1})

	// Historic invocations at every height but the one before Echidna:
	// neo-go 0.120.0 panics there (its Policy cache wants the keys that
	// Echidna's OnPersist writes, not in that state yet).
	echidna := n.cfg.ProtocolConfiguration.Hardforks["Echidna"]
	for h := range n.chain.BlockHeight() + 1 {
		if h+1 == echidna {
			continue
		}
		same("invokefunctionhistoric", h, ledgerHash, "currentIndex", []any{})
		same("invokefunctionhistoric", h, managementHash, "getContractHashes", []any{})
		hash, _ := n.chain.GetHeaderHash(h)
		same("invokefunctionhistoric", hash.String(), gasHash, "totalSupply", []any{})
		same("invokecontractverifyhistoric", h, "0x7f732d9aa2e877a36142344822826721522f2524")
	}
	// Historic storage at every root (all heights: no VM involved).
	for h := range n.chain.BlockHeight() + 1 {
		sr, err := n.chain.StateRoot(h)
		require.NoError(t, err)
		root := sr.Root.String()
		same("findstoragehistoric", root, gasHash, "FA==")
		same("findstoragehistoric", root, gasHash, "FA==", 2)
		same("findstoragehistoric", root, storageHash, "AQ==", 50)
		same("findstoragehistoric", root, 6, "AQ==")
		same("getstoragehistoric", root, -6, "Cw==")
		same("getstoragehistoric", root, "gastoken", "Cw==")
		same("getstoragehistoric", root, 6, "AQE=")
	}
}

// TestInteropSessionExpansion compares the expanded iterators of
// SessionExpansionEnabled with neo-go's.
func TestInteropSessionExpansion(t *testing.T) {
	bin := neogotest.Bin(t, "run scripts/neogo-interop.sh (make interop)")
	n := node(t, "testblocks").variant(t, func(r *config.RPC) {
		r.SessionEnabled, r.SessionExpansionEnabled, r.MaxIteratorResultItems = true, true, 4
	})
	url := startNeogoRPC(t, bin, n, map[string]any{"SessionExpansionEnabled": true, "MaxIteratorResultItems": 4})
	empty := map[string]any{"type": "Hash160", "value": "0x0000000000000000000000000000000000000001"}
	for _, c := range []struct {
		contract, method string
		args             []any
	}{{managementHash, "getContractHashes", []any{}}, {nnsHash, "tokens", []any{}}, {nfsoHash, "tokensOf", []any{empty}}} {
		ref := callURL(t, url, "invokefunction", c.contract, c.method, c.args)
		got := callURL(t, n.http.URL, "invokefunction", c.contract, c.method, c.args)
		requireJSON(t, hideUUIDs(ref), hideUUIDs(got), c.method)
		if c.method != "getContractHashes" {
			continue
		}
		rs, ri := sessionOf(t, ref)
		gs, gi := sessionOf(t, got)
		requireJSON(t, callURL(t, url, "traverseiterator", rs, ri, 4), callURL(t, n.http.URL, "traverseiterator", gs, gi, 4))
	}
}

var uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// hideUUIDs replaces the session and iterator IDs.
func hideUUIDs(b []byte) []byte { return uuidRe.ReplaceAll(b, []byte("<uuid>")) }

func resultOf(t *testing.T, raw json.RawMessage) json.RawMessage {
	var r struct{ Result json.RawMessage }
	require.NoError(t, json.Unmarshal(raw, &r))
	require.NotEmpty(t, r.Result, string(raw))
	return r.Result
}

func sessionOf(t *testing.T, raw json.RawMessage) (string, string) {
	var r struct {
		Result struct {
			Session string `json:"session"`
			Stack   []struct {
				ID string `json:"id"`
			} `json:"stack"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(raw, &r))
	require.NotEmpty(t, r.Result.Session, string(raw))
	return r.Result.Session, r.Result.Stack[0].ID
}

// callURL posts one request and returns the whole response without its id
// and jsonrpc members (result or error).
func callURL(t *testing.T, url, method string, params ...any) json.RawMessage {
	t.Helper()
	ps, err := json.Marshal(params)
	require.NoError(t, err)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, ps)
	resp, err := http.Post(url, "application/json", bytes.NewBufferString(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var r map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(raw, &r), string(raw))
	delete(r, "id")
	delete(r, "jsonrpc")
	if e, ok := r["error"]; ok { // messages and codes compared, data texts are implementation text
		var er map[string]any
		require.NoError(t, json.Unmarshal(e, &er))
		delete(er, "data")
		r["error"] = mustJSON(t, er)
	}
	return mustJSON(t, r)
}

// startNeogoRPC restores the chain of n into a neo-go with sessions on (and
// the rpcExtra RPC settings) and serves its RPC on loopback until the test
// ends.
func startNeogoRPC(t *testing.T, bin string, n *testNode, rpcExtra map[string]any) string {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join(n.dir, "protocol.yml"))
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	app := cfg["ApplicationConfiguration"].(map[string]any)
	app["DBConfiguration"] = map[string]any{"Type": "leveldb",
		"LevelDBOptions": map[string]any{"DataDirectoryPath": filepath.Join(dir, "db")}}
	app["P2P"].(map[string]any)["Addresses"] = []string{neogotest.FreeAddr(t)}
	rpcAddr := neogotest.FreeAddr(t)
	rpc := app["RPC"].(map[string]any)
	rpc["Addresses"], rpc["SessionEnabled"] = []string{rpcAddr}, true
	for k, v := range rpcExtra {
		rpc[k] = v
	}
	path := neogotest.WriteYAML(t, filepath.Join(dir, "neogo.yml"), cfg)
	neogotest.Restore(t, bin, path, filepath.Join(n.dir, n.name+".acc"))
	ng := neogotest.Start(t, bin, path, rpcAddr)
	count, err := ng.Call("getblockcount")
	require.NoError(t, err)
	require.JSONEq(t, fmt.Sprint(n.chain.BlockHeight()+1), string(count), "neo-go's height after the restore")
	return ng.URL
}
