package node

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/consensus"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/services/stateroot"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// extensibleVerifyMaxGas bounds the witness check of an extensible
// payload (the reference's 0.06 GAS).
const extensibleVerifyMaxGas int64 = 6_000_000

// serviceKeys reads the wallet of an internal service section (Consensus,
// StateRoot) and decrypts its keys when the service is enabled (nil
// otherwise), so that a wrong path or password fails at start-up.
func serviceKeys(name string, c config.InternalService) ([]*keys.PrivateKey, error) {
	if !c.Enabled {
		return nil, nil
	}
	return walletKeys(name, c.UnlockWallet)
}

// walletKeys reads the service name's wallet w and decrypts its keys.
func walletKeys(name string, w config.Wallet) ([]*keys.PrivateKey, error) {
	data, err := w.ReadFile()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	nep6, err := wallet.FromBytes(data)
	if err != nil {
		return nil, fmt.Errorf("%s: wallet %s: %w", name, w.Path, err)
	}
	ks, err := consensus.KeysFromWallet(nep6, w.Password)
	if err != nil {
		return nil, fmt.Errorf("%s: wallet %s: %w", name, w.Path, err)
	}
	return ks, nil
}

// WithStateRootKeys gives the state-root service its signing keys
// instead of reading the StateRoot section's UnlockWallet (the service
// signs with the first designated state validator among them).
func WithStateRootKeys(ks ...*keys.PrivateKey) Option {
	return func(o *options) { o.srKeys, o.srKeysSet = ks, true }
}

// readStateRootKeys sets the state-root service's keys: the option's, or
// those of the StateRoot section's wallet when the section is enabled.
func (n *Node) readStateRootKeys(o options) error {
	if o.srKeysSet {
		n.srKeys = o.srKeys
		return nil
	}
	ks, err := serviceKeys("stateroot", n.cfg.ApplicationConfiguration.StateRoot)
	n.srKeys = ks
	return err
}

// warnUnsupported logs, once at start, each configured setting n3d does
// not implement (config.(*Config).Unsupported).
func (n *Node) warnUnsupported() {
	for _, u := range n.cfg.Unsupported() {
		n.log.Warn(u.String())
	}
}

// newStateRoot builds the state-root service every node runs: it checks
// and stores the state validators' roots, and signs when the StateRoot
// section's wallet holds a designated state validator's key. Broadcast
// and Synced reach the P2P server once it runs.
func (n *Node) newStateRoot() (*stateroot.Service, error) {
	c, log := n.chain, n.log.Named("stateroot")
	svc, err := stateroot.New(stateroot.Config{
		Logger: log,
		Magic:  uint32(n.cfg.ProtocolConfiguration.Magic),
		Ledger: chain.StateRootReader{Chain: c, Natives: n.natives},
		Keys:   n.srKeys,
		Broadcast: func(e *payload.Extensible) {
			if srv := n.p2p.Load(); srv != nil {
				srv.RelayExtensible(e)
			}
		},
		Synced: func() bool {
			srv := n.p2p.Load()
			return srv != nil && srv.IsInSync()
		},
		TimePerBlock: func() time.Duration { return blockTime(c, log) },
		Registerer:   n.reg,
	})
	if err != nil {
		return nil, fmt.Errorf("stateroot: %w", err)
	}
	return svc, nil
}

// startStateRoot runs the state-root service and tells it about every
// added block; it returns the stage's stop.
func (n *Node) startStateRoot(ctx context.Context) (stop func() error) {
	g := newGroup(ctx, n.log.Named("stateroot"))
	g.goRun(n.sr.Run)
	g.goRun(func(ctx context.Context) error {
		blocks := n.chain.Subscribe(chain.EventBlock, 0)
		defer func() { blocks.Close() }()
		for {
			select {
			case <-ctx.Done():
				return nil
			case _, ok := <-blocks.C:
				if !ok { // dropped: subscribe again, nothing is lost (the service reads the height)
					blocks = n.chain.Subscribe(chain.EventBlock, 0)
				}
				n.sr.NotifyBlock()
			}
		}
	})
	return g.stop
}

// stateRootHandler is the P2P admission rule of StateService payloads:
// the service's verdict, a misbehaving sender reported as
// network.ErrInvalidExtensible (the server drops it).
func stateRootHandler(svc *stateroot.Service) func(*payload.Extensible) error {
	return func(e *payload.Extensible) error {
		err := svc.OnPayload(e)
		if errors.Is(err, stateroot.ErrInvalidPayload) || errors.Is(err, stateroot.ErrInvalidMessage) {
			return fmt.Errorf("%w: %w", network.ErrInvalidExtensible, err)
		}
		return err
	}
}

// extensibleAdmission is the P2P server's rule for extensible payloads:
// the generic checks of every category (height window, allowed sender,
// witness) and then handlers, the rules of the categories the node's
// services take (a valid payload of another category is relayed).
func (n *Node) extensibleAdmission(handlers map[string]func(*payload.Extensible) error) (*network.ExtensibleAdmission, error) {
	c := n.chain
	return network.NewExtensibleAdmission(network.ExtensibleConfig{
		Height:  c.BlockHeight,
		Senders: c.ExtensibleSenders,
		VerifyWitness: func(e *payload.Extensible) error {
			_, err := c.VerifyWitness(e.Sender, e, &e.Witness, extensibleVerifyMaxGas)
			return err
		},
		Handlers: handlers,
	})
}

// StateRoot is the state-root service (nil until Start).
func (n *Node) StateRoot() *stateroot.Service { return n.sr }
