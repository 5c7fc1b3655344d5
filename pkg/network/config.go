package network

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

// Defaults applied by New to zero Config values. The time-based ones that
// depend on the block time are derived in applyDefaults.
const (
	DefaultMaxPeers          = 100
	DefaultAttemptConnPeers  = 20
	DefaultPingInterval      = 30 * time.Second
	DefaultPingTimeout       = 90 * time.Second
	DefaultProtoTickInterval = 5 * time.Second
	DefaultHandshakeTimeout  = 10 * time.Second
	// DefaultMaxHandshaking is the number of inbound connections that may
	// be handshaking at once (see Config.MaxHandshaking).
	DefaultMaxHandshaking = 32
	// DefaultFirstByteTimeout is the time a new connection has to send
	// its first byte (at most HandshakeTimeout).
	DefaultFirstByteTimeout = 3 * time.Second
	DefaultTimePerBlock     = 15 * time.Second
	// DefaultExtensibleCache is the number of recent extensible payloads
	// kept to answer getdata.
	DefaultExtensibleCache = 20
	// maxTxBatchDelay caps the derived BroadcastTxsBatchDelay.
	maxTxBatchDelay = 50 * time.Millisecond
	// getAddrEvery: addresses are asked again every this many blocks.
	getAddrEvery = 1000
	// DefaultTxResendThreshold is the age, in block times, at which a
	// pooled transaction is announced again (neo-go's is 5 blocks, or
	// twice the number of validators when more).
	DefaultTxResendThreshold = 5
	// maxRequestTimeout caps the wait for a getdata answer.
	maxRequestTimeout = 5 * time.Second
)

// TxBatchDelay is the batching delay of transaction announcements: the
// configured P2P.BroadcastTxsBatchDelay, or when unset (0) 5 % of the block
// time, at most 50 ms.
func TxBatchDelay(configured, timePerBlock time.Duration) time.Duration {
	if configured != 0 {
		return configured
	}
	return min(timePerBlock/20, maxTxBatchDelay)
}

// ListenAddress is one address to listen on ("host:port", port 0 for any
// free one) with the port to announce to peers (0: the bound port).
type ListenAddress struct {
	Address       string
	AnnouncedPort uint16
}

// Config configures a Server. The P2P section of the application
// configuration maps onto it field by field (see pkg/node/network.go);
// services are func fields and small interfaces wired by the caller.
type Config struct {
	// Magic is the network magic every version must carry.
	Magic uint32
	// StateRootInHeader: block headers carry the previous state root
	// (the protocol's StateRootInHeader, a neo-go extension).
	StateRootInHeader bool
	// Listen are the listen addresses; none: no listener (dial only).
	Listen []ListenAddress
	// Seeds are "host:port" addresses dialled at start.
	Seeds []string
	// TimePerBlock is the block interval; send timeouts derive from it.
	TimePerBlock time.Duration

	// DialTimeout bounds one dial (0: the system's limit).
	DialTimeout time.Duration
	// HandshakeTimeout bounds the version/verack exchange.
	HandshakeTimeout time.Duration
	// FirstByteTimeout is the time a new connection has to send its first
	// byte (DefaultFirstByteTimeout when 0, at most HandshakeTimeout).
	FirstByteTimeout time.Duration
	// MaxHandshaking bounds the inbound connections that have not finished
	// the handshake; they do not count against MaxPeers, and a new one
	// takes over the slot of the oldest silent one when all are held
	// (DefaultMaxHandshaking when 0).
	MaxHandshaking int
	// ProtoTickInterval paces discovery, ping checks and sync retries.
	ProtoTickInterval time.Duration
	// PingInterval is the idle time after which a peer is pinged;
	// PingTimeout how long its pong may take.
	PingInterval time.Duration
	PingTimeout  time.Duration
	// MinPeers is the least number of peers to keep (raised to the
	// fan-out of the known network); MaxPeers the limit of handshaked
	// peers;
	// AttemptConnPeers the dials per discovery round.
	MinPeers         int
	MaxPeers         int
	AttemptConnPeers int
	// BroadcastFactor (0..100) moves the fan-out from the network-size
	// estimate (0) to every peer (100).
	BroadcastFactor int
	// BroadcastTxsBatchDelay is the delay for batching transaction hashes
	// into one inv (0: 5 % of TimePerBlock, at most 50 ms).
	BroadcastTxsBatchDelay time.Duration
	// DisableCompression announces DisableCompression to peers.
	DisableCompression bool
	// FirstHandRelayOnly announces only the transactions received from
	// RPC or created locally (RelayTxs with firstHand), not those relayed
	// to us: the full-mesh gossip policy of ARCHITECTURE.md.
	FirstHandRelayOnly bool
	// BroadcastNoCancel makes a broadcast wait for every chosen peer whose
	// queue is full (up to the broadcast timeout) instead of stopping once
	// 2/3 of them took the message: the gossip-policy switch the simulator
	// compares (pkg/sim); off in real nodes.
	BroadcastNoCancel bool
	// InvBatchSize is the most transaction hashes one inv of AnnounceTxs
	// carries (payload.RelayBatchSize, 42, when 0); 1 switches the
	// batching off (a simulator policy switch).
	InvBatchSize int
	// ExtensibleCache bounds the recent extensible payloads kept for
	// getdata (DefaultExtensibleCache when 0).
	ExtensibleCache int
	// TxResendThreshold is the age, in block times, at which a
	// transaction still in the pool is announced again to every peer; it
	// is announced again at 2, 4, 8… times that age while it stays
	// (DefaultTxResendThreshold when 0; the caller may raise it to twice
	// the number of validators, as neo-go does). The same age marks a
	// transaction as stale for the metric and the warning.
	TxResendThreshold int
	// NoPeersWarn is how long the node may have no handshaked peer (while
	// it knows addresses to dial) before it warns (DefaultNoPeersWarn
	// when 0); DialLogInterval the period of the summary of failed dials
	// (DefaultDialLogInterval when 0).
	NoPeersWarn     time.Duration
	DialLogInterval time.Duration
	// Registerer receives the server's metrics (prometheus.DefaultRegisterer
	// when nil; collectors already registered by another server are
	// shared).
	Registerer prometheus.Registerer
	// UserAgent is sent in our version (buildinfo.UserAgent() by the
	// caller).
	UserAgent string
	// Nonce identifies this node in versions (random when 0).
	Nonce uint32

	// Ledger answers block and header requests (required).
	Ledger Ledger
	// Blocks receives blocks from peers, in any order (required).
	Blocks BlockSink
	// Adding reports the block the ledger is adding (optional): a
	// validator adds the block its consensus agreed on while the other
	// validators already announce and send it, and that copy is neither
	// requested nor decoded beyond its header.
	Adding func() (index uint32, hash util.Uint256, ok bool)
	// Pool answers transaction requests; nil: no mempool, every announced
	// transaction is requested and getdata/mempool find nothing.
	Pool TxPool
	// OnTransaction receives every transaction a peer sent, with the
	// peer's id (unique in the server's lifetime, never 0) so the
	// pipeline behind it can keep one peer's flood from delaying the
	// others; nil: dropped. It is called from the peer's transaction worker
	// and must not block for long; the pipeline deduplicates and verifies.
	OnTransaction func(peer uint64, tx *transaction.Transaction)
	// OnExtensible receives extensible payloads (ExtensibleAdmission.Check);
	// a nil error means the payload is valid and is cached and
	// re-announced; an error wrapping ErrInvalidExtensible disconnects the
	// sender; a refused payload is not requested again. Nil: extensible
	// payloads are not requested.
	OnExtensible func(e *payload.Extensible) error
	// OnHandshake is called when a peer completes its handshake (from the
	// peer's goroutine; it must not block). Optional.
	OnHandshake func()
	// Notary enables the P2P notary request relay (P2PSigExtensions);
	// nil: a peer sending a notary request or its inventory is dropped.
	Notary *NotaryConfig
	// ValidatorsCount returns the number of consensus nodes at the current
	// height; it sizes how many tolerated errors (extensible payloads
	// outside their height window, getmptdata for nodes we lack) a peer
	// may cause within TimePerBlock before it is dropped, as neo-go does
	// (30 per validator). Nil: 1.
	ValidatorsCount func() int
	// StateExchange enables getmptdata/mptdata (P2PStateExchangeExtensions);
	// nil: a peer sending either is dropped.
	StateExchange *StateExchangeConfig
	// Log receives the server's log (zap.NewNop when nil).
	Log *zap.Logger

	// Clock makes every timer of the server: handshake, first-byte and
	// write timeouts, pings, discovery, sync and getdata retries, relay
	// batching, re-announcement, the operator watches (clock.Real when
	// nil). The server sets no socket deadline: a timeout closes the
	// connection from a timer of this clock.
	Clock clock.Clock
	// Transport opens listeners and connections (TCP when nil);
	// pkg/network/memnet is an in-memory one.
	Transport Transport
}

// Transport is how the server reaches the network. Addresses are
// "IP:port" strings, and so are the listeners' and connections'
// net.Addr strings: peers are told of each other by IP and port. TCP
// socket options (TCP_NODELAY, TCP_QUICKACK) are applied only to
// *net.TCPConn connections.
type Transport interface {
	// Listen listens on addr (port 0: any free port).
	Listen(ctx context.Context, addr string) (net.Listener, error)
	// Dial connects to addr; ctx bounds the attempt (DialTimeout).
	Dial(ctx context.Context, addr string) (net.Conn, error)
}

// TCP is the default Transport: TCP sockets through package net.
type TCP struct{}

// Listen implements Transport.
func (TCP) Listen(ctx context.Context, addr string) (net.Listener, error) {
	var lc net.ListenConfig
	return lc.Listen(ctx, "tcp", addr)
}

// Dial implements Transport.
func (TCP) Dial(ctx context.Context, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

// Ledger is the chain as the server reads it. All methods are called
// from many goroutines.
type Ledger interface {
	// BlockHeight is the index of the last persisted block.
	BlockHeight() uint32
	// GetHeaderHash returns the hash of the block at index, false above
	// the height.
	GetHeaderHash(index uint32) (util.Uint256, bool)
	// GetBlock returns a persisted block; an error when unknown.
	GetBlock(hash util.Uint256) (*block.Block, error)
	// GetHeader returns a persisted header; an error when unknown.
	GetHeader(hash util.Uint256) (*block.Header, error)
}

// BlockSink takes blocks from peers (pkg/core/blockqueue.Queue). Put does
// not block; its error (an old, duplicate or too distant block) is
// informational.
type BlockSink interface {
	Put(b *block.Block) error
}

// TxPool is the mempool as the server reads it.
type TxPool interface {
	// ContainsTx reports whether the transaction is known (pooled or
	// being verified): it is not requested again.
	ContainsTx(hash util.Uint256) bool
	// GetTx returns a pooled transaction.
	GetTx(hash util.Uint256) (*transaction.Transaction, bool)
	// TxHashes lists the pooled verified transactions (mempool command).
	TxHashes() []util.Uint256
}

func (c *Config) applyDefaults() {
	setIfZero(&c.TimePerBlock, DefaultTimePerBlock)
	setIfZero(&c.HandshakeTimeout, DefaultHandshakeTimeout)
	setIfZero(&c.FirstByteTimeout, DefaultFirstByteTimeout)
	c.FirstByteTimeout = min(c.FirstByteTimeout, c.HandshakeTimeout)
	setIfZero(&c.MaxHandshaking, DefaultMaxHandshaking)
	setIfZero(&c.ProtoTickInterval, DefaultProtoTickInterval)
	setIfZero(&c.PingInterval, DefaultPingInterval)
	setIfZero(&c.PingTimeout, DefaultPingTimeout)
	setIfZero(&c.MaxPeers, DefaultMaxPeers)
	setIfZero(&c.AttemptConnPeers, DefaultAttemptConnPeers)
	setIfZero(&c.ExtensibleCache, DefaultExtensibleCache)
	setIfZero(&c.TxResendThreshold, DefaultTxResendThreshold)
	setIfZero(&c.InvBatchSize, payload.RelayBatchSize)
	setIfZero(&c.NoPeersWarn, DefaultNoPeersWarn)
	setIfZero(&c.DialLogInterval, DefaultDialLogInterval)
	if c.Registerer == nil {
		c.Registerer = prometheus.DefaultRegisterer
	}
	c.BroadcastTxsBatchDelay = TxBatchDelay(c.BroadcastTxsBatchDelay, c.TimePerBlock)
	if c.Log == nil {
		c.Log = zap.NewNop()
	}
	c.Clock = clock.OrReal(c.Clock)
	if c.Transport == nil {
		c.Transport = TCP{}
	}
}

func (c *Config) validate() error {
	if c.Ledger == nil || c.Blocks == nil {
		return ErrNoLedger
	}
	switch {
	case c.BroadcastFactor < 0 || c.BroadcastFactor > 100:
		return fmt.Errorf("%w: BroadcastFactor %d, want 0..100", ErrBadConfig, c.BroadcastFactor)
	case c.MinPeers < 0 || c.MaxPeers < 0 || c.AttemptConnPeers < 0 || c.MaxHandshaking < 0:
		return fmt.Errorf("%w: negative peer count", ErrBadConfig)
	case c.InvBatchSize < 0 || c.InvBatchSize > payload.MaxHashesCount:
		return fmt.Errorf("%w: InvBatchSize %d", ErrBadConfig, c.InvBatchSize)
	case c.TxResendThreshold < 0:
		return fmt.Errorf("%w: TxResendThreshold %d", ErrBadConfig, c.TxResendThreshold)
	case c.StateExchange != nil && c.StateExchange.WalkNodes == nil:
		return fmt.Errorf("%w: StateExchange without WalkNodes", ErrBadConfig)
	case c.StateExchange != nil && c.StateExchange.Sync != nil && c.StateExchange.Blocks == nil:
		return fmt.Errorf("%w: StateExchange.Sync without Blocks", ErrBadConfig)
	case c.MinPeers > c.MaxPeers:
		return fmt.Errorf("%w: MinPeers %d above MaxPeers %d", ErrBadConfig, c.MinPeers, c.MaxPeers)
	}
	return nil
}

// sendTimeout bounds a direct send to one peer: the block time, at least
// one second (a peer that cannot take a reply within a block is useless).
func (c *Config) sendTimeout() time.Duration { return max(c.TimePerBlock, time.Second) }

// requestTimeout is the wait for the answer to a getdata before the item
// is asked from another peer that announced it: the block time, between
// one and five seconds.
func (c *Config) requestTimeout() time.Duration {
	return min(max(c.TimePerBlock, time.Second), maxRequestTimeout)
}

// broadcastTimeout bounds a whole broadcast: half a block time, at least
// 100 ms.
func (c *Config) broadcastTimeout() time.Duration {
	return max(c.TimePerBlock/2, 100*time.Millisecond)
}

func setIfZero[T comparable](v *T, def T) {
	var zero T
	if *v == zero {
		*v = def
	}
}
