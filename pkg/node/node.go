package node

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/consensus"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/network/notarypool"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/n3d-io/n3d/pkg/services/notary"
	"github.com/n3d-io/n3d/pkg/services/oracle"
	"github.com/n3d-io/n3d/pkg/services/stateroot"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// Errors of the node's life cycle.
var (
	// ErrStarted is returned by Start on a node already started (or
	// stopped: a node runs once).
	ErrStarted = errors.New("node: already started")
	// ErrStopped is returned by Start after Stop.
	ErrStopped = errors.New("node: stopped")
)

// Node is a whole node: the chain and the services around it. Build it
// with New, run it with Run or Start and Stop. The accessors are safe for
// concurrent use; those of services return nil until Start has started
// them (and for services the configuration disables).
type Node struct {
	cfg       config.Config
	log       *zap.Logger
	reg       prometheus.Registerer
	gatherer  prometheus.Gatherer
	consKeys  []*keys.PrivateKey
	srKeys    []*keys.PrivateKey // the StateRoot section's wallet keys
	oracleTLS *tls.Config

	// The P2P server's clock and transport (options_transport.go); nil:
	// the wall clock, TCP.
	clock     clock.Clock
	transport network.Transport
	p2pTune   func(*network.Config) // WithP2PTuning

	chain   *chain.Chain
	natives *chain.NativeSet
	fatal   chan error // the chain stopped for good (fatal.go)

	// Set by Start, before it returns; read-only afterwards.
	pool   *mempool.Pool
	pipe   *txpipe.Pipeline
	p2p    atomic.Pointer[network.Server] // set once the server runs
	rpc    *server.Server
	cons   *consensus.Service
	sr     *stateroot.Service
	oracle *oracle.Service // nil when disabled

	// poolRef is pool for the chain's block verification
	// (chain.Config.Pooled, pooledTx), which may run on any goroutine.
	poolRef atomic.Pointer[mempool.Pool]
	// notaryPool is the P2P notary request pool (nil without
	// P2PSigExtensions); notary the notary service (nil when disabled).
	notaryPool     *notarypool.Pool
	notaryPoolSize prometheus.Gauge
	notary         atomic.Pointer[notary.Service]
	saved          *mempool.Journal // the saved pool; nil when off
	reloaded       []util.Uint256   // saved pool transactions to announce
	monitor        []net.Addr       // Prometheus and pprof listeners

	mu      sync.Mutex
	started bool
	stopped bool
	stopErr error
	cancel  context.CancelFunc
	st      stages
}

// options are what Option functions set.
type options struct {
	log       *zap.Logger
	store     storage.Store
	reg       prometheus.Registerer
	gatherer  prometheus.Gatherer
	keys      []*keys.PrivateKey
	keysSet   bool
	srKeys    []*keys.PrivateKey // WithStateRootKeys
	srKeysSet bool
	onChanges func(uint32, []chain.StorageChange)
	clock     clock.Clock       // options_transport.go
	transport network.Transport // options_transport.go
	oracleTLS *tls.Config
	p2pTune   func(*network.Config) // options_transport.go
}

// Option changes how New builds a node.
type Option func(*options)

// WithLogger sets the node's logger (default: no log). Each service logs
// through a named child of it.
func WithLogger(log *zap.Logger) Option { return func(o *options) { o.log = log } }

// WithStore makes the chain use st instead of the database the
// configuration names (DBConfiguration is then ignored). The node closes
// st with the chain.
func WithStore(st storage.Store) Option { return func(o *options) { o.store = st } }

// WithMetrics sets where the services register their Prometheus metrics
// and what the Prometheus listener serves (default: the client library's
// default registry, as the n3d binary exports it).
func WithMetrics(reg prometheus.Registerer, g prometheus.Gatherer) Option {
	return func(o *options) { o.reg, o.gatherer = reg, g }
}

// WithConsensusKeys gives the consensus service its unlocked keys instead
// of reading the configuration's UnlockWallet (used when Consensus is
// enabled).
func WithConsensusKeys(ks ...*keys.PrivateKey) Option {
	return func(o *options) { o.keys, o.keysSet = ks, true }
}

// WithStorageChanges receives the storage changes of every block the
// chain stores (see chain.Config.OnStorageChanges).
func WithStorageChanges(f func(index uint32, changes []chain.StorageChange)) Option {
	return func(o *options) { o.onChanges = f }
}

// New builds a node from cfg: it decrypts the consensus keys (when
// consensus is enabled) and opens the chain, so a wrong wallet, password
// or database fails here. Services start with Start or Run. The caller
// must call Stop (Run does) to close the chain.
func New(cfg config.Config, opts ...Option) (*Node, error) {
	o := options{log: zap.NewNop(), reg: prometheus.DefaultRegisterer, gatherer: prometheus.DefaultGatherer}
	for _, opt := range opts {
		opt(&o)
	}
	n := &Node{cfg: cfg, log: o.log, reg: o.reg, gatherer: o.gatherer, consKeys: o.keys,
		clock: o.clock, transport: o.transport, oracleTLS: o.oracleTLS, p2pTune: o.p2pTune}
	n.st.log = n.log
	n.fatal = make(chan error, 1)
	if cfg.ApplicationConfiguration.Consensus.Enabled && !o.keysSet {
		ks, err := ConsensusKeys(cfg.ApplicationConfiguration.Consensus)
		if err != nil {
			return nil, err
		}
		n.consKeys = ks
	}
	if err := n.readStateRootKeys(o); err != nil {
		return nil, err
	}
	c, err := openChain(cfg, n.log, o.store, n.reg, o.onChanges, n.chainFatal, n.pooledTx)
	if err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	n.chain, n.natives = c, c.Natives()
	n.log.Info("chain opened",
		zap.Uint32("height", c.BlockHeight()),
		zap.Stringer("hash", c.CurrentBlockHash()),
		zap.Stringer("stateRoot", c.CurrentStateRoot()))
	return n, nil
}

// Start starts the services in dependency order: monitoring, the mempool
// and its ingress pipeline, P2P, RPC and consensus (those the
// configuration enables). It returns once every listener is bound. On an
// error the services already started are stopped again; Stop must still
// be called to close the chain. ctx carries values only: the services run
// until Stop.
func (n *Node) Start(ctx context.Context) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	switch {
	case n.stopped:
		return ErrStopped
	case n.started:
		return ErrStarted
	}
	n.started = true
	ctx, n.cancel = context.WithCancel(context.WithoutCancel(ctx))
	if err := n.startServices(ctx); err != nil {
		n.cancel()
		return errors.Join(err, n.st.stopAll())
	}
	return nil
}

// Stop stops the services in the reverse order of their start, each
// waiting until its goroutines have returned, then closes the chain.
// It may be called more than once (later calls return the first result)
// and without Start.
func (n *Node) Stop() error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.stopped {
		return n.stopErr
	}
	n.stopped = true
	if n.cancel != nil {
		n.cancel()
	}
	err := n.st.stopAll()
	if cerr := n.chain.Close(); cerr != nil {
		err = errors.Join(err, fmt.Errorf("closing the chain: %w", cerr))
	}
	n.log.Info("chain closed")
	n.stopErr = err
	return err
}

// Run starts the node, waits until ctx ends (or the chain stops for good,
// see Fatal) and stops it. It returns nil on a clean shutdown.
func (n *Node) Run(ctx context.Context) error {
	if err := n.Start(ctx); err != nil {
		return errors.Join(err, n.Stop())
	}
	select {
	case <-ctx.Done():
		return n.Stop()
	case err := <-n.Fatal():
		return errors.Join(err, n.Stop())
	}
}

// Config is the configuration the node was built with.
func (n *Node) Config() config.Config { return n.cfg }

// Chain is the node's chain (open from New until Stop).
func (n *Node) Chain() *chain.Chain { return n.chain }

// Natives is the chain's native contract set.
func (n *Node) Natives() *chain.NativeSet { return n.natives }

// Pool is the memory pool.
func (n *Node) Pool() *mempool.Pool { return n.pool }

// Pipeline is the transaction ingress pipeline in front of the pool.
func (n *Node) Pipeline() *txpipe.Pipeline { return n.pipe }

// SubmitTx hands tx to the ingress pipeline as RPC's sendrawtransaction
// does and waits for its verdict (nil: pooled, and written to the saved
// pool when there is one).
func (n *Node) SubmitTx(ctx context.Context, tx *transaction.Transaction) error {
	if n.pipe == nil {
		return fmt.Errorf("node: %w", errNotStarted)
	}
	if err := n.pipe.SubmitWait(ctx, tx); err != nil {
		return err
	}
	if err := n.flushSaved(); err != nil {
		// Not durable: the client is told so, and the pool does not keep
		// what a restart would lose (peers may have heard of it already).
		n.pool.Remove(tx.Hash())
		return fmt.Errorf("%w: transaction not saved: %w", chain.ErrStorage, err)
	}
	return nil
}

var errNotStarted = errors.New("not started")

// P2P is the P2P server, nil until it runs.
func (n *Node) P2P() *network.Server { return n.p2p.Load() }

// P2PAddrs are the addresses the P2P server listens on.
func (n *Node) P2PAddrs() []net.Addr {
	if p := n.p2p.Load(); p != nil {
		return p.Addrs()
	}
	return nil
}

// PeerCount is the number of connected peers.
func (n *Node) PeerCount() int {
	if p := n.p2p.Load(); p != nil {
		c, _ := p.PeerCount()
		return c
	}
	return 0
}

// Peers are the connected peers (with a handshake).
func (n *Node) Peers() []network.PeerInfo {
	if p := n.p2p.Load(); p != nil {
		return p.ConnectedPeers()
	}
	return nil
}

// RPC is the JSON-RPC server (nil when disabled).
func (n *Node) RPC() *server.Server { return n.rpc }

// RPCAddrs are the addresses the JSON-RPC server listens on.
func (n *Node) RPCAddrs() []net.Addr {
	if n.rpc == nil {
		return nil
	}
	return n.rpc.Addrs()
}

// Consensus is the dBFT service (nil when disabled).
func (n *Node) Consensus() *consensus.Service { return n.cons }

// MonitoringAddrs are the Prometheus and pprof listeners' addresses.
func (n *Node) MonitoringAddrs() []net.Addr { return n.monitor }

// startServices starts, in dependency order, the monitoring listeners,
// the mempool and its ingress pipeline, the P2P server, the RPC server, the
// state-root service and the consensus service, and records each in n.st
// (stopped in reverse order: consensus, state root, RPC, P2P, pipeline,
// monitoring; Stop closes the chain last). It first logs a warning for each
// unsupported setting of the configuration.
func (n *Node) startServices(ctx context.Context) error {
	n.warnUnsupported()
	stopMon, monAddrs, err := n.startMonitoring(ctx)
	if err != nil {
		return err
	}
	n.st.add("monitor", stopMon)
	n.monitor = monAddrs
	stopPool, err := n.startMempool(ctx)
	if err != nil {
		return err
	}
	n.st.add("mempool", stopPool)
	if n.cfg.ApplicationConfiguration.Consensus.Enabled {
		// Built before the P2P server (which hands it payloads), run after
		// it and the RPC server.
		if n.cons, err = n.newConsensus(); err != nil {
			return err
		}
	}
	// Built before the P2P server (which hands it payloads), run after it.
	if n.sr, err = n.newStateRoot(); err != nil {
		return err
	}
	// The notary request pool, read by the P2P and RPC servers.
	if err := n.newNotaryPool(); err != nil {
		return err
	}
	stopNet, err := n.startNetwork(ctx)
	if err != nil {
		return err
	}
	n.st.add("p2p", stopNet)
	n.announceReloaded(n.reloaded)
	stopOracle, err := n.startOracle(ctx)
	if err != nil {
		return err
	}
	if stopOracle != nil { // nil: disabled
		n.st.add("oracle", stopOracle)
	}
	stopNotary, err := n.startNotary(ctx)
	if err != nil {
		return err
	}
	if stopNotary != nil { // nil: no P2PSigExtensions
		n.st.add("notary", stopNotary)
	}
	stopRPC, err := n.startRPC(ctx)
	if err != nil {
		return err
	}
	n.st.add("rpc", stopRPC)
	n.st.add("stateroot", n.startStateRoot(ctx))
	if n.cons != nil {
		n.st.add("consensus", n.startConsensus(ctx))
	}
	return nil
}
