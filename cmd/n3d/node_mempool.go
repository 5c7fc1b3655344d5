package main

import (
	"context"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

// chainVerifier is the chain as the pipeline's workers use it: the
// lock-free verification, so they run in parallel with each other and with
// block processing.
type chainVerifier struct{ c *chain.Chain }

func (v chainVerifier) BlockHeight() uint32 { return v.c.BlockHeight() }

func (v chainVerifier) VerifyTx(tx *transaction.Transaction) error { return v.c.VerifyTxConcurrent(tx) }

// startMempool starts the memory pool's ingress pipeline and the loop that
// brings the pool up to every block the chain adds. Pooled transactions
// are announced to peers through svc.p2p once it is set.
func (n *node) startMempool(ctx context.Context, svc *services) (stop func() error, err error) {
	c := svc.chain
	log := n.log.Named("mempool")
	pool, err := mempool.New(mempool.Config{
		Capacity:   n.cfg.ProtocolConfiguration.MemPoolSize,
		Ledger:     c,
		Registerer: prometheus.DefaultRegisterer,
	})
	if err != nil {
		return nil, fmt.Errorf("mempool: %w", err)
	}
	pipe, err := txpipe.New(txpipe.Config{
		Verifier: chainVerifier{c},
		Pool:     pool,
		Relay: func(hashes []util.Uint256) {
			if srv := svc.p2p.Load(); srv != nil {
				srv.AnnounceTxs(hashes)
			}
		},
		// Announcements are batched as neo-go's P2P.BroadcastTxsBatchDelay
		// says (the pipeline announces through AnnounceTxs, unbatched).
		RelayDelay: network.TxBatchDelay(n.cfg.ApplicationConfiguration.P2P.BroadcastTxsBatchDelay,
			n.cfg.ProtocolConfiguration.TimePerBlock),
		// Without Relay the node announces only what it was given first
		// hand (RPC), not what peers sent it.
		RelayLocalOnly: !n.cfg.ApplicationConfiguration.Relay,
	})
	if err != nil {
		return nil, fmt.Errorf("mempool: %w", err)
	}
	svc.pool, svc.pipe = pool, pipe
	g := newGroup(ctx, log)
	g.goRun(pipe.Run)
	sub := c.Subscribe(chain.EventBlock, 0)
	g.goRun(func(ctx context.Context) error {
		updatePool(ctx, c, pool, sub, log)
		return nil
	})
	return g.stop, nil
}

// updatePool brings the pool up to each block the chain adds, until ctx
// ends; it closes sub. If the subscription is dropped (the pool fell far
// behind), it subscribes again and re-checks the whole pool against the
// chain.
func updatePool(ctx context.Context, c *chain.Chain, pool *mempool.Pool, sub *chain.Subscription, log *zap.Logger) {
	defer func() { sub.Close() }()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-sub.C:
			if ok {
				pool.UpdateForBlock(ev.Block.Transactions, stillValidFunc(c, log))
				continue
			}
			if ctx.Err() != nil {
				return
			}
			log.Warn("block events lost, re-checking the whole pool", zap.Error(sub.Err()))
			sub = c.Subscribe(chain.EventBlock, 0)
			pool.RemoveStale(stillValidFunc(c, log))
		}
	}
}

// stillValidFunc is the pool's re-check after a block: the chain's checker
// bound to the new state's Policy values, or the plain per-transaction
// check if that state cannot be read.
func stillValidFunc(c *chain.Chain, log *zap.Logger) func(*transaction.Transaction) bool {
	check, err := c.StillValidChecker()
	if err != nil {
		log.Warn("re-checking the pool transaction by transaction", zap.Error(err))
		check = c.TxStillValid
	}
	return func(tx *transaction.Transaction) bool { return check(tx) == nil }
}
