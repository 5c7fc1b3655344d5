package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// testNode is a restored reference chain behind an RPC server.
type testNode struct {
	name  string
	dir   string
	cfg   config.Config
	chain *chain.Chain
	srv   *Server
	http  *httptest.Server
}

var (
	nodesMu sync.Mutex
	nodes   = map[string]*testNode{}
)

// node returns the RPC server over the restored reference chain name,
// shared by the tests of the package.
func node(t testing.TB, name string) *testNode {
	t.Helper()
	nodesMu.Lock()
	defer nodesMu.Unlock()
	if n, ok := nodes[name]; ok {
		return n
	}
	dir := conformance.Dir(t, "chains", name)
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	ns, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: ns, BloomCapacity: 1000})
	require.NoError(t, err)
	acc, err := os.ReadFile(filepath.Join(dir, name+".acc"))
	require.NoError(t, err)
	_, err = chain.Restore(context.Background(), c, bytes.NewReader(acc), chain.RestoreOptions{})
	require.NoError(t, err)
	srv, err := New(yamlSettings(Config{TCPPort: 41333}, cfg.ApplicationConfiguration.RPC,
		cfg.ApplicationConfiguration.Ledger), c)
	require.NoError(t, err)
	n := &testNode{name: name, dir: dir, cfg: cfg, chain: c, srv: srv, http: httptest.NewServer(srv)}
	nodes[name] = n
	return n
}

// yamlSettings sets cfg's settings from the configuration's RPC and
// Ledger sections, the mapping of pkg/node's RPCConfig (which this package
// cannot import; TestRPCConfigMapsEverySetting checks that one).
func yamlSettings(cfg Config, r config.RPC, l config.Ledger) Config {
	cfg.Addresses = r.Addresses
	cfg.TLS = TLSConfig{Enabled: r.TLSConfig.Enabled, Addresses: r.TLSConfig.Addresses,
		CertFile: r.TLSConfig.CertFile, KeyFile: r.TLSConfig.KeyFile}
	cfg.EnableCORSWorkaround = r.EnableCORSWorkaround
	cfg.MaxGasInvoke = r.MaxGasInvoke
	cfg.MaxIteratorResultItems = r.MaxIteratorResultItems
	cfg.MaxFindResultItems = r.MaxFindResultItems
	cfg.MaxFindStorageResultItems = r.MaxFindStorageResultItems
	cfg.MaxNEP11Tokens = r.MaxNEP11Tokens
	cfg.MaxRequestBodyBytes = r.MaxRequestBodyBytes
	cfg.MaxRequestHeaderBytes = r.MaxRequestHeaderBytes
	cfg.MaxWebSocketClients = r.MaxWebSocketClients
	cfg.MaxWebSocketFeeds = r.MaxWebSocketFeeds
	cfg.MempoolSubscriptionsEnabled = r.MempoolSubscriptionsEnabled
	cfg.SessionEnabled = r.SessionEnabled
	cfg.SessionExpansionEnabled = r.SessionExpansionEnabled
	cfg.SessionLifetime = r.SessionLifetime
	cfg.SessionPoolSize = r.SessionPoolSize
	cfg.KeepOnlyLatestState = l.KeepOnlyLatestState
	cfg.RemoveUntraceableBlocks = l.RemoveUntraceableBlocks
	return cfg
}

// forChains runs f for every reference chain.
func forChains(t *testing.T, f func(t *testing.T, n *testNode)) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) { f(t, node(t, name)) })
	}
}

// rpcResponse is a decoded single response.
type rpcResponse struct {
	ID      json.RawMessage `json:"id"`
	JSONRPC string          `json:"jsonrpc"`
	Result  json.RawMessage `json:"result"`
	Error   *result.Error   `json:"error"`
}

// post sends body and returns the raw answer.
func (n *testNode) post(t testing.TB, body string) []byte {
	t.Helper()
	resp, err := http.Post(n.http.URL, "application/json", bytes.NewBufferString(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	out, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return out
}

// call sends one request and returns its result or error.
func (n *testNode) call(t testing.TB, method string, params ...any) (json.RawMessage, *result.Error) {
	t.Helper()
	ps, err := json.Marshal(params)
	require.NoError(t, err)
	if params == nil {
		ps = []byte("[]")
	}
	raw := n.post(t, fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":%q,"params":%s}`, method, ps))
	var r rpcResponse
	require.NoError(t, json.Unmarshal(raw, &r), string(raw))
	require.Equal(t, "2.0", r.JSONRPC)
	require.JSONEq(t, "1", string(r.ID))
	return r.Result, r.Error
}

// result calls a method that must succeed.
func (n *testNode) result(t testing.TB, method string, params ...any) json.RawMessage {
	t.Helper()
	res, e := n.call(t, method, params...)
	require.Nil(t, e, "%s %v: %v", method, params, e)
	return res
}

// fail calls a method that must fail with code.
func (n *testNode) fail(t testing.TB, code int64, method string, params ...any) *result.Error {
	t.Helper()
	res, e := n.call(t, method, params...)
	require.NotNil(t, e, "%s %v answered %s", method, params, res)
	require.Equal(t, code, e.Code, "%s %v: %v", method, params, e)
	return e
}

// decode turns JSON into generic values for comparisons.
func decode(t testing.TB, data []byte) any {
	t.Helper()
	var v any
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	require.NoError(t, d.Decode(&v), string(data))
	return v
}

// requireJSON compares two JSON documents structurally (numbers exactly).
func requireJSON(t testing.TB, want, got []byte, msgAndArgs ...any) {
	t.Helper()
	require.Equal(t, decode(t, want), decode(t, got), msgAndArgs...)
}

// readJSON decodes a reference .json file.
func readJSON[T any](t testing.TB, path string) T {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var v T
	require.NoError(t, json.Unmarshal(data, &v), path)
	return v
}

// keyOrder returns the keys of a JSON object in document order.
func keyOrder(t testing.TB, obj []byte) []string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(obj))
	tok, err := d.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok, string(obj))
	var keys []string
	for d.More() {
		k, err := d.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var skip json.RawMessage
		require.NoError(t, d.Decode(&skip))
	}
	return keys
}
