package server

import (
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
)

// WebSocket timings and sizes (neo-go's).
const (
	// wsPongLimit is how long a client may stay silent (no pong) before it
	// is disconnected.
	wsPongLimit = 60 * time.Second
	// wsPingPeriod is the interval of the server's pings.
	wsPingPeriod = wsPongLimit / 2
	// wsWriteLimit bounds one write to a client.
	wsWriteLimit = wsPingPeriod / 2
	// wsQueueSize is the number of event messages queued per client; a
	// client further behind misses events and is told so (event_missed).
	wsQueueSize = 1024
	// wsCloseWait bounds the goodbye (close frame) on shutdown.
	wsCloseWait = time.Second
)

// wsOptions are a hub's limits; tests shorten the timings.
type wsOptions struct {
	maxClients int
	maxFeeds   int
	readLimit  int64
	queueSize  int
	pongLimit  time.Duration
	pingPeriod time.Duration
	writeLimit time.Duration
	// chainPending bounds the dispatcher's backlog of chain events
	// (chain.DefaultMaxPending when 0).
	chainPending int
}

func newWSOptions(rpc Config, maxBlockSize uint32) wsOptions {
	o := wsOptions{
		maxClients: rpc.MaxWebSocketClients, maxFeeds: rpc.MaxWebSocketFeeds,
		// Room for a base64 block of submitblock, as neo-go.
		readLimit: int64(maxBlockSize)*4/3 + 1024,
		queueSize: wsQueueSize, pongLimit: wsPongLimit, pingPeriod: wsPingPeriod, writeLimit: wsWriteLimit,
	}
	setIfZero(&o.maxClients, DefaultMaxWebSocketClients)
	setIfZero(&o.maxFeeds, DefaultMaxWebSocketFeeds)
	return o
}

// wsHub owns the WebSocket clients of a Server: per client a reader (the
// HTTP handler's goroutine) and a writer, and one dispatcher that turns
// chain and mempool events into messages for the clients whose feeds
// match (subscription_dispatch.go). close stops them all and waits; Run
// and Start call it when they stop (a Server used only as an http.Handler
// keeps its clients until they leave).
type wsHub struct {
	srv      *Server
	log      *zap.Logger
	opts     wsOptions
	upgrader websocket.Upgrader
	missed   *websocket.PreparedMessage // event_missed
	done     chan struct{}              // closed by close
	reconf   chan chan struct{}         // feed counts changed; ack when applied
	wg       sync.WaitGroup             // readers, writers, dispatcher
	gauge    prometheus.Gauge           // connected clients

	mu struct {
		sync.RWMutex
		clients    map[*wsClient]struct{}
		closed     bool
		started    bool // the dispatcher runs
		chainFeeds int  // feeds of streams from the chain
		poolFeeds  int  // mempool_event feeds
	}
}

// wsClient is one connection. feeds is guarded by the hub's mu; the rest
// is set at creation.
type wsClient struct {
	conn       *websocket.Conn
	remote     string
	queue      chan *websocket.PreparedMessage // events, to the writer
	resps      chan []byte                     // answers, to the writer
	overflown  atomic.Bool                     // events dropped, event_missed pending
	readerDone chan struct{}
	writerDone chan struct{}
	feeds      []feed
}

// wsHubRef is the Server's hub, made on first use.
type wsHubRef struct {
	once sync.Once
	h    *wsHub
}

// hub returns the server's WebSocket hub.
func (s *Server) hub() *wsHub {
	s.ws.once.Do(func() { s.ws.h = newWSHub(s) })
	return s.ws.h
}

// missedMessage is the event_missed notification.
var missedMessage = mustPrepare(result.Notification{JSONRPC: params.Version, Method: eventMissed.String(), Params: []any{}})

// mustPrepare encodes a fixed message (a failure is a programming error).
func mustPrepare(v any) *websocket.PreparedMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	m, err := websocket.NewPreparedMessage(websocket.TextMessage, b)
	if err != nil {
		panic(err)
	}
	return m
}

func newWSHub(s *Server) *wsHub {
	h := &wsHub{srv: s, log: s.log, done: make(chan struct{}), reconf: make(chan chan struct{}),
		opts: newWSOptions(s.cfg, s.chain.Config().MaxBlockSize), missed: missedMessage}
	if s.cfg.EnableCORSWorkaround {
		h.upgrader.CheckOrigin = func(*http.Request) bool { return true }
	}
	h.mu.clients = make(map[*wsClient]struct{})
	m := promutil.NewSet(s.cfg.Registerer, "rpc")
	h.gauge = m.Gauge("websocket_clients", "Connected WebSocket clients.")
	if err := m.Err(); err != nil {
		h.log.Warn("websocket clients gauge not registered", zap.Error(err))
	}
	return h
}

// serve upgrades a GET /ws request and runs the client's reader until the
// connection ends. Over the client limit it answers with the reference's
// JSON-RPC error instead.
func (h *wsHub) serve(w http.ResponseWriter, r *http.Request) {
	if reason := h.refusal(); reason != "" {
		h.srv.write(w, errorResponse(result.NewInternalError(reason)))
		return
	}
	conn, err := h.upgrader.Upgrade(w, r, nil)
	if err != nil { // Upgrade has answered with an HTTP error
		h.log.Debug("websocket upgrade failed", zap.Error(err))
		return
	}
	c := &wsClient{conn: conn, remote: r.RemoteAddr, queue: make(chan *websocket.PreparedMessage, h.opts.queueSize),
		resps: make(chan []byte), readerDone: make(chan struct{}), writerDone: make(chan struct{}),
		feeds: make([]feed, h.opts.maxFeeds)}
	if reason := h.add(c); reason != "" {
		goodbye(conn, websocket.CloseTryAgainLater, reason)
		return
	}
	go func() {
		defer h.wg.Done()
		h.writeLoop(c)
	}()
	defer h.wg.Done()
	h.readLoop(c)
}

// refusal says why a new client cannot be taken ("" when it can).
func (h *wsHub) refusal() string {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.refusalLocked()
}

// refusalLocked is refusal (REQUIRES: mu).
func (h *wsHub) refusalLocked() string {
	switch {
	case h.mu.closed:
		return "server is shutting down"
	case len(h.mu.clients) >= h.opts.maxClients:
		return "websocket users limit reached"
	}
	return ""
}

// add registers c and counts its reader and writer in wg (starting the
// dispatcher with the first client); it returns why c is refused (when
// clients raced past refusal).
func (h *wsHub) add(c *wsClient) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if reason := h.refusalLocked(); reason != "" {
		return reason
	}
	h.mu.clients[c] = struct{}{}
	h.gauge.Set(float64(len(h.mu.clients)))
	h.wg.Add(2)
	if !h.mu.started {
		h.mu.started = true
		h.wg.Go(h.dispatch)
	}
	h.log.Info("websocket client connected", zap.String("remote", c.remote), zap.Int("clients", len(h.mu.clients)))
	return ""
}

// remove forgets c and its feeds.
func (h *wsHub) remove(c *wsClient) {
	h.mu.Lock()
	delete(h.mu.clients, c)
	for i := range c.feeds {
		h.countLocked(c.feeds[i].event, -1)
		c.feeds[i] = feed{}
	}
	n := len(h.mu.clients)
	h.gauge.Set(float64(n))
	h.mu.Unlock()
	h.sync()
	h.log.Info("websocket client disconnected", zap.String("remote", c.remote), zap.Int("clients", n))
}

// countLocked adds d to the feed count of stream id (REQUIRES: mu).
func (h *wsHub) countLocked(id eventID, d int) {
	switch {
	case id.fromChain():
		h.mu.chainFeeds += d
	case id == eventMempool:
		h.mu.poolFeeds += d
	}
}

// addFeed puts f in a free slot of c and returns the slot.
func (h *wsHub) addFeed(c *wsClient, f feed) (int, *result.Error) {
	h.mu.Lock()
	slot := -1
	for i := range c.feeds {
		if c.feeds[i].event == eventNone {
			slot = i
			break
		}
	}
	if slot < 0 {
		h.mu.Unlock()
		return 0, result.NewInternalError("maximum number of subscriptions is reached")
	}
	c.feeds[slot] = f
	h.countLocked(f.event, 1)
	h.mu.Unlock()
	if !h.sync() {
		return 0, result.NewInternalError("server is shutting down")
	}
	return slot, nil
}

// dropFeed frees slot id of c; false when it holds no feed.
func (h *wsHub) dropFeed(c *wsClient, id int64) bool {
	h.mu.Lock()
	if id < 0 || id >= int64(len(c.feeds)) || c.feeds[id].event == eventNone {
		h.mu.Unlock()
		return false
	}
	h.countLocked(c.feeds[id].event, -1)
	c.feeds[id] = feed{}
	h.mu.Unlock()
	h.sync()
	return true
}

// sync has the dispatcher apply the feed counts (subscribing to or leaving
// the chain and the mempool) and waits for it; false after close.
func (h *wsHub) sync() bool {
	ack := make(chan struct{})
	select {
	case h.reconf <- ack:
	case <-h.done:
		return false
	}
	select {
	case <-ack:
		return true
	case <-h.done:
		return false
	}
}

// close disconnects every client, stops the dispatcher and waits for all
// the hub's goroutines. Later connections are refused.
func (h *wsHub) close() {
	h.mu.Lock()
	if !h.mu.closed {
		h.mu.closed = true
		close(h.done)
		for c := range h.mu.clients {
			// Cut short a write stuck on a client that does not read.
			_ = c.conn.NetConn().SetWriteDeadline(time.Now().Add(wsCloseWait)) // best effort
		}
	}
	h.mu.Unlock()
	h.wg.Wait()
}

// readLoop reads the client's requests and hands the answers to the
// writer until the connection fails or the writer stops.
func (h *wsHub) readLoop(c *wsClient) {
	defer func() {
		close(c.readerDone)
		_ = c.conn.Close() // unblocks the writer; errors are moot now
		h.remove(c)
	}()
	c.conn.SetReadLimit(h.opts.readLimit)
	if err := c.conn.SetReadDeadline(time.Now().Add(h.opts.pongLimit)); err != nil {
		return
	}
	c.conn.SetPongHandler(func(string) error {
		return c.conn.SetReadDeadline(time.Now().Add(h.opts.pongLimit))
	})
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			h.log.Debug("websocket read", zap.String("remote", c.remote), zap.Error(err))
			return
		}
		out, err := json.Marshal(h.srv.handleWSMessage(data, c))
		if err != nil { // responses hold raw JSON already; cannot happen
			h.log.Error("encoding websocket response", zap.Error(err))
			return
		}
		out = append(out, '\n') // as neo-go's json.Encoder
		select {
		case c.resps <- out:
		case <-c.writerDone:
			return
		}
	}
}

// handleWSMessage answers one message: a request or a batch; a message
// that is no request gets a parse error and the connection stays open.
func (s *Server) handleWSMessage(data []byte, c *wsClient) any {
	req, err := params.Decode(data, s.cfg.MaxBatchSize)
	if err != nil {
		return errorResponse(result.NewParseError(err.Error()))
	}
	if req.In != nil {
		return s.handleWS(req.In, c)
	}
	out := make([]response, len(req.Batch))
	for i := range req.Batch {
		out[i] = s.handleWS(&req.Batch[i], c)
	}
	return out
}

// writeLoop writes answers, events and pings until the connection fails,
// the reader stops or the hub closes.
func (h *wsHub) writeLoop(c *wsClient) {
	ping := time.NewTicker(h.opts.pingPeriod)
	defer func() {
		ping.Stop()
		close(c.writerDone)
		_ = c.conn.Close() // unblocks the reader; errors are moot now
	}()
	for {
		var err error
		select {
		case <-h.done:
			goodbye(c.conn, websocket.CloseGoingAway, "server is shutting down")
			return
		case <-c.readerDone:
			return
		case msg := <-c.queue:
			h.catchUp(c)
			if err = c.conn.SetWriteDeadline(time.Now().Add(h.opts.writeLimit)); err == nil {
				err = c.conn.WritePreparedMessage(msg)
			}
		case b := <-c.resps:
			if err = c.conn.SetWriteDeadline(time.Now().Add(h.opts.writeLimit)); err == nil {
				err = c.conn.WriteMessage(websocket.TextMessage, b)
			}
		case <-ping.C:
			if err = c.conn.SetWriteDeadline(time.Now().Add(h.opts.writeLimit)); err == nil {
				err = c.conn.WriteMessage(websocket.PingMessage, nil)
			}
		}
		if err != nil {
			h.log.Debug("websocket write", zap.String("remote", c.remote), zap.Error(err))
			return
		}
	}
}

// catchUp queues event_missed behind the events already queued once a
// client that overflowed has room again (the writer just took one). The
// dispatcher does not queue for an overflown client, so the slot is free
// unless it filled it just before overflowing; then the next turn does it.
func (h *wsHub) catchUp(c *wsClient) {
	if !c.overflown.Load() {
		return
	}
	select {
	case c.queue <- h.missed:
		c.overflown.Store(false)
	default:
	}
}

// send queues an event message without blocking; a full queue drops it
// and the events after it until the writer has queued event_missed.
func (c *wsClient) send(msg *websocket.PreparedMessage) {
	if c.overflown.Load() {
		return
	}
	select {
	case c.queue <- msg:
	default:
		c.overflown.Store(true)
	}
}

// goodbye sends a close frame (best effort: the connection is closed
// right after) and closes the connection.
func goodbye(conn *websocket.Conn, code int, reason string) {
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason), time.Now().Add(wsCloseWait))
	_ = conn.Close()
}
