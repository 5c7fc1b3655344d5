package node

import (
	"context"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/buildinfo"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/consensus"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/blockqueue"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/services/stateroot"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// networkConfig maps the P2P section and the protocol's seeds onto the
// server's configuration (without the wiring fields).
func networkConfig(cfg config.Config) (network.Config, error) {
	p2p := cfg.ApplicationConfiguration.P2P
	addrs, err := p2p.ListenAddresses()
	if err != nil {
		return network.Config{}, err
	}
	listen := make([]network.ListenAddress, len(addrs))
	for i, a := range addrs {
		listen[i] = network.ListenAddress{Address: a.Address, AnnouncedPort: a.AnnouncedPort}
	}
	p := cfg.ProtocolConfiguration
	return network.Config{
		Magic:                  uint32(p.Magic),
		StateRootInHeader:      p.StateRootInHeader,
		Listen:                 listen,
		Seeds:                  p.SeedList,
		TimePerBlock:           p.TimePerBlock,
		DialTimeout:            p2p.DialTimeout,
		ProtoTickInterval:      p2p.ProtoTickInterval,
		PingInterval:           p2p.PingInterval,
		PingTimeout:            p2p.PingTimeout,
		MinPeers:               p2p.MinPeers,
		MaxPeers:               p2p.MaxPeers,
		AttemptConnPeers:       p2p.AttemptConnPeers,
		BroadcastFactor:        p2p.BroadcastFactor,
		BroadcastTxsBatchDelay: p2p.BroadcastTxsBatchDelay,
		DisableCompression:     p2p.DisableCompression,
		ExtensibleCache:        p2p.ExtensiblePoolSize,
		UserAgent:              buildinfo.UserAgent(),
	}, nil
}

// startNetwork starts the block queue feeding the chain, the P2P server
// and the relay of new blocks. Transactions from peers go to the ingress
// pipeline (and to consensus while a round misses some); extensible
// payloads to the generic admission, then to their category's service.
// The returned stop cancels them and waits until all have returned
// (called before the chain is closed).
func (n *Node) startNetwork(ctx context.Context) (stop func() error, err error) {
	c := n.chain
	cfg, err := networkConfig(n.cfg)
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	log := n.log.Named("p2p")
	q, err := blockqueue.New(blockqueue.Config{Ledger: c, Log: log})
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	onExtensible, err := n.extensibleHandler()
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	cfg.Ledger, cfg.Blocks, cfg.Adding, cfg.Log = c, sharingSink{q, n.pool.TryGet}, c.Adding, log
	cfg.Clock, cfg.Transport = n.clock, n.transport
	cfg.Pool = poolView{n.pool, n.pipe}
	cfg.Notary = n.notaryNetConfig()
	var sq *blockqueue.Queue
	if cfg.StateExchange, sq, err = n.stateExchange(n.syncModule(), log); err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	cfg.ValidatorsCount = func() int { return n.cfg.ProtocolConfiguration.ValidatorsCountAt(c.BlockHeight()) }
	cons, pipe := n.cons, n.pipe
	submitted, err := n.wireNetwork(&cfg)
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	cfg.OnTransaction = func(peer uint64, tx *transaction.Transaction) {
		if cons != nil {
			cons.OnTransaction(tx) // proposals may carry transactions the pool refuses
		}
		// Each peer is a pipeline source of its own (its own queue and
		// quota; the RPC server is txpipe.SourceLocal, 0, which no peer id
		// is): one peer's flood waits behind itself. Dedup and queue limits
		// answer here; verdicts come later.
		submitted(pipe.Submit(txpipe.Source(peer), tx))
	}
	cfg.OnExtensible = onExtensible
	if n.p2pTune != nil {
		n.p2pTune(&cfg)
	}
	srv, err := network.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	return n.runNetwork(ctx, srv, log, q, sq)
}

// extensibleHandler is the check of every extensible payload from a peer:
// the generic admission (sender, witness), then the category's service
// (consensus, state roots when the service runs).
func (n *Node) extensibleHandler() (func(*payload.Extensible) error, error) {
	c := n.chain
	adm, err := consensus.NewAdmission(consensus.AdmissionConfig{
		Magic:               uint32(n.cfg.ProtocolConfiguration.Magic),
		StateRootInHeader:   n.cfg.ProtocolConfiguration.StateRootInHeader,
		Height:              c.BlockHeight,
		NextBlockValidators: c.NextBlockValidators,
		Service:             n.cons,
		// ExtensibleAdmission (below) checks every witness first.
		WitnessVerified: true,
	})
	if err != nil {
		return nil, err
	}
	handlers := map[string]func(*payload.Extensible) error{consensus.Category: adm.Check}
	if n.sr != nil {
		handlers[stateroot.Category] = stateRootHandler(n.sr)
	}
	ext, err := n.extensibleAdmission(handlers)
	if err != nil {
		return nil, err
	}
	return ext.Check, nil
}

// runNetwork runs the block queues, the server and the relay of the
// chain's new blocks in one group, and returns once the server listens
// (the returned stop ends them all) or has failed to start.
func (n *Node) runNetwork(ctx context.Context, srv *network.Server, log *zap.Logger, queues ...*blockqueue.Queue) (func() error, error) {
	g := newGroup(ctx, log)
	sub := n.chain.Subscribe(chain.EventBlock, 0)
	runDone := make(chan struct{})
	for _, q := range queues {
		if q != nil {
			g.goRun(q.Run)
		}
	}
	g.goRun(func(ctx context.Context) error {
		defer close(runDone)
		return srv.Run(ctx)
	})
	g.goRun(func(context.Context) error {
		for ev := range sub.C {
			srv.RelayBlock(ev.Block)
		}
		return nil
	})
	stop := func() error {
		sub.Close()
		if err := g.stop(); err != nil {
			return fmt.Errorf("p2p: %w", err)
		}
		return nil
	}
	select {
	case <-srv.Ready():
		n.p2p.Store(srv)
		return stop, nil
	case <-runDone:
		// Run ends before Ready only with an error, but a context
		// cancelled right after Ready can end it too: never report a
		// start without a stop.
		if err := stop(); err != nil {
			return nil, err
		}
		return nil, errors.New("p2p: server stopped while starting")
	}
}

// poolView is the mempool as the P2P server reads it: a transaction is
// known when it is pooled, being verified or was processed recently.
type poolView struct {
	pool *mempool.Pool
	pipe *txpipe.Pipeline
}

func (p poolView) ContainsTx(h util.Uint256) bool { return !p.pipe.ShouldRequest(h) }

func (p poolView) GetTx(h util.Uint256) (*transaction.Transaction, bool) { return p.pool.TryGet(h) }

func (p poolView) TxHashes() []util.Uint256 {
	txs := p.pool.GetVerifiedTransactions()
	out := make([]util.Uint256, len(txs))
	for i, tx := range txs {
		out[i] = tx.Hash()
	}
	return out
}

// sharingSink queues blocks from peers after replacing their transactions
// by the pooled instances of the same transactions
// (block.ShareTransactions): an RPC node has most of a new block's
// transactions pooled already, and without this holds them twice (and
// the block's message buffer) until the block is added.
type sharingSink struct {
	q      network.BlockSink
	pooled func(util.Uint256) (*transaction.Transaction, bool)
}

func (s sharingSink) Put(b *block.Block) error {
	b.ShareTransactions(s.pooled)
	return s.q.Put(b)
}
