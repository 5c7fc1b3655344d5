// Package nodetest holds what tests that run whole nodes share: the
// single-validator privnet configuration on loopback with free ports and
// an in-memory database, the repository's config directory, and a
// JSON-RPC client that requires success. It builds configurations and
// talks to running nodes; starting them stays with pkg/node (node.New),
// so that package's own tests can use this one too.
package nodetest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/rpc/result"
)

// ConfigDir is the repository's config directory (wallets, YAML files),
// found from the test's working directory upwards.
func ConfigDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "config")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("nodetest: no go.mod above the test's directory")
		}
		dir = parent
	}
}

// SingleConfig is the embedded single-validator privnet on loopback with
// free ports, an in-memory database and block time tpb (also the Policy
// value seeded at genesis); consensus as asked, with the repository's
// validator wallet.
func SingleConfig(t testing.TB, consensus bool, tpb time.Duration) config.Config {
	t.Helper()
	data, ok := config.Embedded(config.NetPrivNetSingle)
	require.True(t, ok)
	cfg, err := config.Parse(data, "")
	require.NoError(t, err)
	a := &cfg.ApplicationConfiguration
	a.DBConfiguration = config.DBConfiguration{Type: config.DBInMemory}
	a.P2P.Addresses = []string{"127.0.0.1:0"}
	a.RPC.Enabled = true
	a.RPC.Addresses = []string{"127.0.0.1:0"}
	a.Consensus.Enabled = consensus
	a.Consensus.UnlockWallet.Path = filepath.Join(ConfigDir(t), "wallet.privnet.single.json")
	p := &cfg.ProtocolConfiguration
	p.TimePerBlock, p.Genesis.TimePerBlock, p.MaxTimePerBlock = tpb, tpb, 0
	return cfg
}

// Client asks one node's RPC server.
type Client struct {
	URL  string
	HTTP *http.Client
}

// NewClient is a client of the RPC server at url (http://host:port) with
// no kept-alive connections (a test's node stops with its test).
func NewClient(url string) *Client {
	return &Client{URL: url,
		HTTP: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}}
}

// Result sends one request, which must succeed, and returns its result.
func (c *Client) Result(t testing.TB, method string, params ...any) json.RawMessage {
	t.Helper()
	res, e := c.Call(t, method, params...)
	require.Nil(t, e, "%s: %v", method, e)
	return res
}

// Call sends one request and returns its result or its error; a request
// that gets no JSON-RPC answer at all fails the test.
func (c *Client) Call(t testing.TB, method string, params ...any) (json.RawMessage, *result.Error) {
	t.Helper()
	if params == nil {
		params = []any{}
	}
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	require.NoError(t, err)
	resp, err := c.HTTP.Post(c.URL, "application/json", bytes.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	var out struct {
		Result json.RawMessage `json:"result"`
		Error  *result.Error   `json:"error"`
	}
	require.NoError(t, json.Unmarshal(raw, &out), string(raw))
	return out.Result, out.Error
}
