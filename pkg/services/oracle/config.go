package oracle

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

// Ledger is what the service reads of the chain; *chain.Chain implements
// it. Every method must be safe for concurrent use (the request workers
// call them in parallel). Missing records are errors wrapping
// chain.ErrNotFound.
type Ledger interface {
	// BlockHeight is the index of the last block.
	BlockHeight() uint32
	// GetTransaction returns a transaction and the index of its block.
	GetTransaction(h util.Uint256) (*transaction.Transaction, uint32, error)
	// OracleVerifyGas runs OracleContract's verify for a response
	// transaction with the picoGAS fee factor baseExecFee, as the reference
	// prices it, and returns the GAS consumed.
	OracleVerifyGas(tx *transaction.Transaction, baseExecFee int64) (int64, error)
	// OracleParams reads the fee values, the ValidUntilBlock bound and the
	// oracle nodes of the current state.
	OracleParams() (chain.OracleParams, error)
	// OracleRequests lists the pending requests of the current state.
	OracleRequests() (map[uint64]*neostate.OracleRequest, error)
}

var _ Ledger = (*chain.Chain)(nil)

// HTTPClient performs the oracle's HTTPS requests (*http.Client).
type HTTPClient interface {
	Do(req *http.Request) (*http.Response, error)
}

// Config configures a Service. Cross-service calls are func fields, wired
// by the node; optional fields may be left zero.
type Config struct {
	// Oracle is the ApplicationConfiguration.Oracle section (neo-go's keys;
	// pkg/config fills its defaults). Nodes are the RPC addresses of the
	// other oracle nodes the signatures are sent to.
	Oracle config.OracleConfiguration
	// Magic is the network magic transactions are signed for.
	Magic uint32
	// Keys are the unlocked keys of the oracle wallet: the node answers
	// requests while one of them is a designated Oracle node.
	Keys []*keys.PrivateKey
	// Ledger is the chain.
	Ledger Ledger
	// Relay hands a completed response transaction to the node (verify,
	// pool and relay it, as sendrawtransaction does). Required.
	Relay func(tx *transaction.Transaction) error
	// Broadcast sends this node's signature to the other oracle nodes
	// (optional: an RPCSender posting submitoracleresponse to
	// Oracle.Nodes, run by the service).
	Broadcast func(r Response)
	// PooledTx reports whether a transaction is in the node's memory pool
	// (optional). neo-go looks a request's transaction up in its pool
	// first and takes a pooled one's height as 2^32-1, so that its main
	// response is valid until MaxValidUntilBlockIncrement-1 (the sum
	// wraps) when it answers before its pool dropped the transaction (an
	// answer that needed no server, built while it stores the request's
	// block), and until the request's block + MaxValidUntilBlockIncrement
	// (C#'s rule) otherwise. OnBlock counts the transactions of the block
	// as pooled for the answers that needed no server; requests added
	// otherwise (AddRequests, LoadPending) ask PooledTx, or take the
	// block's height when it is nil.
	PooledTx func(h util.Uint256) bool
	// Client performs the HTTPS requests (optional: a client with the
	// reference's rules built from Oracle, see NewHTTPClient).
	Client HTTPClient
	// TLSConfig is the TLS configuration of the default client (optional:
	// the system's roots; tests give their server's CA).
	TLSConfig *tls.Config
	// Now is the clock of the request expiry (optional: time.Now).
	Now func() time.Time
	// Log receives the service's log (optional: no log).
	Log *zap.Logger
	// Registerer, when set, receives the service's metrics.
	Registerer prometheus.Registerer
}

// Reference defaults (neo-go's) for a configuration pkg/config did not
// default.
const (
	defaultRequestTimeout  = 5 * time.Second
	defaultMaxTaskTimeout  = time.Hour
	defaultRefreshInterval = 3 * time.Minute
	defaultMaxConcurrent   = 10
	defaultResponseTimeout = 4 * time.Second
)

// ErrConfig is returned by New for an unusable configuration.
var ErrConfig = errors.New("oracle: bad configuration")

// validate checks cfg and fills in the defaults.
func (cfg *Config) validate() error {
	switch {
	case cfg.Ledger == nil:
		return fmt.Errorf("%w: no ledger", ErrConfig)
	case cfg.Relay == nil:
		return fmt.Errorf("%w: no relay", ErrConfig)
	case len(cfg.Keys) == 0:
		return fmt.Errorf("%w: no unlocked key", ErrConfig)
	}
	o := &cfg.Oracle
	setDefault(&o.RequestTimeout, defaultRequestTimeout)
	setDefault(&o.NeoFS.Timeout, defaultRequestTimeout)
	setDefault(&o.MaxTaskTimeout, defaultMaxTaskTimeout)
	setDefault(&o.RefreshInterval, defaultRefreshInterval)
	setDefault(&o.ResponseTimeout, defaultResponseTimeout)
	if o.MaxConcurrentRequests <= 0 {
		o.MaxConcurrentRequests = defaultMaxConcurrent
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	return nil
}

func setDefault(d *time.Duration, def time.Duration) {
	if *d <= 0 {
		*d = def
	}
}
