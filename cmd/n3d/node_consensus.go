package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/consensus"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
	"go.uber.org/zap"
)

// Errors of the extensible payload handler (the P2P server logs them and
// neither caches nor relays the payload).
var (
	errExtensibleCategory = errors.New("extensible: unknown category")
	errExtensibleHeight   = errors.New("extensible: not valid at the current height")
	errExtensibleSender   = errors.New("extensible: sender is not a validator")
)

// consensusKeys reads the consensus wallet and decrypts its keys when the
// service is enabled, so that a wrong path or password fails at start-up.
func consensusKeys(c config.InternalService) ([]*keys.PrivateKey, error) {
	if !c.Enabled {
		return nil, nil
	}
	data, err := c.UnlockWallet.ReadFile()
	if err != nil {
		return nil, fmt.Errorf("consensus: %w", err)
	}
	w, err := wallet.FromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("consensus: wallet %s: %w", c.UnlockWallet.Path, err)
	}
	ks, err := consensus.KeysFromWallet(w, c.UnlockWallet.Password)
	if err != nil {
		return nil, fmt.Errorf("consensus: wallet %s: %w", c.UnlockWallet.Path, err)
	}
	return ks, nil
}

// nextValidators are the validators of the next block (NEO
// getNextBlockValidators on the current state), in the contract's order.
func nextValidators(svc *services) (keys.PublicKeys, error) {
	d := svc.chain.DAO().Private()
	raw, err := svc.natives.Governance.NEO.NextBlockValidators(d)
	err = errors.Join(err, d.Discard())
	if err != nil {
		return nil, err
	}
	return publicKeys(raw)
}

// electedValidators are the validators the current votes elect (NEO's
// ComputeNextBlockValidators for the next block): at a committee refresh
// height they give the proposal's NextConsensus.
func electedValidators(c *chain.Chain, neo *native.NEO) (keys.PublicKeys, error) {
	d := c.DAO().Private()
	raw, err := neo.ComputeNextBlockValidators(d, c.BlockHeight()+1)
	if err = errors.Join(err, d.Discard()); err != nil {
		return nil, err
	}
	return publicKeys(raw)
}

func publicKeys(raw [][]byte) (keys.PublicKeys, error) {
	out := make(keys.PublicKeys, len(raw))
	for i, b := range raw {
		k, err := keys.NewPublicKeyFromBytes(b)
		if err != nil {
			return nil, err
		}
		out[i] = k
	}
	return out, nil
}

// blockTime is the current block time: Policy's MillisecondsPerBlock from
// Echidna on, the configured TimePerBlock before (or when unset).
func blockTime(svc *services, log *zap.Logger) time.Duration {
	c := svc.chain
	def := c.Config().TimePerBlock
	if !c.Config().Enabled(protocol.HFEchidna, c.BlockHeight()) {
		return def
	}
	d := c.DAO().Private()
	ms, err := svc.natives.Core.Policy.MillisecondsPerBlock(d)
	err = errors.Join(err, d.Discard())
	if err != nil || ms == 0 {
		log.Warn("Policy MillisecondsPerBlock unavailable, using TimePerBlock", zap.Error(err))
		return def
	}
	return time.Duration(ms) * time.Millisecond
}

// proposable lists the pooled transactions a proposal may take: the
// pool's order, without those the chain already holds or that expire
// with the next block (the pool catches up with a block asynchronously).
func proposable(c *chain.Chain, pool *mempool.Pool) []*transaction.Transaction {
	txs := pool.GetVerifiedTransactions()
	h := c.BlockHeight()
	out := txs[:0]
	for _, tx := range txs {
		if tx.ValidUntilBlock <= h {
			continue
		}
		if on, err := c.HasTransaction(tx.Hash()); err != nil || on {
			continue
		}
		out = append(out, tx)
	}
	return out
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

// newConsensus builds the dBFT service over the node's chain, pool and
// P2P server (which it reaches once it runs).
func (n *node) newConsensus(svc *services, ks []*keys.PrivateKey) (*consensus.Service, error) {
	c, log := svc.chain, n.log.Named("consensus")
	cs, err := consensus.New(consensus.Config{
		Logger:              log,
		Protocol:            n.cfg.ProtocolConfiguration,
		Keys:                ks,
		Ledger:              c,
		NextBlockValidators: func() (keys.PublicKeys, error) { return nextValidators(svc) },
		ComputeNextBlockValidators: func() (keys.PublicKeys, error) {
			return electedValidators(c, svc.natives.Governance.NEO)
		},
		TimePerBlock:            func() time.Duration { return blockTime(svc, log) },
		GetVerifiedTransactions: func() []*transaction.Transaction { return proposable(c, svc.pool) },
		GetPooledTransaction:    svc.pool.TryGet,
		VerifyTx:                c.VerifyTxConcurrent,
		ProcessBlock:            func(b *block.Block) error { return addAgreedBlock(c, b) },
		Broadcast: func(e *payload.Extensible) {
			if srv := svc.p2p.Load(); srv != nil {
				srv.RelayExtensible(e)
			}
		},
		RequestTx: func(hashes ...util.Uint256) { // answers reach OnTransaction (node_network.go)
			if srv := svc.p2p.Load(); srv != nil {
				srv.RequestTxs(hashes...)
			}
		},
	})
	if err != nil {
		return nil, fmt.Errorf("consensus: %w", err)
	}
	return cs, nil
}

// startConsensus runs the dBFT service and tells it about new blocks and
// pooled transactions.
func (n *node) startConsensus(ctx context.Context, svc *services) (stop func() error, err error) {
	g := newGroup(ctx, n.log.Named("consensus"))
	g.goRun(svc.cons.Run)
	g.goRun(func(ctx context.Context) error {
		notifyConsensus(ctx, svc)
		return nil
	})
	return g.stop, nil
}

// notifyConsensus forwards chain blocks and pool additions to the
// service until ctx ends, subscribing again when a subscription is
// dropped. A pooled transaction is also offered as a proposed one (it may
// have come from RPC or finished verification after the proposal).
func notifyConsensus(ctx context.Context, svc *services) {
	blocks := svc.chain.Subscribe(chain.EventBlock, 0)
	pooled := svc.pool.Subscribe(1024)
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
				blocks = svc.chain.Subscribe(chain.EventBlock, 0)
			}
			svc.cons.NotifyBlock()
		case ev, ok := <-pooled.C:
			if !ok {
				pooled = svc.pool.Subscribe(1024)
			}
			if !ok || ev.Kind == mempool.TransactionAdded {
				svc.cons.NotifyPoolTransaction()
			}
			if ok && ev.Kind == mempool.TransactionAdded && ev.Tx != nil {
				svc.cons.OnTransaction(ev.Tx)
			}
		}
	}
}

// extensibleHandler checks extensible payloads from peers: dBFT payloads
// valid at the current height, sent by a validator of the next block; the
// consensus service (when it runs) takes them, else their witness is
// checked here before they are relayed.
type extensibleHandler struct {
	svc   *services
	magic uint32

	mu      sync.Mutex
	height  uint32
	senders map[util.Uint160]bool // the next validators' accounts at height
}

func newExtensibleHandler(svc *services, magic uint32) *extensibleHandler {
	return &extensibleHandler{svc: svc, magic: magic}
}

func (h *extensibleHandler) handle(e *payload.Extensible) error {
	if e.Category != consensus.Category {
		return fmt.Errorf("%w: %q", errExtensibleCategory, e.Category)
	}
	height := h.svc.chain.BlockHeight()
	if height < e.ValidBlockStart || height >= e.ValidBlockEnd {
		return fmt.Errorf("%w: [%d, %d) at %d", errExtensibleHeight, e.ValidBlockStart, e.ValidBlockEnd, height)
	}
	ok, err := h.isValidator(height, e.Sender)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: %s", errExtensibleSender, e.Sender.String())
	}
	if cons := h.svc.cons; cons != nil {
		if err := cons.OnPayload(e); !errors.Is(err, consensus.ErrNotRunning) {
			return err
		}
	}
	p, err := consensus.PayloadFromExtensible(h.magic, e)
	if err != nil {
		return err
	}
	_, err = p.VerifyWitness()
	return err
}

// isValidator reports whether acc is the standard account of a validator
// of the block after height.
func (h *extensibleHandler) isValidator(height uint32, acc util.Uint160) (bool, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.senders == nil || h.height != height {
		vals, err := nextValidators(h.svc)
		if err != nil {
			return false, fmt.Errorf("extensible: next validators: %w", err)
		}
		h.senders = make(map[util.Uint160]bool, len(vals))
		for _, v := range vals {
			h.senders[v.ScriptHash()] = true
		}
		h.height = height
	}
	return h.senders[acc], nil
}
