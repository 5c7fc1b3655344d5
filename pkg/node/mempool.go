package node

import (
	"context"
	"errors"
	"fmt"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/mempool/follow"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/util"
)

// chainVerifier is the chain as the pipeline's workers use it: the
// lock-free verification, so they run in parallel with each other and with
// block processing.
type chainVerifier struct{ c *chain.Chain }

func (v chainVerifier) BlockHeight() uint32 { return v.c.BlockHeight() }

func (v chainVerifier) VerifyTx(tx *transaction.Transaction) error { return v.c.VerifyTxConcurrent(tx) }

// pooledTx is chain.Config.Pooled: the transaction the memory pool holds
// under h (none before the pool starts). Every pooled transaction passed
// chain.VerifyTxConcurrent (the pipeline's workers, the saved pool's
// reload), which lets block verification skip its state-independent
// checks.
func (n *Node) pooledTx(h util.Uint256) (*transaction.Transaction, bool) {
	if p := n.poolRef.Load(); p != nil {
		return p.TryGet(h)
	}
	return nil, false
}

// mempoolConfig is the pool's Config from the node's configuration.
func (n *Node) mempoolConfig() mempool.Config {
	return mempool.Config{
		Capacity:   n.cfg.ProtocolConfiguration.MemPoolSize,
		Ledger:     n.chain,
		Registerer: n.reg,
	}
}

// inlineSubmits bounds the local submissions verified on their callers'
// goroutines at once (txpipe.Config.Inline); more queue for the workers.
const inlineSubmits = 64

// pipelineConfig is the ingress pipeline's Config. Pooled transactions
// are announced to peers through n.p2p once it is set.
func (n *Node) pipelineConfig(pool *mempool.Pool) txpipe.Config {
	a := n.cfg.ApplicationConfiguration
	return txpipe.Config{
		Verifier:  chainVerifier{n.chain},
		Pool:      pool,
		PerSource: perSourceQueue(n.cfg.ProtocolConfiguration.MemPoolSize),
		Relay: func(hashes []util.Uint256) {
			if srv := n.p2p.Load(); srv != nil {
				// Announced once saved; on a failure the pool keeps
				// what peers sent (RPC's own are refused by SubmitTx).
				if err := n.flushSaved(); err != nil {
					n.log.Named("mempool").Error("pooled transactions not saved", zap.Error(err))
				}
				srv.AnnounceTxs(hashes)
			}
		},
		// Announcements are batched as neo-go's P2P.BroadcastTxsBatchDelay
		// says (the pipeline announces through AnnounceTxs, unbatched).
		RelayDelay: network.TxBatchDelay(a.P2P.BroadcastTxsBatchDelay, n.cfg.ProtocolConfiguration.TimePerBlock),
		// Without Relay the node announces only what it was given first
		// hand (RPC), not what peers sent it.
		RelayLocalOnly: !a.Relay,
		Clock:          n.clock,
		// RPC requests (and the oracle's and notary's submissions) wait
		// for their verdict anyway: they verify on their own goroutine,
		// sparing the hand-offs to a worker and back.
		Inline: inlineSubmits,
	}
}

// startMempool starts the memory pool's ingress pipeline and the follower
// that brings the pool up to every block the chain adds.
func (n *Node) startMempool(ctx context.Context) (stop func() error, err error) {
	pool, err := mempool.New(n.mempoolConfig())
	if err != nil {
		return nil, fmt.Errorf("mempool: %w", err)
	}
	txPool, reloaded, stopSaved, err := n.openSavedPool(pool) // mempoolsave.go
	if err != nil {
		return nil, err
	}
	pcfg := n.pipelineConfig(pool)
	pcfg.Pool = txPool
	if pcfg.OnResult, err = peerTxVerdicts(n.reg); err != nil {
		return nil, errors.Join(fmt.Errorf("mempool: %w", err), stopSaved())
	}
	pipe, err := txpipe.New(pcfg)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("mempool: %w", err), stopSaved())
	}
	n.pool, n.pipe, n.reloaded = pool, pipe, reloaded
	n.poolRef.Store(pool)
	log := n.log.Named("mempool")
	g := newGroup(ctx, log)
	g.goRun(pipe.Run)
	g.goRun(follow.New(n.chain, pool, log).Run)
	return func() error { return errors.Join(g.stop(), stopSaved()) }, nil
}

// perSourceQueue is how many transactions one peer may have waiting for
// verification: a quarter of the pool (at least txpipe's default 1024). In
// a network whose validators hear transactions from one RPC node, that
// node is their only source; a smaller bound dropped part of a burst of
// getdata answers (txpipe.ErrQueueFull), and those transactions reached
// the validators only at the RPC node's re-announcement, blocks later.
func perSourceQueue(memPoolSize int) int {
	return max(1024, memPoolSize/4)
}
