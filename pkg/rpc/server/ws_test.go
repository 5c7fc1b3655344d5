package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// The error answers below are neo-go's (pkg/services/rpcsrv subscribe and
// unsubscribe, pkg/neorpc filters): invalid params for a bad stream, filter
// or feed id; internal errors for the feed limit and disabled mempool
// events.
func TestWSSubscribeErrors(t *testing.T) {
	n := newWSNode(t, "testblocks", func(c *Config) { c.MaxWebSocketFeeds = 2 })
	c := n.dial(t)
	long := strings.Repeat("a", 33)
	seventeen := strings.Repeat(`{"type":"Integer","value":1},`, 16) + `{"type":"Integer","value":1}`
	cases := []struct {
		params []any
		code   int64
		data   string
	}{
		{nil, result.InvalidParamsCode, ""},
		{[]any{"nosuch"}, result.InvalidParamsCode, ""},
		{[]any{123}, result.InvalidParamsCode, ""},
		{[]any{"event_missed"}, result.InvalidParamsCode, ""},
		{[]any{"notary_request_event"}, result.InvalidParamsCode, "notary request events are not supported"},
		{[]any{"block_added", json.RawMessage(`{"primary":256}`)}, result.InvalidParamsCode, "cannot unmarshal"},
		{[]any{"block_added", json.RawMessage(`{"foo":1}`)}, result.InvalidParamsCode, `unknown field "foo"`},
		{[]any{"block_added", "str"}, result.InvalidParamsCode, "cannot unmarshal"},
		{[]any{"transaction_added", json.RawMessage(`{"sender":"zz"}`)}, result.InvalidParamsCode, ""},
		{[]any{"transaction_executed", json.RawMessage(`{"state":"NONE"}`)}, result.InvalidParamsCode, "must be either HALT or FAULT"},
		{[]any{"notification_from_execution", map[string]any{"name": long}}, result.InvalidParamsCode, "name parameter must be less than 32"},
		{[]any{"notification_from_execution", json.RawMessage(`{"parameters":[` + seventeen + `]}`)}, result.InvalidParamsCode, "parameters number exceeded: 17 > 16"},
		{[]any{"notification_from_execution", json.RawMessage(`{"parameters":[{"type":"Any"}]}`)}, result.InvalidParamsCode, "all parameters of type Any"},
		{[]any{"notification_from_execution", json.RawMessage(`{"parameters":[{"type":"Array","value":[]}]}`)}, result.InvalidParamsCode, "unsupported"},
		{[]any{"notification_from_execution", json.RawMessage(`{"parameters":[{"type":"Integer","value":"x"}]}`)}, result.InvalidParamsCode, "not an integer"},
		{[]any{"notification_from_execution", json.RawMessage(`{"parameters":[{"type":"Hash160","value":"0x12"}]}`)}, result.InvalidParamsCode, ""},
		{[]any{"notification_from_execution", json.RawMessage(`{"parameters":[{"type":"Nope"}]}`)}, result.InvalidParamsCode, ""},
		{[]any{"mempool_event", json.RawMessage(`{"type":"changed"}`)}, result.InvalidParamsCode, "invalid event type name"},
	}
	for _, tc := range cases {
		m := c.call("subscribe", tc.params...)
		require.NotNil(t, m.Error, "%v answered %s", tc.params, m.raw)
		require.Equal(t, tc.code, m.Error.Code, "%v: %v", tc.params, m.Error)
		require.Equal(t, "Invalid params", m.Error.Message)
		require.Contains(t, m.Error.Data, tc.data, "%v", tc.params)
	}

	// MaxWebSocketFeeds, and the slots freed by unsubscribe.
	require.Equal(t, "0", c.subscribe("block_added"))
	require.Equal(t, "1", c.subscribe("mempool_event"))
	m := c.call("subscribe", "transaction_added")
	require.Equal(t, &result.Error{Code: result.InternalErrorCode, Message: "Internal error",
		Data: "maximum number of subscriptions is reached"}, m.Error)
	for _, bad := range [][]any{nil, {"2"}, {-1}, {"x"}, {"99"}} {
		m := c.call("unsubscribe", bad...)
		require.NotNil(t, m.Error, "%v", bad)
		require.Equal(t, *result.ErrInvalidParams, *m.Error, "%v", bad)
	}
	m = c.call("unsubscribe", "0")
	require.Nil(t, m.Error)
	require.JSONEq(t, "true", string(m.Result))
	require.Equal(t, int64(result.InvalidParamsCode), c.call("unsubscribe", 0).Error.Code, "already gone")
	require.Equal(t, "0", c.subscribe("transaction_added"))

	// Over HTTP the methods do not exist.
	resp, err := http.Post(n.http.URL, "application/json",
		strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"subscribe","params":["block_added"]}`))
	require.NoError(t, err)
	defer resp.Body.Close()
	var r rpcResponse
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&r))
	require.Equal(t, int64(result.MethodNotFoundCode), r.Error.Code)
}

func TestWSMempoolDisabled(t *testing.T) {
	n := newWSNode(t, "testblocks", func(c *Config) { c.MempoolSubscriptionsEnabled = false })
	for _, ps := range [][]any{{"mempool_event"}, {"mempool_event", map[string]any{"type": "added"}}} {
		m := n.dial(t).call("subscribe", ps...)
		require.Equal(t, &result.Error{Code: result.InternalErrorCode, Message: "Internal error",
			Data: "mempool subscriptions are disabled"}, m.Error)
	}
}

func TestWSMalformedMessages(t *testing.T) {
	n := newWSNode(t, "testblocks", nil)
	c := n.dial(t)
	for _, msg := range []string{"not json", "", "[]", `{"jsonrpc":"2.0","id":1,"method":"getblockcount"`} {
		c.send(msg)
		m := c.response()
		require.NotNil(t, m.Error, msg)
		require.Equal(t, int64(result.ParseErrorCode), m.Error.Code, msg)
		require.JSONEq(t, "null", string(m.ID))
	}
	require.NoError(t, c.conn.WriteMessage(websocket.BinaryMessage, []byte{0xff, 0x00}))
	require.Equal(t, int64(result.ParseErrorCode), c.response().Error.Code)

	c.send(`{"jsonrpc":"1.0","id":7,"method":"subscribe","params":["block_added"]}`)
	m := c.response()
	require.Equal(t, int64(result.InvalidParamsCode), m.Error.Code)
	require.Contains(t, m.Error.Data, "invalid version")

	// A batch mixes subscriptions and ordinary methods.
	c.send(`[{"jsonrpc":"2.0","id":1,"method":"subscribe","params":["block_added"]},
		{"jsonrpc":"2.0","id":2,"method":"getblockcount","params":[]}]`)
	var batch []rpcResponse
	require.NoError(t, c.conn.SetReadDeadline(time.Now().Add(wsWait)))
	_, raw, err := c.conn.ReadMessage()
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &batch), string(raw))
	require.Len(t, batch, 2)
	require.JSONEq(t, `"0"`, string(batch[0].Result))
	require.JSONEq(t, "1", string(batch[1].Result))

	// Still subscribed and answering.
	n.addBlocks(t, 1, 1)
	require.Equal(t, "block_added", c.next().Method)
	require.JSONEq(t, "2", string(c.call("getblockcount").Result))

	// A message over the read limit closes that connection only.
	big := bytes.Repeat([]byte("a"), int(n.srv.hub().opts.readLimit)+1)
	require.NoError(t, c.conn.WriteMessage(websocket.TextMessage, big))
	require.NoError(t, c.conn.SetReadDeadline(time.Now().Add(wsWait)))
	_, _, err = c.conn.ReadMessage()
	require.True(t, websocket.IsCloseError(err, websocket.CloseMessageTooBig), "%v", err)
	require.JSONEq(t, "2", string(n.dial(t).call("getblockcount").Result))
}

func TestWSClientLimit(t *testing.T) {
	n := newWSNode(t, "testblocks", func(c *Config) { c.MaxWebSocketClients = 1 })
	first := n.dial(t)
	first.call("getblockcount") // answered: the server has registered it
	_, resp, err := websocket.DefaultDialer.Dial(n.url(), nil)
	require.ErrorIs(t, err, websocket.ErrBadHandshake)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusOK, resp.StatusCode)
	require.JSONEq(t, `{"id":null,"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error","data":"websocket users limit reached"}}`, string(body))

	require.NoError(t, first.conn.Close())
	require.Eventually(t, func() bool { return n.srv.hub().clientCount() == 0 }, wsWait, 10*time.Millisecond)
	n.dial(t)
}

func TestWSClientsGauge(t *testing.T) {
	reg := prometheus.NewRegistry()
	n := newWSNode(t, "testblocks", func(c *Config) { c.Registerer = reg })
	gauge := func() float64 {
		mfs, err := reg.Gather()
		if err != nil {
			return -1
		}
		for _, mf := range mfs {
			if mf.GetName() == "n3d_rpc_websocket_clients" {
				return mf.GetMetric()[0].GetGauge().GetValue()
			}
		}
		return -1
	}
	a := n.dial(t)
	a.call("getblockcount") // registered
	n.dial(t).call("getblockcount")
	require.Equal(t, 2.0, gauge())
	require.NoError(t, a.conn.Close())
	require.Eventually(t, func() bool { return gauge() == 1 }, wsWait, 10*time.Millisecond)
}

func TestWSShutdown(t *testing.T) {
	n := newWSNode(t, "testblocks", func(c *Config) { c.Addresses = []string{"127.0.0.1:0"} })
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	wait, err := n.srv.Start(ctx)
	require.NoError(t, err)
	url := "ws://" + n.srv.Addrs()[0].String() + "/ws"
	var clients []*websocket.Conn
	for range 3 {
		conn, resp, err := websocket.DefaultDialer.Dial(url, nil)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		t.Cleanup(func() { _ = conn.Close() })
		require.NoError(t, conn.WriteMessage(websocket.TextMessage,
			[]byte(`{"jsonrpc":"2.0","id":1,"method":"subscribe","params":["block_added"]}`)))
		clients = append(clients, conn)
	}
	for _, conn := range clients {
		_, data, err := conn.ReadMessage()
		require.NoError(t, err)
		require.JSONEq(t, `{"id":1,"jsonrpc":"2.0","result":"0"}`, string(data))
	}
	n.addBlocks(t, 1, 2)
	cancel()
	require.NoError(t, wait())
	for _, conn := range clients {
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(wsWait)))
		var err error
		for err == nil { // the queued blocks may come first
			_, _, err = conn.ReadMessage()
		}
		require.True(t, websocket.IsCloseError(err, websocket.CloseGoingAway), "%v", err)
	}
	// Polled here: testify's Eventually runs its condition in a goroutine.
	for deadline := time.Now().Add(wsWait); runtime.NumGoroutine() > before; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("goroutines before: %d, now %d:\n%s", before, runtime.NumGoroutine(), stacks())
		}
	}
	// A closed hub refuses clients.
	_, resp, err := websocket.DefaultDialer.Dial(n.url(), nil)
	require.ErrorIs(t, err, websocket.ErrBadHandshake)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Contains(t, string(body), "server is shutting down")
}

// stacks lists the running goroutines.
func stacks() string {
	b := make([]byte, 1<<20)
	return string(b[:runtime.Stack(b, true)])
}

func TestWSPingPong(t *testing.T) {
	n := newWSNode(t, "testblocks", nil)
	h := n.srv.hub()
	h.opts.pingPeriod, h.opts.pongLimit = 50*time.Millisecond, time.Second // before any client

	// A client that answers pings outlives many pong limits... (pings are
	// answered by the default handler while reading)
	c := n.dial(t)
	var pings atomic.Int32
	c.conn.SetPingHandler(func(data string) error {
		if pings.Add(1) == 30 { // 1.5 s of pings: past the pong limit
			c.send(`{"jsonrpc":"2.0","id":1,"method":"getblockcount"}`)
		}
		return c.conn.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(wsWait))
	})
	m := c.read()
	require.JSONEq(t, "1", string(m.Result))

	// ...one that does not is disconnected.
	silent := n.dial(t)
	silent.conn.SetPingHandler(func(string) error { return nil })
	require.NoError(t, silent.conn.SetReadDeadline(time.Now().Add(wsWait)))
	_, _, err := silent.conn.ReadMessage()
	require.Error(t, err)
	var ne interface{ Timeout() bool }
	require.False(t, errors.As(err, &ne) && ne.Timeout(), "the server did not close: %v", err)
}

// TestWSOverflow checks neo-go's overflow rule on a client's queue: once
// full, events are dropped until the writer has room again; then
// event_missed is queued behind the events already there.
func TestWSOverflow(t *testing.T) {
	n := newWSNode(t, "testblocks", nil)
	h := n.srv.hub()
	c := &wsClient{queue: make(chan *websocket.PreparedMessage, 3), feeds: []feed{{event: eventBlock}}}
	msgs := make([]*websocket.PreparedMessage, 5)
	for i := range msgs {
		var err error
		msgs[i], err = websocket.NewPreparedMessage(websocket.TextMessage, []byte{byte('0' + i)})
		require.NoError(t, err)
	}
	c.send(msgs[0])
	c.send(msgs[1])
	c.send(msgs[2])
	c.send(msgs[3]) // full: dropped
	require.True(t, c.overflown.Load())
	require.Same(t, msgs[0], <-c.queue)
	c.send(msgs[4]) // dropped while overflown, though there is room
	h.catchUp(c)    // the writer took one: event_missed goes behind msgs[2]
	require.False(t, c.overflown.Load())
	require.Same(t, msgs[1], <-c.queue)
	h.catchUp(c)
	c.send(msgs[4])
	for _, want := range []*websocket.PreparedMessage{msgs[2], h.missed, msgs[4]} {
		require.Same(t, want, <-c.queue)
		h.catchUp(c)
	}
	require.Empty(t, c.queue)

	// publish skips an overflown client and matches the others' feeds.
	d := &dispatcher{h: h}
	h.mu.Lock()
	h.mu.clients[c] = struct{}{}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.mu.clients, c)
		h.mu.Unlock()
	}()
	d.publish(&subEvent{id: eventHeader, block: n.blocks[0]})
	require.Empty(t, c.queue, "no header feed")
	d.publish(&subEvent{id: eventBlock, block: n.blocks[0]})
	require.Len(t, c.queue, 1)
	c.overflown.Store(true)
	d.publish(&subEvent{id: eventBlock, block: n.blocks[1]})
	require.Len(t, c.queue, 1)
}

func TestWSMempoolEvents(t *testing.T) {
	n := newWSNode(t, "testblocks", nil)
	ref := referenceEvents(t, n.dir)
	txJSON := map[string]map[string]any{}
	for _, e := range ref.all() {
		if e.method == "transaction_added" {
			txJSON[e.payload["hash"].(string)] = e.payload
		}
	}
	tx1, tx2 := n.blocks[0].Transactions[0], n.blocks[1].Transactions[0]
	require.NotEqual(t, tx1.Sender(), tx2.Sender())
	all := n.dial(t)
	all.subscribe("mempool_event")
	filtered := n.dial(t)
	filtered.subscribe("mempool_event", map[string]any{"sender": tx2.Sender().StringBE(), "type": "added"})
	removed := n.dial(t)
	removed.subscribe("mempool_event", map[string]any{"type": "removed"})

	require.NoError(t, n.pool.Add(tx1, 0))
	require.NoError(t, n.pool.Add(tx2, 0))
	require.True(t, n.pool.Remove(tx1.Hash()))

	ev := func(typ string, h string) refEvent {
		require.Contains(t, txJSON, h)
		return refEvent{method: "mempool_event", payload: map[string]any{"type": typ, "transaction": txJSON[h]}}
	}
	h1, h2 := tx1.Hash().String(), tx2.Hash().String()
	got := all.nextN(3)
	requireEvents(t, []refEvent{ev("added", h1), ev("added", h2), ev("removed", h1)}, got)
	require.Equal(t, []string{"type", "transaction"}, keyOrder(t, got[0].Params[0]))
	requireEvents(t, []refEvent{ev("added", h2)}, filtered.nextN(1))
	requireEvents(t, []refEvent{ev("removed", h1)}, removed.nextN(1))
}

// TestWSChainSubscriptionDropped: when the chain drops the dispatcher's
// subscription (too far behind), the clients with chain feeds are told
// with event_missed and events flow again on a new subscription.
func TestWSChainSubscriptionDropped(t *testing.T) {
	n := newWSNode(t, "testblocks", nil)
	n.srv.hub().opts.chainPending = 1 // any block's events overflow it
	c := n.dial(t)
	c.subscribe("block_added")
	pool := n.dial(t)
	pool.subscribe("mempool_event")
	n.addBlocks(t, 1, 1)
	require.JSONEq(t, `{"jsonrpc":"2.0","method":"event_missed","params":[]}`, string(c.next().raw))
	require.NoError(t, n.pool.Add(n.blocks[0].Transactions[0], 0))
	require.Equal(t, "mempool_event", pool.next().Method, "no event_missed for mempool feeds")

	// The next subscription keeps up (the dispatcher reads this after the
	// unsubscribe below has synchronised with it).
	n.srv.hub().opts.chainPending = 0
	c.call("unsubscribe", "0")
	c.subscribe("block_added")
	n.addBlocks(t, 2, 2)
	m := c.next()
	require.Equal(t, "block_added", m.Method, string(m.raw))
}

// TestWSSlowClient: a client that stops reading (small TCP buffers on both
// sides) overflows its queue; it stays connected and, once it reads again,
// gets a subsequence of the chain's events in order where every gap
// (the end included) is marked by event_missed right after it.
func TestWSSlowClient(t *testing.T) {
	n := newWSNode(t, "chain50x2", nil)
	h := n.srv.hub()
	h.opts.queueSize = 16
	ref := referenceEvents(t, n.dir)
	d := websocket.Dialer{NetDialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err == nil {
			err = conn.(*net.TCPConn).SetReadBuffer(2048)
		}
		return conn, err
	}}
	conn, resp, err := d.Dial(n.url(), nil)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	t.Cleanup(func() { _ = conn.Close() })
	slow := &wsClientConn{t: t, conn: conn}
	for _, s := range chainStreams {
		slow.subscribe(s) // answered: the server has registered the client
	}
	var server *wsClient
	h.mu.RLock()
	for c := range h.mu.clients {
		server = c
	}
	h.mu.RUnlock()
	require.NoError(t, server.conn.NetConn().(*net.TCPConn).SetWriteBuffer(2048))
	last := len(n.blocks)
	fast := n.dial(t)
	fast.subscribe("block_added", map[string]any{"since": last})

	n.addBlocks(t, 1, last) // the slow client does not read meanwhile
	require.Equal(t, "block_added", fast.next().Method)
	require.True(t, h.sync(), "the dispatcher is past the last event")

	got := make(chan wsMessage, 1<<14)
	go func() {
		defer close(got)
		for {
			_, data, err := conn.ReadMessage()
			if err != nil {
				return
			}
			var m wsMessage
			if json.Unmarshal(data, &m) == nil {
				m.raw = data
				got <- m
			}
		}
	}()
	// Once the queue is empty (event_missed included) every event is on
	// its way, and an answer comes after them all.
	for deadline := time.Now().Add(wsWait); len(server.queue) > 0 || server.overflown.Load(); time.Sleep(5 * time.Millisecond) {
		require.False(t, time.Now().After(deadline), "the queue did not drain")
	}
	slow.send(`{"jsonrpc":"2.0","id":1,"method":"getblockcount"}`)

	want := ref.all()
	var missed, matched int
	next := 0            // the position in want after the last event received
	sinceMissed := false // an event_missed came after the last event
	for m := range got {
		if m.Method == "" { // the answer
			break
		}
		if m.Method == "event_missed" {
			missed++
			sinceMissed = true
			continue
		}
		p := decode(t, m.Params[0]).(map[string]any)
		i := next
		for ; i < len(want); i++ {
			if want[i].method == m.Method && reflect.DeepEqual(normalize(want[i].payload), normalize(p)) {
				break
			}
		}
		require.Less(t, i, len(want), "an event out of order or unknown: %s", m.raw)
		require.True(t, i == next || sinceMissed, "events %d..%d lost without event_missed right after", next, i-1)
		next, matched, sinceMissed = i+1, matched+1, false
	}
	require.True(t, next == len(want) || sinceMissed, "the last events lost without event_missed")
	require.Positive(t, missed, "the client overflowed")
	require.Less(t, matched, len(want))
	t.Logf("%d of %d events, %d event_missed", matched, len(want), missed)
}

// BenchmarkPublishBlock: one block_added event (a testblocks block with a
// contract deployment) to 64 clients: matched, encoded once, queued.
func BenchmarkPublishBlock(b *testing.B) {
	n := newWSNode(b, "testblocks", nil)
	h := n.srv.hub()
	d := &dispatcher{h: h}
	clients := make([]*wsClient, 64)
	h.mu.Lock()
	for i := range clients {
		clients[i] = &wsClient{queue: make(chan *websocket.PreparedMessage, 1), feeds: []feed{{event: eventBlock}}}
		h.mu.clients[clients[i]] = struct{}{}
	}
	h.mu.Unlock()
	b.Cleanup(func() { // before the hub's close, which would disconnect them
		h.mu.Lock()
		clear(h.mu.clients)
		h.mu.Unlock()
	})
	ev := &subEvent{id: eventBlock, block: n.blocks[1]}
	b.ReportAllocs()
	for b.Loop() {
		d.publish(ev)
		for _, c := range clients {
			<-c.queue
		}
	}
}
