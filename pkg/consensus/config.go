package consensus

import (
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/config/netconfig"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// Ledger is what the service reads of the chain. *chain.Chain implements
// it. All methods are called from the service goroutine.
type Ledger interface {
	// BlockHeight is the index of the last persisted block.
	BlockHeight() uint32
	// CurrentBlockHash is the hash of that block.
	CurrentBlockHash() util.Uint256
	// GetHeader returns the header of a persisted block.
	GetHeader(h util.Uint256) (*block.Header, error)
}

// Config configures a Service. Every cross-service call is a field here,
// wired in pkg/node. Fields marked optional may be left nil.
type Config struct {
	// Logger receives the service's and dBFT's log (optional: no log).
	Logger *zap.Logger
	// Protocol is the network's configuration: Magic, the block limits
	// (MaxBlockSize, MaxBlockSystemFee, MaxTransactionsPerBlock),
	// TimePerBlock, MaxTimePerBlock (neo-go's dynamic block time, off when
	// 0), the committee size (committee refresh heights) and the standby
	// validators.
	Protocol netconfig.ProtocolConfiguration
	// Keys are the unlocked keys of the node's wallet (see
	// KeysFromWallet). The node takes part as the first validator whose
	// key is here; with none it only watches.
	Keys []*keys.PrivateKey
	// Ledger is the chain.
	Ledger Ledger
	// NextBlockValidators returns the validators of the block being made
	// (NEO's getNextBlockValidators on the current state), sorted as the
	// NEO contract returns them: their order gives validator indexes.
	NextBlockValidators func() (keys.PublicKeys, error)
	// ComputeNextBlockValidators returns the validators the current votes
	// elect (NEO's ComputeNextBlockValidators). It gives the NextConsensus
	// of a block at a committee refresh height (optional: the
	// NextBlockValidators are used, which is right only while votes do not
	// change the validators).
	ComputeNextBlockValidators func() (keys.PublicKeys, error)
	// TimePerBlock returns the current block time: Policy's
	// MillisecondsPerBlock from Echidna on (optional: Protocol.TimePerBlock).
	TimePerBlock func() time.Duration
	// GetVerifiedTransactions returns the verified mempool transactions,
	// highest priority first; the service takes a prefix within the block
	// limits. The slice is not modified.
	GetVerifiedTransactions func() []*transaction.Transaction
	// GetPooledTransaction returns a mempool transaction.
	GetPooledTransaction func(h util.Uint256) (*transaction.Transaction, bool)
	// VerifyTx verifies a proposed transaction that is not in the mempool
	// against the state the next block builds on (chain.VerifyTx).
	VerifyTx func(tx *transaction.Transaction) error
	// StateRootAt returns the local state root after block index
	// (chain.StateRoot); required with StateRootInHeader, where proposals
	// and blocks carry the root after the previous block.
	StateRootAt func(index uint32) (util.Uint256, error)
	// ProcessBlock receives a block the validators agreed on (chain.AddBlock
	// or the block queue). An error is logged: the block may already have
	// arrived from the network.
	ProcessBlock func(b *block.Block) error
	// Broadcast sends a signed consensus payload to the network. It is
	// called from the service goroutine and must not block for long.
	Broadcast func(p *payload.Extensible)
	// RequestTx asks peers for the proposed transactions the node misses
	// (optional).
	RequestTx func(hashes ...util.Uint256)
	// StopTxFlow tells that the round needs no more transactions
	// (optional).
	StopTxFlow func()
	// Clock makes every timer of the service: dBFT's round timer, the
	// wait for peers (optional: RealClock).
	Clock Clock
	// SignLog records the messages the node signs before they are sent,
	// and gives them back after a restart (optional: none, and a
	// restarted validator may then sign a message that conflicts with
	// one it sent before). OpenSignLog keeps one in a file.
	SignLog SignLog
	// ConnectedPeers returns how many peers the node has a handshake with
	// (optional: the first round starts at once). The first round waits
	// until there are MinPeers, a consensus payload arrives, or StartWait
	// passes; NotifyPeers ends the wait sooner than the poll.
	ConnectedPeers func() int
	// MinPeers is how many peers the first round waits for (optional: the
	// other validators of a quorum, M-1).
	MinPeers int
	// StartWait bounds the wait for peers (optional: one minute).
	StartWait time.Duration
	// Registerer receives the service's metrics (metrics.go); nil:
	// prometheus.DefaultRegisterer, which the node's monitoring endpoint
	// serves.
	Registerer prometheus.Registerer
}

// Validate checks that the required fields are set.
func (c *Config) Validate() error {
	missing := func(name string) error { return fmt.Errorf("%w: %s is not set", ErrBadConfig, name) }
	switch {
	case c.Ledger == nil:
		return missing("Ledger")
	case c.NextBlockValidators == nil:
		return missing("NextBlockValidators")
	case c.GetVerifiedTransactions == nil:
		return missing("GetVerifiedTransactions")
	case c.GetPooledTransaction == nil:
		return missing("GetPooledTransaction")
	case c.VerifyTx == nil:
		return missing("VerifyTx")
	case c.ProcessBlock == nil:
		return missing("ProcessBlock")
	case c.Broadcast == nil:
		return missing("Broadcast")
	case c.Protocol.ValidatorsCountAt(0) <= 0:
		return fmt.Errorf("%w: no validators", ErrBadConfig)
	case c.Protocol.TimePerBlock <= 0 && c.TimePerBlock == nil:
		return fmt.Errorf("%w: no TimePerBlock", ErrBadConfig)
	case c.Protocol.StateRootInHeader && c.StateRootAt == nil:
		return missing("StateRootAt (StateRootInHeader)")
	case c.MinPeers < 0 || c.StartWait < 0:
		return fmt.Errorf("%w: negative MinPeers or StartWait", ErrBadConfig)
	}
	for i, k := range c.Keys {
		if k == nil {
			return fmt.Errorf("%w: key %d is nil", ErrBadConfig, i)
		}
	}
	return nil
}

// applyDefaults fills the optional fields.
func (c *Config) applyDefaults() {
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.Registerer == nil {
		c.Registerer = prometheus.DefaultRegisterer
	}
	if c.ComputeNextBlockValidators == nil {
		c.ComputeNextBlockValidators = c.NextBlockValidators
	}
	if c.TimePerBlock == nil {
		d := c.Protocol.TimePerBlock
		c.TimePerBlock = func() time.Duration { return d }
	}
	if c.RequestTx == nil {
		c.RequestTx = func(...util.Uint256) {}
	}
	if c.StopTxFlow == nil {
		c.StopTxFlow = func() {}
	}
	if c.Clock == nil {
		c.Clock = RealClock{}
	}
	if c.StartWait == 0 {
		c.StartWait = defaultStartWait
	}
}
