package network

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/network/capability"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// Server is the P2P node: it listens, dials seeds and discovered peers,
// handshakes, keeps the chain in sync with its peers, answers their
// requests and relays blocks, transactions and extensible payloads. Build
// it with New and run it with Run.
type Server struct {
	cfg   Config
	log   *zap.Logger
	nonce uint32

	book    *addrBook
	sync    *syncer
	ext     *extCache
	seen    *inflight
	pending *txAges // pooled transactions by age, for re-announcement
	metrics *metrics
	own     ownAddrs
	dials   dialStats
	watcher watcher // the loop goroutine's

	ready   chan struct{}
	running atomic.Bool
	peerIDs atomic.Uint64 // the last peer id given out
	kick    chan struct{} // wakes the sync loop
	txRelay chan util.Uint256
	clock   clock.Clock
	// stop is closed when Run begins its shutdown: relays and dials stop.
	stop chan struct{}
	wg   sync.WaitGroup // every goroutine the server started

	mu struct {
		sync.Mutex
		peers     map[*peer]struct{}
		nonces    map[uint32]*peer // peers by version nonce
		listeners []net.Listener
		ports     []uint16 // announced port per listener
		stopping  bool
		lastAddrH uint32 // height at the last getaddr round
		// handshaked counts the peers in peers that finished the
		// handshake (MaxPeers bounds it).
		handshaked int
	}

	rejected *rejectCache // extensibles OnExtensible refused

	counters *counters // traffic by command (counters.go)
}

// New validates cfg, applies defaults and returns a server ready to Run.
func New(cfg Config) (*Server, error) {
	cfg.applyDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, log: cfg.Log, nonce: cfg.Nonce, clock: cfg.Clock,
		ready:   make(chan struct{}),
		kick:    make(chan struct{}, 1),
		txRelay: make(chan util.Uint256, 4096),
		stop:    make(chan struct{}),
	}
	for s.nonce == 0 {
		s.nonce = rand.Uint32()
	}
	var err error
	if s.metrics, err = newMetrics(cfg.Registerer); err != nil {
		return nil, err
	}
	if s.counters, err = newCounters(cfg.Registerer); err != nil {
		return nil, err
	}
	s.book = newAddrBook(&s.cfg, s.own.is)
	s.sync = newSyncer(s)
	s.ext = newExtCache(cfg.ExtensibleCache)
	s.rejected = newRejectCache()
	s.seen = newInflight()
	s.pending = newTxAges()
	s.mu.peers = make(map[*peer]struct{})
	s.mu.nonces = make(map[uint32]*peer)
	return s, nil
}

// Nonce is the identifier this node sends in its version.
func (s *Server) Nonce() uint32 { return s.nonce }

// Ready is closed once Run listens and has armed its periodic timers (a
// fake clock may be advanced from then on); it stays open when Run fails
// to bind a listen address (Run then returns the error).
func (s *Server) Ready() <-chan struct{} { return s.ready }

// Addrs returns the bound listen addresses (after Ready).
func (s *Server) Addrs() []net.Addr {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]net.Addr, len(s.mu.listeners))
	for i, l := range s.mu.listeners {
		out[i] = l.Addr()
	}
	return out
}

// Run serves until ctx is cancelled, then disconnects every peer, waits
// for all its goroutines and returns nil. It returns an error when a
// listen address cannot be bound.
func (s *Server) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return errors.New("network: Run called twice")
	}
	if err := s.listen(ctx); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Every periodic timer is armed before Ready: a test or simulator on
	// a fake clock may advance it as soon as Ready is closed.
	s.book.addSeeds(s.cfg.Seeds)
	lt := loopTimers{tick: s.clock.NewTicker(s.cfg.ProtoTickInterval),
		retry: s.clock.NewTicker(s.cfg.requestTimeout() / 4), disc: s.clock.NewTimer(0)}
	syncTick := s.clock.NewTicker(s.cfg.ProtoTickInterval)
	s.wg.Add(2)
	go func() { defer s.wg.Done(); s.txRelayLoop(ctx) }()
	go func() { defer s.wg.Done(); s.sync.run(ctx, syncTick) }()
	if s.cfg.Pool != nil {
		resendTick := s.clock.NewTicker(s.cfg.TimePerBlock)
		s.wg.Add(1)
		go func() { defer s.wg.Done(); s.txResendLoop(ctx, resendTick) }()
	}
	s.mu.Lock()
	for _, l := range s.mu.listeners {
		s.wg.Add(1)
		go func() { defer s.wg.Done(); s.acceptLoop(l) }()
	}
	s.mu.Unlock()
	close(s.ready)
	s.log.Info("P2P server started", zap.Uint32("nonce", s.nonce),
		zap.Stringers("listen", s.Addrs()), zap.Strings("seeds", s.cfg.Seeds))
	s.loop(ctx, lt)
	s.shutdown()
	return nil
}

// listen binds every configured address.
func (s *Server) listen(ctx context.Context) error {
	for _, a := range s.cfg.Listen {
		l, err := s.cfg.Transport.Listen(ctx, a.Address)
		if err != nil {
			s.closeListeners()
			return fmt.Errorf("network: listen %s: %w", a.Address, err)
		}
		bound, ok := addrPortOf(l.Addr())
		if !ok {
			s.closeListeners()
			_ = l.Close()
			return fmt.Errorf("network: listen %s: bound address %q is no IP:port", a.Address, l.Addr())
		}
		port := a.AnnouncedPort
		if port == 0 {
			port = bound.Port()
		}
		s.own.addListener(bound, port)
		s.mu.Lock()
		s.mu.listeners = append(s.mu.listeners, l)
		s.mu.ports = append(s.mu.ports, port)
		s.mu.Unlock()
	}
	return nil
}

func (s *Server) closeListeners() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.mu.listeners {
		if err := l.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
			s.log.Warn("closing listener", zap.Error(err))
		}
	}
}

// goAdd starts f in a goroutine owned by the server, unless the server
// is shutting down (false then). Goroutines started from other
// goroutines than Run's own go through it, so that no WaitGroup.Add can
// race with shutdown's Wait.
func (s *Server) goAdd(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.mu.stopping {
		return false
	}
	s.wg.Add(1)
	go func() { defer s.wg.Done(); f() }()
	return true
}

// shutdown stops accepting, disconnects every peer and waits for all
// goroutines.
func (s *Server) shutdown() {
	close(s.stop)
	s.closeListeners()
	s.mu.Lock()
	s.mu.stopping = true
	peers := make([]*peer, 0, len(s.mu.peers))
	for p := range s.mu.peers {
		peers = append(peers, p)
	}
	s.mu.Unlock()
	for _, p := range peers {
		p.disconnect(ErrShutdown)
	}
	s.wg.Wait()
	s.log.Info("P2P server stopped")
}

// acceptLoop accepts inbound connections until the listener is closed.
func (s *Server) acceptLoop(l net.Listener) {
	for {
		conn, err := l.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				continue
			}
			s.log.Warn("accept failed", zap.Error(err))
			t := s.clock.NewTimer(100 * time.Millisecond)
			select {
			case <-s.stop:
				t.Stop()
				return
			case <-t.C():
			}
			continue
		}
		s.addPeer(conn, "")
	}
}

// dial connects to addr (a book entry) and starts the peer.
func (s *Server) dial(ctx context.Context, addr string) {
	if s.cfg.DialTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = s.withTimeout(ctx, s.cfg.DialTimeout)
		defer cancel()
	}
	conn, err := s.cfg.Transport.Dial(ctx, addr)
	if err != nil {
		s.book.dialFailed(addr, err)
		s.dials.failed(addr, err)
		s.log.Debug("dial failed", zap.String("addr", addr), zap.Error(err))
		return
	}
	s.addPeer(conn, addr)
}

// addPeer registers a new connection and starts its handshake. Our
// version is queued before the peer's goroutines start, so it is the
// first message the peer receives, whatever the peer sends meanwhile.
func (s *Server) addPeer(conn net.Conn, dialed string) {
	p := newPeer(s, conn, dialed)
	m, err := message.New(message.CmdVersion, s.versionPayload())
	if err == nil {
		err = p.tryEnqueue(qHigh, m)
	}
	if err != nil {
		s.log.Error("queueing our version", zap.Error(err))
		s.refuse(p, err)
		return
	}
	victim, err := s.register(p)
	if err != nil {
		s.refuse(p, err)
		return
	}
	if victim != nil {
		victim.disconnect(fmt.Errorf("%w: replaced by a new connection", ErrHandshakeSlots))
	}
	s.log.Debug("peer connected", zap.Stringer("addr", p), zap.String("dialed", dialed))
	p.start()
}

// refuse closes a connection that was not registered.
func (s *Server) refuse(p *peer, why error) {
	if err := p.conn.Close(); err != nil {
		s.log.Debug("closing refused connection", zap.Error(err))
	}
	if p.dialed != "" {
		s.book.dialFailed(p.dialed, why)
		s.dials.failed(p.dialed, why)
	}
}

// unregister forgets a disconnected peer (called once per peer).
func (s *Server) unregister(p *peer) {
	v := p.version()
	s.mu.Lock()
	delete(s.mu.peers, p)
	if p.handshaked.Load() {
		s.mu.handshaked--
	}
	if v != nil && s.mu.nonces[v.Nonce] == p {
		delete(s.mu.nonces, v.Nonce)
	}
	n := s.mu.handshaked
	s.mu.Unlock()
	s.book.disconnected(p, p.err)
	s.sync.peerGone(p)
	lvl := zap.InfoLevel
	if !p.handshaked.Load() {
		lvl = zap.DebugLevel
	}
	s.log.Log(lvl, "peer disconnected", zap.Stringer("addr", p), zap.Error(p.err), zap.Int("peers", n))
}

// versionPayload is our version: magic, nonce, user agent, listening
// port, start height and, when configured, DisableCompression.
func (s *Server) versionPayload() *payload.Version {
	caps := capability.Capabilities{}
	s.mu.Lock()
	if len(s.mu.ports) > 0 {
		caps = append(caps, capability.NewTCPServer(s.mu.ports[0]))
	}
	s.mu.Unlock()
	caps = append(caps, capability.NewFullNode(s.cfg.Ledger.BlockHeight()))
	if s.cfg.DisableCompression {
		caps = append(caps, capability.NewDisableCompression())
	}
	return &payload.Version{
		Network:      s.cfg.Magic,
		Version:      payload.ProtocolVersion,
		Timestamp:    uint32(s.clock.Now().Unix()),
		Nonce:        s.nonce,
		UserAgent:    s.cfg.UserAgent,
		Capabilities: caps,
	}
}

// peers returns the handshaked peers that pass keep (nil: all).
func (s *Server) peers(keep func(*peer) bool) []*peer {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*peer, 0, len(s.mu.peers))
	for p := range s.mu.peers {
		if p.handshaked.Load() && !p.gone() && (keep == nil || keep(p)) {
			out = append(out, p)
		}
	}
	return out
}

// PeerCount returns the number of connections and of handshaked peers.
func (s *Server) PeerCount() (connected, handshaked int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p := range s.mu.peers {
		if p.handshaked.Load() {
			handshaked++
		}
	}
	return len(s.mu.peers), handshaked
}

// PeerInfo describes a handshaked peer (for RPC getpeers).
type PeerInfo struct {
	Address   string // remote IP:port of the connection
	Port      uint16 // listening port it announced (0: none)
	UserAgent string
	Height    uint32
	Inbound   bool
}

// ConnectedPeers lists the handshaked peers.
func (s *Server) ConnectedPeers() []PeerInfo {
	ps := s.peers(nil)
	out := make([]PeerInfo, 0, len(ps))
	for _, p := range ps {
		v := p.version()
		out = append(out, PeerInfo{Address: p.String(), Port: v.Capabilities.TCPPort(),
			UserAgent: v.UserAgent, Height: p.height.Load(), Inbound: p.dialed == ""})
	}
	return out
}

// UnconnectedPeers lists known addresses not connected now (never our
// own).
func (s *Server) UnconnectedPeers() []string { return s.book.list(stateUnconnected) }

// BadPeers lists addresses ruled out for now (failed dials and sends);
// our own address, known as such, is not listed.
func (s *Server) BadPeers() []string { return s.book.list(stateBad) }

// IsInSync reports whether no handshaked peer is ahead of the chain
// (true without peers).
func (s *Server) IsInSync() bool {
	h := s.cfg.Ledger.BlockHeight()
	return len(s.peers(func(p *peer) bool { return p.height.Load() > h })) == 0
}

// kickSync asks the sync loop to look for blocks to request now.
func (s *Server) kickSync() {
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

// withTimeout is context.WithTimeout on the server's clock: ctx is
// cancelled with the cause context.DeadlineExceeded once d has passed.
func (s *Server) withTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	t := s.clock.AfterFunc(d, func() { cancel(context.DeadlineExceeded) })
	return ctx, func() {
		t.Stop()
		cancel(context.Canceled)
	}
}

// addrPortOf is the IP and port of a listener's or connection's address:
// a *net.TCPAddr, or any address whose String is "IP:port" (an in-memory
// transport's).
func addrPortOf(a net.Addr) (netip.AddrPort, bool) {
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.AddrPort(), true
	}
	if a == nil {
		return netip.AddrPort{}, false
	}
	ap, err := netip.ParseAddrPort(a.String())
	return ap, err == nil
}
