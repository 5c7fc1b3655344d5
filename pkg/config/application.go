package config

import (
	"net/http"
	"time"
)

// Defaults applied to unset ApplicationConfiguration values (the reference
// node applies the same ones where the service starts).
const (
	DefaultLogLevel                  = "info"
	DefaultLogEncoding               = "console"
	DefaultPingInterval              = 30 * time.Second
	DefaultPingTimeout               = 90 * time.Second
	DefaultMaxPeers                  = 100
	DefaultAttemptConnPeers          = 20
	DefaultExtensiblePoolSize        = 20
	DefaultGarbageCollectionPeriod   = 10000
	DefaultMaxIteratorResultItems    = 100
	DefaultMaxFindResultItems        = 100
	DefaultMaxFindStorageResultItems = 50
	DefaultMaxNEP11Tokens            = 100
	DefaultMaxRequestBodyBytes       = 1 << 20
	DefaultMaxRequestHeaderBytes     = http.DefaultMaxHeaderBytes
	DefaultMaxWebSocketClients       = 64
	DefaultMaxWebSocketFeeds         = 16
	DefaultSessionPoolSize           = 20
	minSessionLifetime               = 5 * time.Second
	DefaultOracleRequestTimeout      = 5 * time.Second
	DefaultOracleMaxTaskTimeout      = time.Hour
	DefaultOracleRefreshInterval     = 3 * time.Minute
	DefaultOracleMaxConcurrent       = 10
	DefaultNeoFSTimeout              = 10 * time.Minute
	DefaultNeoFSDownloaderWorkers    = 500
	DefaultNeoFSBQueueSize           = 16000
	DefaultNeoFSBlockAttribute       = "Block"
	DefaultNeoFSStateAttribute       = "State"
	DefaultNeoFSKeyValueBatchSize    = 1000
)

// Database types accepted in DBConfiguration.Type.
const (
	DBLevelDB  = "leveldb"
	DBBoltDB   = "boltdb"
	DBInMemory = "inmemory"
)

// ApplicationConfiguration holds this node's local settings.
type ApplicationConfiguration struct {
	Ledger `yaml:",inline"`

	DBConfiguration DBConfiguration `yaml:"DBConfiguration"`

	Logger `yaml:",inline"`

	P2P P2P `yaml:"P2P"`

	Pprof      Pprof        `yaml:"Pprof"`
	Prometheus BasicService `yaml:"Prometheus"`

	// MempoolPersistence keeps the transaction pool across restarts (an
	// n3d addition; neo-go has no such key).
	MempoolPersistence MempoolPersistence `yaml:"MempoolPersistence"`

	// Memory sets the process's soft memory limit (an n3d addition;
	// neo-go has no such key). Only `n3d node` applies it.
	Memory Memory `yaml:"Memory"`

	// Relay makes the node forward transactions and blocks it receives.
	Relay bool `yaml:"Relay"`
	// ArchivalNodesSync asks only archival peers for blocks older than
	// MaxTraceableBlocks.
	ArchivalNodesSync bool `yaml:"ArchivalNodesSync"`

	Consensus         InternalService     `yaml:"Consensus"`
	RPC               RPC                 `yaml:"RPC"`
	Oracle            OracleConfiguration `yaml:"Oracle"`
	P2PNotary         InternalService     `yaml:"P2PNotary"`
	StateRoot         InternalService     `yaml:"StateRoot"`
	NeoFSBlockFetcher NeoFSBlockFetcher   `yaml:"NeoFSBlockFetcher"`
	NeoFSStateFetcher NeoFSStateFetcher   `yaml:"NeoFSStateFetcher"`
}

// Ledger holds local chain-keeping settings (not part of the protocol).
type Ledger struct {
	// GarbageCollectionPeriod is the number of blocks between MPT garbage
	// collections when RemoveUntraceableBlocks is on.
	GarbageCollectionPeriod uint32 `yaml:"GarbageCollectionPeriod"`
	// KeepOnlyLatestState keeps only the latest MPT state.
	KeepOnlyLatestState bool `yaml:"KeepOnlyLatestState"`
	// RemoveUntraceableBlocks deletes data older than MaxTraceableBlocks.
	RemoveUntraceableBlocks bool `yaml:"RemoveUntraceableBlocks"`
	// SaveStorageBatch keeps each block's storage changes (for db restore
	// --dump).
	SaveStorageBatch bool `yaml:"SaveStorageBatch"`
	// SkipBlockVerification disables verification of received blocks.
	SkipBlockVerification bool `yaml:"SkipBlockVerification"`
	// SaveInvocations stores contract invocation details in application logs.
	SaveInvocations bool `yaml:"SaveInvocations"`
	// TrustedHeader is a header to start light synchronisation from.
	TrustedHeader HashIndex `yaml:"TrustedHeader"`
}

// MempoolPersistence configures the saved transaction pool: the accepted
// transactions are written to a file next to the database as they enter
// the pool, and those still valid are put back (and announced again) at the
// next start, after a clean stop or a crash. The in-memory database keeps
// no pool either.
type MempoolPersistence struct {
	// Disabled turns the saved pool off (it is on by default).
	Disabled bool `yaml:"Disabled"`
	// MaxTransactions bounds the transactions saved and reloaded (0: the
	// protocol's MemPoolSize).
	MaxTransactions int `yaml:"MaxTransactions"`
}

// Logger holds the logging settings.
type Logger struct {
	// LogEncoding is "console" or "json".
	LogEncoding string `yaml:"LogEncoding"`
	// LogLevel is debug, info, warn, error, dpanic, panic or fatal.
	LogLevel string `yaml:"LogLevel"`
	// LogPath is a file to log to instead of stderr.
	LogPath string `yaml:"LogPath"`
	// LogTimestamp forces timestamps on or off; unset means on when stdout
	// is a terminal.
	LogTimestamp *bool `yaml:"LogTimestamp,omitempty"`
}

// DBConfiguration selects and configures the database backend.
type DBConfiguration struct {
	// Type is leveldb, boltdb or inmemory.
	Type           string         `yaml:"Type"`
	LevelDBOptions LevelDBOptions `yaml:"LevelDBOptions"`
	BoltDBOptions  BoltDBOptions  `yaml:"BoltDBOptions"`
}

// LevelDBOptions configures the LevelDB backend.
type LevelDBOptions struct {
	DataDirectoryPath string `yaml:"DataDirectoryPath"`
	ReadOnly          bool   `yaml:"ReadOnly"`
}

// BoltDBOptions configures the BoltDB backend.
type BoltDBOptions struct {
	FilePath string `yaml:"FilePath"`
	ReadOnly bool   `yaml:"ReadOnly"`
}

// P2P holds the peer-to-peer settings.
type P2P struct {
	// Addresses are the listen addresses, "[host]:[port][:announcedPort]".
	Addresses        []string `yaml:"Addresses"`
	AttemptConnPeers int      `yaml:"AttemptConnPeers"`
	// BroadcastFactor (0..100) tunes the broadcast fan-out; 0 is automatic,
	// 100 sends to every peer.
	BroadcastFactor int `yaml:"BroadcastFactor"`
	// BroadcastTxsBatchDelay is how long transactions are batched before an
	// announcement; 0 means 5% of the block time, at most 50 ms.
	BroadcastTxsBatchDelay time.Duration `yaml:"BroadcastTxsBatchDelay"`
	// DialTimeout bounds one dial; 0 means the system's limit.
	DialTimeout        time.Duration `yaml:"DialTimeout"`
	DisableCompression bool          `yaml:"DisableCompression"`
	ExtensiblePoolSize int           `yaml:"ExtensiblePoolSize"`
	MaxPeers           int           `yaml:"MaxPeers"`
	MinPeers           int           `yaml:"MinPeers"`
	PingInterval       time.Duration `yaml:"PingInterval"`
	PingTimeout        time.Duration `yaml:"PingTimeout"`
	ProtoTickInterval  time.Duration `yaml:"ProtoTickInterval"`
}

// BasicService is a network service that can be switched on and listens on
// some addresses ("host:port").
type BasicService struct {
	Enabled   bool     `yaml:"Enabled"`
	Addresses []string `yaml:"Addresses"`
}

// Pprof is the profiling service.
type Pprof struct {
	BasicService `yaml:",inline"`
	EnableBlock  bool `yaml:"EnableBlock"`
	EnableMutex  bool `yaml:"EnableMutex"`
}

// Wallet points at a NEP-6 wallet and its password.
type Wallet struct {
	Path     string `yaml:"Path"`
	Password string `yaml:"Password"`
}

// InternalService is a service without listeners that signs with a wallet
// (Consensus, P2PNotary, StateRoot).
type InternalService struct {
	Enabled      bool   `yaml:"Enabled"`
	UnlockWallet Wallet `yaml:"UnlockWallet"`
}

// RPC configures the JSON-RPC server.
type RPC struct {
	BasicService                `yaml:",inline"`
	DirectRelay                 bool          `yaml:"DirectRelay"`
	EnableCORSWorkaround        bool          `yaml:"EnableCORSWorkaround"`
	MaxGasInvoke                GAS           `yaml:"MaxGasInvoke"`
	MaxIteratorResultItems      int           `yaml:"MaxIteratorResultItems"`
	MaxFindResultItems          int           `yaml:"MaxFindResultItems"`
	MaxFindStorageResultItems   int           `yaml:"MaxFindStoragePageSize"`
	MaxNEP11Tokens              int           `yaml:"MaxNEP11Tokens"`
	MaxRequestBodyBytes         int           `yaml:"MaxRequestBodyBytes"`
	MaxRequestHeaderBytes       int           `yaml:"MaxRequestHeaderBytes"`
	MaxWebSocketClients         int           `yaml:"MaxWebSocketClients"`
	MaxWebSocketFeeds           int           `yaml:"MaxWebSocketFeeds"`
	MempoolSubscriptionsEnabled bool          `yaml:"MempoolSubscriptionsEnabled"`
	SessionEnabled              bool          `yaml:"SessionEnabled"`
	SessionExpansionEnabled     bool          `yaml:"SessionExpansionEnabled"`
	SessionLifetime             time.Duration `yaml:"SessionLifetime"`
	SessionBackedByMPT          bool          `yaml:"SessionBackedByMPT"`
	SessionPoolSize             int           `yaml:"SessionPoolSize"`
	StartWhenSynchronized       bool          `yaml:"StartWhenSynchronized"`
	TLSConfig                   TLS           `yaml:"TLSConfig"`
}

// TLS configures the RPC server's TLS listeners.
type TLS struct {
	BasicService `yaml:",inline"`
	CertFile     string `yaml:"CertFile"`
	KeyFile      string `yaml:"KeyFile"`
}

// OracleConfiguration configures the oracle service.
type OracleConfiguration struct {
	Enabled               bool               `yaml:"Enabled"`
	AllowPrivateHost      bool               `yaml:"AllowPrivateHost"`
	AllowedContentTypes   []string           `yaml:"AllowedContentTypes"`
	Nodes                 []string           `yaml:"Nodes"`
	NeoFS                 NeoFSConfiguration `yaml:"NeoFS"`
	MaxTaskTimeout        time.Duration      `yaml:"MaxTaskTimeout"`
	RefreshInterval       time.Duration      `yaml:"RefreshInterval"`
	MaxConcurrentRequests int                `yaml:"MaxConcurrentRequests"`
	RequestTimeout        time.Duration      `yaml:"RequestTimeout"`
	ResponseTimeout       time.Duration      `yaml:"ResponseTimeout"`
	UnlockWallet          Wallet             `yaml:"UnlockWallet"`
}

// NeoFSConfiguration is the oracle's access to NeoFS.
type NeoFSConfiguration struct {
	Nodes   []string      `yaml:"Nodes"`
	Timeout time.Duration `yaml:"Timeout"`
}

// NeoFSService is the common part of the NeoFS fetchers.
type NeoFSService struct {
	InternalService `yaml:",inline"`
	Timeout         time.Duration `yaml:"Timeout"`
	ContainerID     string        `yaml:"ContainerID"`
	Addresses       []string      `yaml:"Addresses"`
}

// NeoFSBlockFetcher fetches blocks from a NeoFS container.
type NeoFSBlockFetcher struct {
	NeoFSService           `yaml:",inline"`
	OIDBatchSize           int    `yaml:"OIDBatchSize"`
	BlockAttribute         string `yaml:"BlockAttribute"`
	DownloaderWorkersCount int    `yaml:"DownloaderWorkersCount"`
	BQueueSize             int    `yaml:"BQueueSize"`
}

// NeoFSStateFetcher fetches contract storage snapshots from NeoFS.
type NeoFSStateFetcher struct {
	NeoFSService      `yaml:",inline"`
	StateAttribute    string `yaml:"StateAttribute"`
	KeyValueBatchSize int    `yaml:"KeyValueBatchSize"`
}
