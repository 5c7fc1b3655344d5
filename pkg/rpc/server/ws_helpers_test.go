package server

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// wsWait bounds every wait of the WebSocket tests (generous: the machine
// is shared).
const wsWait = 30 * time.Second

// wsNode is a reference chain at its genesis behind a server with a /ws
// endpoint; the reference blocks are fed with addBlocks.
type wsNode struct {
	dir    string
	chain  *chain.Chain
	pool   *mempool.Pool
	srv    *Server
	http   *httptest.Server
	blocks []*block.Block // the reference blocks, index 1 first
}

// poolLedger lets the test pool take any transaction.
type poolLedger struct{}

func (poolLedger) BlockHeight() uint32 { return 0 }
func (poolLedger) GASBalance(util.Uint160) (*big.Int, error) {
	return new(big.Int).Lsh(big.NewInt(1), 100), nil
}

// newWSNode opens chain name at genesis; tweak adjusts the server's
// configuration.
func newWSNode(t testing.TB, name string, tweak func(*Config)) *wsNode {
	t.Helper()
	dir := conformance.Dir(t, "chains", name)
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	ns, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: ns, BloomCapacity: 1000})
	require.NoError(t, err)
	pool, err := mempool.New(mempool.Config{Capacity: 100, Ledger: poolLedger{}})
	require.NoError(t, err)
	scfg := yamlSettings(Config{ChainEvents: c, PoolEvents: pool}, cfg.ApplicationConfiguration.RPC,
		cfg.ApplicationConfiguration.Ledger)
	scfg.MempoolSubscriptionsEnabled = true
	if tweak != nil {
		tweak(&scfg)
	}
	srv, err := New(scfg, c)
	require.NoError(t, err)
	n := &wsNode{dir: dir, chain: c, pool: pool, srv: srv, http: httptest.NewServer(srv)}
	t.Cleanup(func() {
		srv.hub().close()
		n.http.Close()
		require.NoError(t, c.Close())
	})
	for i, raw := range conformance.RawBlocks(t, name) {
		if i == 0 {
			continue // the genesis block, built by chain.Open
		}
		b, err := block.NewBlockFromBytes(raw)
		require.NoError(t, err)
		n.blocks = append(n.blocks, b)
	}
	return n
}

// addBlocks adds the reference blocks with indexes from..to.
func (n *wsNode) addBlocks(t testing.TB, from, to int) {
	t.Helper()
	for i := from; i <= to; i++ {
		require.NoError(t, n.chain.AddBlock(n.blocks[i-1]), "block %d", i)
	}
}

// url is the node's WebSocket address.
func (n *wsNode) url() string { return "ws" + strings.TrimPrefix(n.http.URL, "http") + "/ws" }

// wsMessage is a response or a notification.
type wsMessage struct {
	ID      json.RawMessage   `json:"id"`
	JSONRPC string            `json:"jsonrpc"`
	Result  json.RawMessage   `json:"result"`
	Error   *result.Error     `json:"error"`
	Method  string            `json:"method"`
	Params  []json.RawMessage `json:"params"`
	raw     []byte
}

// wsClientConn is a test client; notifications read while waiting for a
// response are kept for next.
type wsClientConn struct {
	t       testing.TB
	conn    *websocket.Conn
	id      int
	pending []wsMessage
}

func (n *wsNode) dial(t testing.TB) *wsClientConn {
	t.Helper()
	conn, resp, err := websocket.DefaultDialer.Dial(n.url(), nil)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	t.Cleanup(func() { _ = conn.Close() })
	return &wsClientConn{t: t, conn: conn}
}

// read returns the next message.
func (c *wsClientConn) read() wsMessage {
	c.t.Helper()
	require.NoError(c.t, c.conn.SetReadDeadline(time.Now().Add(wsWait)))
	_, data, err := c.conn.ReadMessage()
	require.NoError(c.t, err)
	var m wsMessage
	require.NoError(c.t, json.Unmarshal(data, &m), string(data))
	m.raw = data
	return m
}

// send writes a raw message.
func (c *wsClientConn) send(msg string) {
	c.t.Helper()
	require.NoError(c.t, c.conn.WriteMessage(websocket.TextMessage, []byte(msg)))
}

// response reads until the next response, keeping notifications.
func (c *wsClientConn) response() wsMessage {
	c.t.Helper()
	for {
		m := c.read()
		if m.Method == "" {
			return m
		}
		c.pending = append(c.pending, m)
	}
}

// call sends one request and returns its response.
func (c *wsClientConn) call(method string, params ...any) wsMessage {
	c.t.Helper()
	if params == nil {
		params = []any{}
	}
	ps, err := json.Marshal(params)
	require.NoError(c.t, err)
	c.id++
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, c.id, method, ps))
	m := c.response()
	require.JSONEq(c.t, fmt.Sprint(c.id), string(m.ID), string(m.raw))
	return m
}

// subscribe subscribes and returns the feed id.
func (c *wsClientConn) subscribe(params ...any) string {
	c.t.Helper()
	m := c.call("subscribe", params...)
	require.Nil(c.t, m.Error, "subscribe %v", params)
	var id string
	require.NoError(c.t, json.Unmarshal(m.Result, &id))
	return id
}

// next returns the next notification.
func (c *wsClientConn) next() wsMessage {
	c.t.Helper()
	if len(c.pending) > 0 {
		m := c.pending[0]
		c.pending = c.pending[1:]
		return m
	}
	m := c.read()
	require.NotEmpty(c.t, m.Method, "a response without a request: %s", m.raw)
	return m
}

// nextN returns the next n notifications.
func (c *wsClientConn) nextN(n int) []wsMessage {
	c.t.Helper()
	out := make([]wsMessage, n)
	for i := range out {
		out[i] = c.next()
	}
	return out
}

// clientCount is the number of connected clients.
func (h *wsHub) clientCount() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.mu.clients)
}
