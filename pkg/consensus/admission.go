package consensus

import (
	"errors"
	"fmt"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// Errors of extensible payload admission (the P2P server logs them and
// neither caches nor relays the payload).
var (
	ErrExtensibleCategory = errors.New("extensible: unknown category")
	ErrExtensibleHeight   = errors.New("extensible: not valid at the current height")
	ErrExtensibleSender   = errors.New("extensible: sender is not a validator")
)

// AdmissionConfig configures an Admission.
type AdmissionConfig struct {
	// Magic is the network's magic (witnesses sign it).
	Magic uint32
	// StateRootInHeader: proposals carry the previous state root.
	StateRootInHeader bool
	// Height returns the current chain height.
	Height func() uint32
	// NextBlockValidators returns the validators of the block after the
	// current height (chain.NextBlockValidators).
	NextBlockValidators func() (keys.PublicKeys, error)
	// Service, when the node runs consensus, takes the admitted payloads
	// (optional: without it, or while it does not run, the payload's
	// witness is checked here, unless WitnessVerified).
	Service *Service
	// WitnessVerified tells that every payload reaching Check has had its
	// witness verified already (network.ExtensibleAdmission does, through
	// the VM, before any category rule): Check then does not verify it a
	// second time when no service takes the payload (a relay or RPC node).
	WitnessVerified bool
}

// Admission decides which extensible payloads from peers a node accepts
// and relays: dBFT payloads valid at the current height, sent by a
// validator of the next block, with a valid witness. Safe for concurrent
// use.
type Admission struct {
	cfg AdmissionConfig

	mu      sync.Mutex
	height  uint32
	senders map[util.Uint160]bool // the next validators' accounts at height
}

// NewAdmission checks cfg and returns the admission rule.
func NewAdmission(cfg AdmissionConfig) (*Admission, error) {
	if cfg.Height == nil || cfg.NextBlockValidators == nil {
		return nil, fmt.Errorf("%w: admission needs Height and NextBlockValidators", ErrBadConfig)
	}
	return &Admission{cfg: cfg}, nil
}

// Check admits e or says why not; an admitted payload was handed to the
// running service, or had its witness verified. It is the P2P server's
// OnExtensible.
func (a *Admission) Check(e *payload.Extensible) error {
	if e.Category != Category {
		return fmt.Errorf("%w: %q", ErrExtensibleCategory, e.Category)
	}
	height := a.cfg.Height()
	if height < e.ValidBlockStart || height >= e.ValidBlockEnd {
		return fmt.Errorf("%w: [%d, %d) at %d", ErrExtensibleHeight, e.ValidBlockStart, e.ValidBlockEnd, height)
	}
	ok, err := a.isValidator(height, e.Sender)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: %s", ErrExtensibleSender, e.Sender.String())
	}
	if cons := a.cfg.Service; cons != nil {
		if err := cons.OnPayload(e); !errors.Is(err, ErrNotRunning) {
			return err
		}
	}
	if a.cfg.WitnessVerified {
		return nil
	}
	p, err := PayloadFromExtensibleSR(a.cfg.Magic, a.cfg.StateRootInHeader, e)
	if err != nil {
		return err
	}
	_, err = p.VerifyWitness()
	return err
}

// isValidator reports whether acc is the standard account of a validator
// of the block after height.
func (a *Admission) isValidator(height uint32, acc util.Uint160) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.senders == nil || a.height != height {
		vals, err := a.cfg.NextBlockValidators()
		if err != nil {
			return false, fmt.Errorf("extensible: next validators: %w", err)
		}
		a.senders = make(map[util.Uint160]bool, len(vals))
		for _, v := range vals {
			a.senders[v.ScriptHash()] = true
		}
		a.height = height
	}
	return a.senders[acc], nil
}

// Proposable filters the verified pool transactions txs (highest priority
// first) down to those a proposal on top of height may take: it drops the
// ones that expire with the next block and the ones already on chain
// (onChain; a lookup error drops the transaction too), since the pool
// catches up with a block asynchronously. It filters txs in place and
// keeps their order.
func Proposable(txs []*transaction.Transaction, height uint32, onChain func(util.Uint256) (bool, error)) []*transaction.Transaction {
	out := txs[:0]
	for _, tx := range txs {
		if tx.ValidUntilBlock <= height {
			continue
		}
		if on, err := onChain(tx.Hash()); err != nil || on {
			continue
		}
		out = append(out, tx)
	}
	return out
}
