package node

import (
	"context"
	"crypto/tls"
	"fmt"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/n3d-io/n3d/pkg/services/oracle"
)

// The RPC server's submitoracleresponse feeds the oracle service.
var _ server.OracleHandler = (*oracle.Service)(nil)

// WithOracleTLS sets the TLS configuration of the oracle service's HTTPS
// client (default: the system's roots). Tests give their server's CA.
func WithOracleTLS(c *tls.Config) Option { return func(o *options) { o.oracleTLS = c } }

// OracleKeys reads the oracle wallet of section c and decrypts its keys.
func OracleKeys(c config.OracleConfiguration) ([]*keys.PrivateKey, error) {
	return walletKeys("oracle", c.UnlockWallet)
}

// Oracle is the oracle service (nil when disabled).
func (n *Node) Oracle() *oracle.Service { return n.oracle }

// oracleHandler is the oracle service as the RPC server takes it: a nil
// interface when the service is off (submitoracleresponse then answers
// that it is not running).
func (n *Node) oracleHandler() server.OracleHandler {
	if n.oracle == nil {
		return nil
	}
	return n.oracle
}

// oracleConfig is the oracle service's Config: the Oracle section, the
// chain, and the ingress pipeline as the relay of completed responses
// (verified, pooled and announced as sendrawtransaction's are). Broadcast
// is left to the service, which posts submitoracleresponse to
// Oracle.Nodes itself.
func (n *Node) oracleConfig(ctx context.Context, ks []*keys.PrivateKey) oracle.Config {
	pipe := n.pipe
	return oracle.Config{
		Oracle:     n.cfg.ApplicationConfiguration.Oracle,
		Magic:      uint32(n.cfg.ProtocolConfiguration.Magic),
		Keys:       ks,
		Ledger:     n.chain,
		Relay:      func(tx *transaction.Transaction) error { return pipe.SubmitWait(ctx, tx) },
		PooledTx:   n.pool.Contains,
		TLSConfig:  n.oracleTLS,
		Log:        n.log.Named("oracle"),
		Registerer: n.reg,
	}
}

// startOracle starts the oracle service when the Oracle section enables
// it (after the mempool, which relays its responses; before the RPC
// server, which hands it the other nodes' signatures, so stopped after
// it): it loads the pending requests once and then follows the chain's
// blocks (OnBlock for every block, in order). The returned stop cancels
// the service and its block loop and waits for them; it is nil when the
// service is disabled.
func (n *Node) startOracle(ctx context.Context) (stop func() error, err error) {
	if !n.cfg.ApplicationConfiguration.Oracle.Enabled {
		return nil, nil
	}
	ks, err := OracleKeys(n.cfg.ApplicationConfiguration.Oracle)
	if err != nil {
		return nil, err
	}
	log := n.log.Named("oracle")
	g := newGroup(ctx, log)
	svc, err := oracle.New(n.oracleConfig(g.ctx, ks))
	if err != nil {
		g.cancel()
		return nil, fmt.Errorf("oracle: %w", err)
	}
	// Subscribed before the pending requests are read, so that no
	// request stored in between is missed.
	blocks := n.chain.Subscribe(chain.EventBlock, 0)
	if err := svc.LoadPending(); err != nil {
		blocks.Close()
		g.cancel()
		return nil, err
	}
	n.oracle = svc
	g.goRun(svc.Run)
	g.goRun(func(ctx context.Context) error {
		n.followOracle(ctx, svc, blocks, log)
		return nil
	})
	return g.stop, nil
}

// followOracle hands every block the chain stores to the oracle service
// until ctx ends. A dropped subscription is renewed: OnBlock reads all
// the pending requests of the current state, so a missed block only
// delays its requests to the next one.
func (n *Node) followOracle(ctx context.Context, svc *oracle.Service, blocks *chain.Subscription, log *zap.Logger) {
	defer func() { blocks.Close() }()
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-blocks.C:
			if !ok {
				blocks = n.chain.Subscribe(chain.EventBlock, 0)
				continue
			}
			if err := svc.OnBlock(ev.Block); err != nil {
				log.Warn("oracle: block not processed", zap.Uint32("index", ev.Block.Index), zap.Error(err))
			}
		}
	}
}
