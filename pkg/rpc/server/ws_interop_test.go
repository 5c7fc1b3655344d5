//go:build interop

package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/internal/neogotest"
)

// TestInteropWSMessages runs neo-go 0.120.0 (NEOGO_BIN, see
// scripts/neogo-interop.sh) with testblocks restored but for its last
// blocks, and n3d the same way; on both, a WebSocket client subscribes to
// every chain stream (and sends some bad subscriptions) and to added
// mempool transactions; a transaction of the last block enters the pool,
// then the blocks arrive (submitblock on neo-go). Every message must be
// the same bytes, FAULT exception texts aside.
func TestInteropWSMessages(t *testing.T) {
	bin := neogotest.Bin(t, "run scripts/neogo-interop.sh")
	n := newWSNode(t, "testblocks", nil)
	last := len(n.blocks)
	first := last - 8 // deployments, NEP-11/NEP-17 transfers, a FAULT
	rpcAddr := startNeogoWS(t, bin, n.dir, first-1)

	theirs := &wsClientConn{t: t, conn: dialWS(t, "ws://"+rpcAddr+"/ws")}
	ours := n.dial(t)
	n.addBlocks(t, 1, first-1)

	// Second clients with the filters of TestWSFilters, all on one
	// connection; the last block's block_added ends their streams.
	theirsF, oursF := &wsClientConn{t: t, conn: dialWS(t, "ws://"+rpcAddr+"/ws")}, n.dial(t)
	for _, fc := range filterCases(t, referenceEvents(t, n.dir)) {
		for _, c := range []*wsClientConn{theirsF, oursF} {
			c.subscribe(fc.stream, json.RawMessage(fc.filter))
		}
	}
	for _, c := range []*wsClientConn{theirsF, oursF} {
		c.subscribe("block_added", map[string]any{"since": last})
	}

	requests := interopRequests()
	for _, req := range requests {
		theirs.send(req)
		ours.send(req)
		require.Equal(t, string(theirs.response().raw), string(ours.response().raw), req)
	}
	// A transaction of the last block enters both pools first.
	for _, c := range []*wsClientConn{theirs, ours} {
		c.send(`{"jsonrpc":"2.0","id":99,"method":"subscribe","params":["mempool_event",{"type":"added"}]}`)
	}
	require.Equal(t, string(theirs.response().raw), string(ours.response().raw))
	tx := n.blocks[last-1].Transactions[0]
	txRaw, err := tx.Bytes()
	require.NoError(t, err)
	neogoCall(t, rpcAddr, "sendrawtransaction", base64.StdEncoding.EncodeToString(txRaw))
	require.NoError(t, n.pool.Add(tx, 0))
	require.Equal(t, string(theirs.next().raw), string(ours.next().raw), "mempool_event")

	exception := regexp.MustCompile(`"exception":"[^"]*"`)
	same := func(want, got wsMessage, msgAndArgs ...any) {
		require.Equal(t, exception.ReplaceAllString(string(want.raw), `"exception":"…"`),
			exception.ReplaceAllString(string(got.raw), `"exception":"…"`), msgAndArgs...)
	}
	count := 0
	for i := first; i <= last; i++ {
		raw := conformance.RawBlocks(t, "testblocks")[i]
		res := neogoCall(t, rpcAddr, "submitblock", base64.StdEncoding.EncodeToString(raw))
		require.Contains(t, string(res), "hash", string(res))
		n.addBlocks(t, i, i)
		for {
			want, got := theirs.next(), ours.next()
			same(want, got, "block %d, message %d", i, count)
			count++
			if want.Method == "block_added" {
				break
			}
		}
	}
	filtered := 0
	for {
		want, got := theirsF.next(), oursF.next()
		same(want, got, "filtered message %d", filtered)
		filtered++
		if want.Method == "block_added" && bytes.Contains(want.raw, []byte(fmt.Sprintf(`"index":%d,`, last))) {
			break
		}
	}
	t.Logf("%d requests, %d notifications of %d blocks and %d filtered ones identical",
		len(requests), count, last-first+1, filtered)
}

// interopRequests are the subscriptions (good and bad) both nodes answer.
func interopRequests() []string {
	var out []string
	add := func(method string, params string) {
		out = append(out, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, len(out)+1, method, params))
	}
	for _, p := range []string{`[]`, `["nosuch"]`, `["event_missed"]`, `["block_added",{"primary":256}]`,
		`["block_added",{"foo":1}]`, `["transaction_executed",{"state":"NONE"}]`,
		`["notification_from_execution",{"parameters":[{"type":"Any"}]}]`,
		`["notification_from_execution",{"name":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}]`} {
		add("subscribe", p)
	}
	add("unsubscribe", `["3"]`)
	for _, s := range chainStreams {
		add("subscribe", `["`+s+`"]`)
	}
	add("subscribe", `["block_added",{"since":0,"primary":0}]`)
	add("unsubscribe", `["5"]`)
	add("unsubscribe", `[5]`)
	return out
}

// startNeogoWS restores the first count blocks of testblocks into a
// neo-go node and starts it; it returns the RPC address.
func startNeogoWS(t *testing.T, bin, chainDir string, count int) string {
	dir := t.TempDir()
	raw, err := os.ReadFile(filepath.Join(chainDir, "protocol.yml"))
	require.NoError(t, err)
	var cfg map[string]any
	require.NoError(t, yaml.Unmarshal(raw, &cfg))
	rpcAddr := neogotest.FreeAddr(t)
	app := cfg["ApplicationConfiguration"].(map[string]any)
	app["DBConfiguration"] = map[string]any{"Type": "leveldb",
		"LevelDBOptions": map[string]any{"DataDirectoryPath": filepath.Join(dir, "db")}}
	app["P2P"] = map[string]any{"Addresses": []string{neogotest.FreeAddr(t)}, "MinPeers": 0}
	app["RPC"] = map[string]any{"Enabled": true, "Addresses": []string{rpcAddr}, "MaxGasInvoke": 15,
		"MempoolSubscriptionsEnabled": true}
	app["Consensus"] = map[string]any{"Enabled": false}
	path := neogotest.WriteYAML(t, filepath.Join(dir, "neogo.yml"), cfg)
	neogotest.Restore(t, bin, path, filepath.Join(chainDir, "testblocks.acc"), "-c", fmt.Sprint(count))
	neogotest.Start(t, bin, path, rpcAddr)
	require.JSONEq(t, fmt.Sprint(count+1), string(neogoCall(t, rpcAddr, "getblockcount")))
	return rpcAddr
}

// neogoCall makes a JSON-RPC call to the node at addr and returns the
// result.
func neogoCall(t *testing.T, addr, method string, params ...any) json.RawMessage {
	res, err := neogotest.Call("http://"+addr, method, params...)
	require.NoError(t, err)
	return res
}

func dialWS(t *testing.T, url string) *websocket.Conn {
	conn, resp, err := websocket.DefaultDialer.Dial(url, nil)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}
