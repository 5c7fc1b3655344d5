package node

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/network/notarypool"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/n3d-io/n3d/pkg/services/notary"
	"github.com/n3d-io/n3d/pkg/util"
)

// notaryDataError is a notary request refused by the checks of the
// payload itself, before its fallback's verification (neo-go's "data
// verification failed"), worded as neo-go. It wraps none of the chain's
// transaction verdicts, so the RPC server answers it apart from the
// fallback's; only a payload witness that returned false wraps
// chain.ErrWitnessFalse (neo-go answers it as an invalid signature).
type notaryDataError struct {
	msg   string
	cause error
}

func (e *notaryDataError) Error() string { return e.msg }

func (e *notaryDataError) Unwrap() error { return e.cause }

func notaryDataErrorf(format string, args ...any) error {
	return &notaryDataError{msg: fmt.Sprintf(format, args...)}
}

// newNotaryPool builds the P2P notary request pool on a network with
// P2PSigExtensions (nil otherwise). Fees are checked against the payer's
// Notary deposit when the Notary contract sends the fallback, against the
// sender's GAS otherwise.
func (n *Node) newNotaryPool() error {
	p := n.cfg.ProtocolConfiguration
	if !p.P2PSigExtensions {
		return nil
	}
	c := n.chain
	pool, err := notarypool.New(notarypool.Config{
		Capacity:   p.P2PNotaryRequestPayloadPoolSize,
		NotaryHash: notary.NotaryHash,
		Balance: func(primary, secondary util.Uint160) (*big.Int, error) {
			if primary == notary.NotaryHash && secondary != (util.Uint160{}) {
				amount, _, err := c.NotaryDeposit(secondary)
				return amount, err
			}
			return c.GASBalance(primary)
		},
	})
	if err != nil {
		return fmt.Errorf("notary pool: %w", err)
	}
	n.notaryPool = pool
	n.notaryPoolSize, err = promutil.Register(n.reg, prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: "n3d", Subsystem: "notary", Name: "pool_requests",
		Help: "P2P notary requests in the notary request pool.",
	}))
	if err != nil {
		return fmt.Errorf("notary pool: %w", err)
	}
	return nil
}

// NotaryPool is the P2P notary request pool (nil without
// P2PSigExtensions).
func (n *Node) NotaryPool() *notarypool.Pool { return n.notaryPool }

// Notary is the notary service (nil when disabled or not started).
func (n *Node) Notary() *notary.Service { return n.notary.Load() }

// notaryNetConfig is the P2P server's notary relay: requests from peers
// are verified and pooled as submitted ones (the server announces them).
func (n *Node) notaryNetConfig() *network.NotaryConfig {
	if n.notaryPool == nil {
		return nil
	}
	return &network.NotaryConfig{Pool: n.notaryPool, OnRequest: n.poolNotaryRequest}
}

// verifyNotaryRequest applies neo-go's checks of a request before its
// fallback's: the payload witness of the fallback's second signer (the
// payer) over the request, the Notary contract as the fallback's sender
// and not the main transaction's, and a fallback that expires before the
// payer's deposit unlocks.
func (n *Node) verifyNotaryRequest(r *payload.P2PNotaryRequest) error {
	c := n.chain
	fb := r.FallbackTransaction
	payer := fb.Signers[1].Account
	if _, err := c.VerifyWitness(payer, r, &r.Witness, chain.MaxVerificationGas); err != nil {
		if errors.Is(err, chain.ErrWitnessFalse) {
			return &notaryDataError{msg: "bad P2PNotaryRequest payload witness: signature check failed: invalid signature",
				cause: chain.ErrWitnessFalse}
		}
		return notaryDataErrorf("bad P2PNotaryRequest payload witness: signature check failed: %v", err)
	}
	if s := fb.Sender(); s != notary.NotaryHash {
		return notaryDataErrorf("P2PNotary contract should be a sender of the fallback transaction, got %s", address.Uint160ToString(s))
	}
	if r.MainTransaction.Sender() == notary.NotaryHash {
		return notaryDataErrorf("P2PNotary contract is not allowed to be the sender of the main transaction")
	}
	_, till, err := c.NotaryDeposit(payer)
	if err != nil {
		return fmt.Errorf("notary deposit of %s: %w", payer.String(), err)
	}
	if fb.ValidUntilBlock >= till {
		return notaryDataErrorf("fallback transaction is valid after deposit is unlocked: ValidUntilBlock is %d, deposit lock for %s expires at %d",
			fb.ValidUntilBlock, address.Uint160ToString(payer), till)
	}
	return nil
}

// poolNotaryRequest verifies a request (its payload, then its fallback as
// a partially signed transaction) and pools it; the notary service, when
// running, learns the requests the pool took and dropped.
func (n *Node) poolNotaryRequest(r *payload.P2PNotaryRequest) error {
	if err := n.verifyNotaryRequest(r); err != nil {
		return err
	}
	if err := n.chain.VerifyPartialTx(r.FallbackTransaction); err != nil {
		return err
	}
	removed, err := n.notaryPool.Add(r)
	if err != nil {
		return err
	}
	n.notaryPoolSize.Set(float64(n.notaryPool.Count()))
	if svc := n.notary.Load(); svc != nil {
		for _, d := range removed {
			svc.OnRequestRemoval(d)
		}
		svc.OnNewRequest(r)
	}
	return nil
}

// notaryRPC is the notary pool as the RPC server's notary methods use it.
type notaryRPC struct{ n *Node }

var _ server.NotaryHandler = notaryRPC{}

// SubmitNotaryRequest pools a request and announces it to the peers.
func (h notaryRPC) SubmitNotaryRequest(r *payload.P2PNotaryRequest) error {
	if err := h.n.poolNotaryRequest(r); err != nil {
		return err
	}
	if p := h.n.p2p.Load(); p != nil {
		p.RelayNotaryRequest(r)
	}
	return nil
}

func (h notaryRPC) NotaryRequests() []*payload.P2PNotaryRequest { return h.n.notaryPool.Requests() }

func (h notaryRPC) FindTransaction(x util.Uint256) (*transaction.Transaction, bool) {
	return h.n.notaryPool.FindTransaction(x)
}

// notaryHandler is nil (the methods answer that P2PSigExtensions are off)
// without a notary pool.
func (n *Node) notaryHandler() server.NotaryHandler {
	if n.notaryPool == nil {
		return nil
	}
	return notaryRPC{n}
}

// NotaryKeys reads the P2PNotary section's wallet and decrypts its keys.
func NotaryKeys(c config.InternalService) ([]*keys.PrivateKey, error) {
	return walletKeys("notary", c.UnlockWallet)
}

// startNotary starts, on a network with P2PSigExtensions, what follows the
// chain's blocks for the notary pool (dropping the requests a block made
// stale, as neo-go's RemoveStale) and, when the P2PNotary section enables
// it, the notary service (after the mempool and P2P, which relay what it
// completes). The returned stop is nil without P2PSigExtensions.
func (n *Node) startNotary(ctx context.Context) (stop func() error, err error) {
	if n.notaryPool == nil {
		return nil, nil
	}
	log := n.log.Named("notary")
	g := newGroup(ctx, log)
	var svc *notary.Service
	if a := n.cfg.ApplicationConfiguration.P2PNotary; a.Enabled {
		if svc, err = n.newNotaryService(a, log); err != nil {
			g.cancel()
			return nil, err
		}
		g.goRun(svc.Run)
	}
	blocks := n.chain.Subscribe(chain.EventBlock, 0)
	if svc != nil {
		// After the subscription, so that no block in between is missed;
		// the requests pooled before the service existed are handed over
		// (a request pooled meanwhile is taken once).
		n.notary.Store(svc)
		for _, r := range n.notaryPool.Requests() {
			svc.OnNewRequest(r)
		}
	}
	g.goRun(func(ctx context.Context) error {
		n.followNotary(ctx, svc, blocks)
		return nil
	})
	return g.stop, nil
}

func (n *Node) newNotaryService(a config.InternalService, log *zap.Logger) (*notary.Service, error) {
	ks, err := NotaryKeys(a)
	if err != nil {
		return nil, err
	}
	pipe := n.pipe
	svc, err := notary.New(notary.Config{
		Magic:      uint32(n.cfg.ProtocolConfiguration.Magic),
		Keys:       ks,
		Ledger:     n.chain,
		Relay:      pipe.SubmitWait,
		Log:        log,
		Registerer: n.reg,
	})
	if err != nil {
		return nil, fmt.Errorf("notary: %w", err)
	}
	if err := svc.UpdateKey(); err != nil {
		return nil, err
	}
	if !svc.Designated() {
		log.Warn("notary: no key of the P2PNotary wallet is designated for the P2PNotary role; "+
			"the service signs nothing until one is", zap.String("wallet", a.UnlockWallet.Path))
	}
	return svc, nil
}

// followNotary updates the notary pool after every block the chain stores
// and then hands the block to the service (nil: none). A dropped
// subscription is renewed (the next block's update covers the missed one:
// it re-checks every request against the current state).
func (n *Node) followNotary(ctx context.Context, svc *notary.Service, blocks *chain.Subscription) {
	defer func() { blocks.Close() }()
	c := n.chain
	relevant := func(fb *transaction.Transaction) bool { return c.PartialTxStillRelevant(fb) == nil }
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-blocks.C:
			if !ok {
				blocks = c.Subscribe(chain.EventBlock, 0)
				continue
			}
			dropped := n.notaryPool.UpdateForBlock(ev.Block.Index, ev.Block.Transactions, relevant)
			n.notaryPoolSize.Set(float64(n.notaryPool.Count()))
			if svc == nil {
				continue
			}
			for _, r := range dropped {
				svc.OnRequestRemoval(r)
			}
			svc.OnBlock()
		}
	}
}
