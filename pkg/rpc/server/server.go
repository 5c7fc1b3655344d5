package server

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/buildinfo"
	"github.com/n3d-io/n3d/pkg/config/netconfig"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/params"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

// Defaults of the settings left zero (neo-go's).
const (
	// DefaultShutdownTimeout bounds the wait for running requests on
	// shutdown.
	DefaultShutdownTimeout = 5 * time.Second
	// DefaultMaxGasInvoke is the GAS limit of test invocations when the
	// configuration sets none (the C# RpcServer's default, in Fixed8).
	DefaultMaxGasInvoke = netconfig.GAS(10_00000000)
	// DefaultReadHeaderTimeout bounds the time to read request headers.
	DefaultReadHeaderTimeout = 10 * time.Second

	DefaultMaxIteratorResultItems    = 100
	DefaultMaxFindResultItems        = 100
	DefaultMaxFindStorageResultItems = 50
	DefaultMaxNEP11Tokens            = 100
	DefaultMaxRequestBodyBytes       = 1 << 20
	DefaultMaxRequestHeaderBytes     = http.DefaultMaxHeaderBytes
	DefaultMaxWebSocketClients       = 64
	DefaultMaxWebSocketFeeds         = 16
	DefaultSessionPoolSize           = 20
)

// ErrConfig is a server configuration that cannot work.
var ErrConfig = errors.New("rpc: bad configuration")

// Config configures a Server (pkg/node builds it from the RPC and Ledger
// sections of the application configuration, whose keys the names
// follow). Zero limits get neo-go's defaults.
type Config struct {
	// Addresses are the plain HTTP listening addresses (host:port).
	Addresses []string
	// TLS configures the HTTPS listeners (off unless Enabled).
	TLS TLSConfig
	// EnableCORSWorkaround answers OPTIONS and sets permissive CORS
	// headers.
	EnableCORSWorkaround bool
	// MaxGasInvoke is the GAS limit of test invocations.
	MaxGasInvoke netconfig.GAS
	// Result limits: iterator items in a stack, findstates items,
	// findstorage page, NEP-11 tokens per account.
	MaxIteratorResultItems    int
	MaxFindResultItems        int
	MaxFindStorageResultItems int
	MaxNEP11Tokens            int
	// Request limits.
	MaxRequestBodyBytes   int
	MaxRequestHeaderBytes int
	// WebSocket limits, and whether mempool events may be subscribed to.
	MaxWebSocketClients         int
	MaxWebSocketFeeds           int
	MempoolSubscriptionsEnabled bool
	// Iterator sessions (SessionLifetime 0: the block time, at least 5 s).
	SessionEnabled          bool
	SessionExpansionEnabled bool
	SessionLifetime         time.Duration
	SessionPoolSize         int
	// KeepOnlyLatestState and RemoveUntraceableBlocks are the node's
	// state-keeping settings: the first refuses requests for old states,
	// both are reported by getversion.
	KeepOnlyLatestState     bool
	RemoveUntraceableBlocks bool
	// MaxBatchSize bounds a batch (params.DefaultMaxBatchSize when 0).
	MaxBatchSize int
	// TCPPort, Nonce and UserAgent are what getversion reports of the P2P
	// node (Nonce random and UserAgent buildinfo.UserAgent() when zero).
	TCPPort   uint16
	Nonce     uint32
	UserAgent string
	// Log receives request errors (zap.NewNop when nil).
	Log *zap.Logger
	// Registerer, when set, receives the request metrics.
	Registerer prometheus.Registerer
	// ShutdownTimeout bounds the wait for running requests when Run's
	// context ends (DefaultShutdownTimeout when 0).
	ShutdownTimeout time.Duration

	// The node's write side and its view of the network, wired by cmd;
	// each is optional.

	// SubmitTx hands a transaction of sendrawtransaction to the ingress
	// pipeline and waits for its verdict (txpipe.Pipeline.SubmitWait): nil
	// once pooled, else an error matched with errors.Is against the chain's
	// and the mempool's sentinels. Nil: sendrawtransaction fails.
	SubmitTx func(ctx context.Context, tx *transaction.Transaction) error
	// SubmitTimeout bounds the wait for SubmitTx (DefaultSubmitTimeout
	// when 0; the requests of one second share a deadline, so a wait may
	// last up to a second more).
	SubmitTimeout time.Duration
	// SubmitBlock adds a block of submitblock to the chain (chain.AddBlock;
	// the node relays the blocks its chain adds). Nil: submitblock fails.
	SubmitBlock func(b *block.Block) error
	// Mempool lists the pooled transactions for getrawmempool (nil: an
	// empty pool).
	Mempool Mempool
	// Peers reports the P2P server's peers for getconnectioncount and
	// getpeers (nil: no peers).
	Peers Peers
	// ChainEvents and PoolEvents feed the WebSocket subscriptions (ws.go;
	// nil: no chain or no mempool events).
	ChainEvents ChainEvents
	PoolEvents  PoolEvents
	// Oracle receives submitoracleresponse's signatures (oracle.go; nil:
	// the method answers that the oracle service is not running).
	Oracle OracleHandler
	// Notary is the P2P notary request pool of the notary methods
	// (notary.go; nil: P2PSigExtensions are off, they answer so).
	Notary NotaryHandler
}

// TLSConfig configures the HTTPS listeners.
type TLSConfig struct {
	Enabled   bool
	Addresses []string
	CertFile  string
	KeyFile   string
}

// Peers is the P2P server as getconnectioncount and getpeers read it.
type Peers interface {
	// ConnectionCount is the number of open peer connections.
	ConnectionCount() int
	// PeerList lists the connected (handshaked), unconnected (known) and
	// bad (ruled out) peers.
	PeerList() result.Peers
}

// DefaultSubmitTimeout bounds the wait for a transaction's verdict.
const DefaultSubmitTimeout = 30 * time.Second

// Mempool is the memory pool as getrawmempool and getrawtransaction read
// it (*mempool.Pool).
type Mempool interface {
	// GetVerifiedTransactions lists the pooled transactions, highest
	// priority first.
	GetVerifiedTransactions() []*transaction.Transaction
	// TryGet returns the pooled transaction with hash h.
	TryGet(h util.Uint256) (*transaction.Transaction, bool)
}

func (c *Config) applyDefaults() error {
	r := c
	setIfZero(&r.MaxIteratorResultItems, DefaultMaxIteratorResultItems)
	setIfZero(&r.MaxFindResultItems, DefaultMaxFindResultItems)
	setIfZero(&r.MaxFindStorageResultItems, DefaultMaxFindStorageResultItems)
	setIfZero(&r.MaxNEP11Tokens, DefaultMaxNEP11Tokens)
	setIfZero(&r.MaxRequestBodyBytes, DefaultMaxRequestBodyBytes)
	setIfZero(&r.MaxRequestHeaderBytes, DefaultMaxRequestHeaderBytes)
	setIfZero(&r.MaxGasInvoke, DefaultMaxGasInvoke)
	setIfZero(&c.MaxBatchSize, params.DefaultMaxBatchSize)
	setIfZero(&c.ShutdownTimeout, DefaultShutdownTimeout)
	setIfZero(&c.SubmitTimeout, DefaultSubmitTimeout)
	if c.UserAgent == "" {
		c.UserAgent = buildinfo.UserAgent()
	}
	if c.Nonce == 0 {
		var b [4]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("rpc: nonce: %w", err)
		}
		c.Nonce = binary.LittleEndian.Uint32(b[:])
	}
	if c.Log == nil {
		c.Log = zap.NewNop()
	}
	if r.MaxGasInvoke < 0 || r.MaxRequestBodyBytes < 0 || c.MaxBatchSize < 0 {
		return fmt.Errorf("%w: negative limit", ErrConfig)
	}
	return nil
}

func setIfZero[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}

// Server is the JSON-RPC 2.0 server over HTTP. ServeHTTP may be used on
// its own (tests, another mux); Run listens on the configured addresses.
type Server struct {
	cfg     Config
	chain   Ledger
	log     *zap.Logger
	metrics *metrics
	tokens  *tokenTracker
	// sessions holds the iterator sessions (sessions.go).
	sessions *sessionPool

	addrsMu sync.Mutex
	addrs   []net.Addr // bound by Run or Start

	// submitDeadline gives SubmitTx its contexts (deadline.go).
	submitDeadline sharedDeadline

	ws wsHubRef // the /ws clients (ws.go)

	// headerTimeout is the http.Server's and the front's ReadHeaderTimeout
	// (DefaultReadHeaderTimeout; tests shorten it).
	headerTimeout time.Duration
	front         atomic.Pointer[front] // the running serve's (front.go)
}

// New returns a server over the chain.
func New(cfg Config, l Ledger) (*Server, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: no ledger", ErrConfig)
	}
	if err := cfg.applyDefaults(); err != nil {
		return nil, err
	}
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	return &Server{cfg: cfg, chain: l, log: cfg.Log, metrics: m,
		tokens:         &tokenTracker{accounts: map[util.Uint160]*account{}},
		sessions:       newSessionPool(cfg, l.Config().TimePerBlock),
		submitDeadline: sharedDeadline{timeout: cfg.SubmitTimeout},
		headerTimeout:  DefaultReadHeaderTimeout}, nil
}

// Run serves the RPC addresses (and the TLS ones when enabled) until ctx
// ends, then shuts the listeners down, waiting at most ShutdownTimeout
// for running requests. It returns the first serving error, nil after a
// clean shutdown.
func (s *Server) Run(ctx context.Context) error {
	lns, err := s.listen()
	if err != nil {
		return err
	}
	return s.serve(ctx, lns)
}

// Start listens on the configured addresses at once (a bind error is
// returned here) and serves in the background until ctx ends; wait
// returns what Run would.
func (s *Server) Start(ctx context.Context) (wait func() error, err error) {
	lns, err := s.listen()
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- s.serve(ctx, lns) }()
	return func() error { return <-done }, nil
}

type listener struct {
	net.Listener
	tls bool
}

// Addrs returns the addresses the server listens on (after Start, or once
// Run has bound them), TLS ones last.
func (s *Server) Addrs() []net.Addr {
	s.addrsMu.Lock()
	defer s.addrsMu.Unlock()
	return append([]net.Addr(nil), s.addrs...)
}

func (s *Server) listen() ([]listener, error) {
	var out []listener
	closeAll := func() {
		for _, l := range out {
			_ = l.Close() // best effort on the error path
		}
	}
	add := func(addrs []string, tls bool) error {
		for _, a := range addrs {
			l, err := net.Listen("tcp", a)
			if err != nil {
				return fmt.Errorf("rpc: listen %s: %w", a, err)
			}
			out = append(out, listener{l, tls})
		}
		return nil
	}
	if err := add(s.cfg.Addresses, false); err != nil {
		closeAll()
		return nil, err
	}
	if t := s.cfg.TLS; t.Enabled {
		if err := add(t.Addresses, true); err != nil {
			closeAll()
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no addresses to listen on", ErrConfig)
	}
	s.addrsMu.Lock()
	s.addrs = s.addrs[:0]
	for _, l := range out {
		s.addrs = append(s.addrs, l.Addr())
	}
	s.addrsMu.Unlock()
	return out, nil
}

func (s *Server) serve(ctx context.Context, lns []listener) error {
	srv := &http.Server{
		Handler:           s,
		MaxHeaderBytes:    s.cfg.MaxRequestHeaderBytes,
		ReadHeaderTimeout: s.headerTimeout,
		ErrorLog:          zap.NewStdLog(s.log),
	}
	// The plain listeners' common requests skip net/http (front.go).
	front := newFront(s, s.headerTimeout)
	s.front.Store(front)
	hub := s.hub() // the /ws clients (and their metric, from the start)
	errc := make(chan error, len(lns))
	var wg sync.WaitGroup
	for _, l := range lns {
		s.log.Info("RPC server listening", zap.Stringer("address", l.Addr()), zap.Bool("tls", l.tls))
		var plain net.Listener
		if !l.tls {
			plain = front.listener(l)
		}
		wg.Go(func() {
			var err error
			if l.tls {
				err = srv.ServeTLS(l, s.cfg.TLS.CertFile, s.cfg.TLS.KeyFile)
			} else {
				err = srv.Serve(plain)
			}
			if !errors.Is(err, http.ErrServerClosed) {
				errc <- fmt.Errorf("rpc: serve %s: %w", l.Addr(), err)
			}
		})
	}
	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-errc:
	}
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	front.closeIdle()
	if err := srv.Shutdown(sctx); err != nil {
		runErr = errors.Join(runErr, fmt.Errorf("rpc: shutdown: %w", err), srv.Close())
	}
	if err := front.shutdown(sctx); err != nil {
		runErr = errors.Join(runErr, err)
	}
	hub.close() // hijacked connections are not the http.Server's
	wg.Wait()
	s.releaseSessions()
	s.log.Info("RPC server stopped")
	return runErr
}

// response is one JSON-RPC 2.0 response (neo-go's field order).
type response struct {
	ID      json.RawMessage `json:"id"`
	JSONRPC string          `json:"jsonrpc"`
	Error   *result.Error   `json:"error,omitzero"`
	Result  json.RawMessage `json:"result,omitzero"`
	// afterDst: Result is handle's dst with the result appended (a
	// jsonAppender's), not the result alone.
	afterDst bool
}

// ServeHTTP implements http.Handler: POST bodies are JSON-RPC requests.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/ws" && r.Method == http.MethodGet {
		s.hub().serve(w, r)
		return
	}
	if r.Method == http.MethodOptions && s.cfg.EnableCORSWorkaround {
		setCORS(w.Header())
		w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
		w.Header().Set("Access-Control-Max-Age", "21600")
		return
	}
	if r.Method != http.MethodPost {
		s.write(w, errorResponse(result.NewInvalidParamsError(
			fmt.Sprintf("invalid method '%s', please retry with 'POST'", r.Method))))
		return
	}
	buf := getBuffers()
	defer buf.put()
	body, err := buf.readBody(w, r, s.cfg.MaxRequestBodyBytes)
	if err != nil {
		s.write(w, errorResponse(result.NewParseError(err.Error())))
		return
	}
	s.setHeaders(w)
	if _, err := w.Write(s.answer(body, buf)); err != nil {
		s.log.Warn("writing RPC response", zap.Error(err))
	}
}

func errorResponse(e *result.Error) response {
	return response{JSONRPC: params.Version, Error: e}
}

func setCORS(h http.Header) {
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("Access-Control-Allow-Headers", corsAllowHeaders)
}

const corsAllowHeaders = "Content-Type, Access-Control-Allow-Headers, Authorization, X-Requested-With"

func (s *Server) write(w http.ResponseWriter, v any) {
	s.setHeaders(w)
	if err := json.NewEncoder(w).Encode(v); err != nil {
		s.log.Warn("writing RPC response", zap.Error(err))
	}
}

// jsonContentType is the Content-Type of every answer, one shared slice
// (http.Header.Set would allocate it for every request; net/http only
// reads it).
var jsonContentType = []string{"application/json; charset=utf-8"}

func (s *Server) setHeaders(w http.ResponseWriter) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	if s.cfg.EnableCORSWorkaround {
		setCORS(h)
	}
}

// handle runs one request and packs its answer. A result that writes its
// own JSON (jsonAppender) is appended to dst, which may be nil: Result is
// then dst and the result (afterDst).
func (s *Server) handle(in *params.In, dst []byte) response {
	resp := response{ID: in.ID, JSONRPC: in.JSONRPC}
	if in.JSONRPC != params.Version {
		resp.Error = result.NewInvalidParamsError(fmt.Sprintf("problem parsing JSON: invalid version, expected 2.0 got '%s'", in.JSONRPC))
		s.logError(in, resp.Error)
		return resp
	}
	start := time.Now()
	h, ok := handlers[in.Method]
	if !ok {
		resp.Error = result.NewMethodNotFoundError(fmt.Sprintf("method %q not supported", escapeForLog(in.Method)))
		s.metrics.observe("unknown", start, resp.Error)
		s.logError(in, resp.Error)
		return resp
	}
	res, rerr := h(s, in.Params)
	if a, ok := res.(jsonAppender); ok && rerr == nil {
		resp.Result, resp.afterDst = a.appendJSON(dst), true
	} else if rerr == nil {
		b, err := json.Marshal(res)
		if err != nil {
			rerr = result.NewInternalError(fmt.Sprintf("response can't be JSONized: %s", err))
		} else {
			resp.Result = b
		}
	}
	resp.Error = rerr
	s.metrics.observe(in.Method, start, rerr)
	if rerr != nil {
		s.logError(in, rerr)
	}
	return resp
}

func (s *Server) logError(in *params.In, e *result.Error) {
	fields := []zap.Field{zap.Int64("code", e.Code), zap.String("method", escapeForLog(in.Method))}
	if e.Data != "" {
		fields = append(fields, zap.String("cause", e.Data))
	}
	if e.Code == result.InternalErrorCode {
		s.log.Error("RPC request failed", fields...)
		return
	}
	s.log.Debug("RPC request failed", fields...)
}

// escapeForLog keeps a client-supplied name printable and short.
func escapeForLog(s string) string {
	if len(s) > 64 {
		s = s[:64] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}
