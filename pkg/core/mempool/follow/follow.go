// Package follow keeps a memory pool current with the chain: after each
// block it drops the block's transactions and those the new state
// invalidates. It sits beside pkg/core/mempool (which knows nothing of the
// chain) because it subscribes to the chain's block events.
package follow

import (
	"context"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
)

// FollowedChain is what a Follower reads of the chain; *chain.Chain
// implements it.
type FollowedChain interface {
	// Subscribe delivers the chain's events (the follower asks for
	// blocks).
	Subscribe(kinds chain.EventKind, maxPending int) *chain.Subscription
	// StillValidChecker re-checks pooled transactions against the state
	// after the last block, with the Policy values read once.
	StillValidChecker() (func(*transaction.Transaction) error, error)
	// TxStillValid is the same check reading the Policy values per call.
	TxStillValid(tx *transaction.Transaction) error
}

// Follower keeps a pool current with the chain: after each block it drops
// the block's transactions and those the new state invalidates
// (UpdateForBlock). It subscribes at construction, so no block added
// after New returns is missed.
type Follower struct {
	c    FollowedChain
	pool *mempool.Pool
	log  *zap.Logger
	sub  *chain.Subscription
}

// New subscribes to c's blocks for pool; Run then applies them.
// A nil log logs nothing.
func New(c FollowedChain, pool *mempool.Pool, log *zap.Logger) *Follower {
	if log == nil {
		log = zap.NewNop()
	}
	return &Follower{c: c, pool: pool, log: log, sub: c.Subscribe(chain.EventBlock, 0)}
}

// Run brings the pool up to each block until ctx ends, then closes the
// subscription; it always returns nil. If the subscription is dropped
// (the pool fell far behind), it subscribes again and re-checks the
// whole pool against the chain.
func (f *Follower) Run(ctx context.Context) error {
	defer func() { f.sub.Close() }()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-f.sub.C:
			if ok {
				f.pool.UpdateForBlock(ev.Block.Transactions, f.stillValid())
				continue
			}
			if ctx.Err() != nil {
				return nil
			}
			f.log.Warn("block events lost, re-checking the whole pool", zap.Error(f.sub.Err()))
			f.sub = f.c.Subscribe(chain.EventBlock, 0)
			f.pool.RemoveStale(f.stillValid())
		}
	}
}

// stillValid is the pool's re-check after a block: the chain's checker
// bound to the new state's Policy values, or the plain per-transaction
// check if that state cannot be read.
func (f *Follower) stillValid() func(*transaction.Transaction) bool {
	check, err := f.c.StillValidChecker()
	if err != nil {
		f.log.Warn("re-checking the pool transaction by transaction", zap.Error(err))
		check = f.c.TxStillValid
	}
	return func(tx *transaction.Transaction) bool { return check(tx) == nil }
}
