package node

import (
	"context"
	"errors"
	"fmt"
	"github.com/n3d-io/n3d/pkg/clock"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/consensus"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// ConsensusKeys reads the consensus wallet of section c and decrypts its
// keys when the service is enabled (nil otherwise), so that a wrong path
// or password fails at start-up.
func ConsensusKeys(c config.InternalService) ([]*keys.PrivateKey, error) {
	return serviceKeys("consensus", c)
}

// blockTime is the current block time (chain.LimitsAt: Policy's
// MillisecondsPerBlock from Echidna on, the configured TimePerBlock
// before); on an error the configured one, with a warning.
func blockTime(c *chain.Chain, log *zap.Logger) time.Duration {
	l, err := c.LimitsAt(c.BlockHeight())
	if err != nil {
		log.Warn("block time unavailable, using TimePerBlock", zap.Error(err))
		return c.Config().TimePerBlock
	}
	return l.TimePerBlock
}

// addAgreedBlock adds a block the validators agreed on (relayed by the
// P2P stage's block subscription). The same block often arrives from a
// faster validator first: that is no failure (another block at that
// height is).
func addAgreedBlock(c *chain.Chain, b *block.Block) error {
	err := c.AddBlock(b)
	if errors.Is(err, chain.ErrAlreadyExists) {
		if h, ok := c.GetHeaderHash(b.Index); ok && h == b.Hash() {
			return nil
		}
	}
	return err
}

// consensusConfig is the dBFT service's Config over the node's chain,
// pool and P2P server (which it reaches once it runs).
func (n *Node) consensusConfig() consensus.Config {
	c, pool, log := n.chain, n.pool, n.log.Named("consensus")
	return consensus.Config{
		Logger:                     log,
		Protocol:                   n.cfg.ProtocolConfiguration,
		Keys:                       n.consKeys,
		Ledger:                     c,
		NextBlockValidators:        c.NextBlockValidators,
		ComputeNextBlockValidators: c.ComputeNextBlockValidators,
		TimePerBlock:               func() time.Duration { return blockTime(c, log) },
		GetVerifiedTransactions: func() []*transaction.Transaction {
			return consensus.Proposable(pool.GetVerifiedTransactions(), c.BlockHeight(), c.HasTransaction)
		},
		GetPooledTransaction: pool.TryGet,
		VerifyTx:             c.VerifyTxConcurrent,
		ProcessBlock:         func(b *block.Block) error { return addAgreedBlock(c, b) },
		StateRootAt:          stateRootAt(c),
		Broadcast: func(e *payload.Extensible) {
			if srv := n.p2p.Load(); srv != nil {
				srv.RelayExtensible(e)
			}
		},
		RequestTx: func(hashes ...util.Uint256) { // answers reach OnTransaction (network.go)
			if srv := n.p2p.Load(); srv != nil {
				srv.RequestTxs(hashes...)
			}
		},
	}
}

// newConsensus builds the dBFT service.
func (n *Node) newConsensus() (*consensus.Service, error) {
	cfg := n.consensusConfig()
	if err := n.wireConsensusState(&cfg); err != nil {
		return nil, err
	}
	if n.clock != nil {
		cfg.Clock = consensusClock{n.clock}
	}
	cs, err := consensus.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("consensus: %w", err)
	}
	return cs, nil
}

// startConsensus runs the dBFT service and tells it about new blocks and
// pooled transactions; it returns the stage's stop.
func (n *Node) startConsensus(ctx context.Context) (stop func() error) {
	g := newGroup(ctx, n.log.Named("consensus"))
	g.goRun(n.cons.Run)
	g.goRun(func(ctx context.Context) error {
		n.notifyConsensus(ctx)
		return nil
	})
	return g.stop
}

// notifyConsensus forwards chain blocks and pool additions to the
// service until ctx ends, subscribing again when a subscription is
// dropped. A pooled transaction is also offered as a proposed one (it may
// have come from RPC or finished verification after the proposal).
func (n *Node) notifyConsensus(ctx context.Context) {
	blocks := n.chain.Subscribe(chain.EventBlock, 0)
	pooled := n.pool.Subscribe(1024)
	defer func() {
		blocks.Close()
		pooled.Close()
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-blocks.C:
			if !ok {
				blocks = n.chain.Subscribe(chain.EventBlock, 0)
			}
			n.cons.NotifyBlock()
		case ev, ok := <-pooled.C:
			if !ok {
				pooled = n.pool.Subscribe(1024)
			}
			if !ok || ev.Kind == mempool.TransactionAdded {
				n.cons.NotifyPoolTransaction()
			}
			if ok && ev.Kind == mempool.TransactionAdded && ev.Tx != nil {
				n.cons.OnTransaction(ev.Tx)
			}
		}
	}
}

// consensusClock makes the node's clock (WithClock) a consensus.Clock: the
// methods are the same but for NewTimer's result type.
type consensusClock struct{ clock.Clock }

// NewTimer implements consensus.Clock.
func (c consensusClock) NewTimer(d time.Duration) consensus.ClockTimer { return c.Clock.NewTimer(d) }
