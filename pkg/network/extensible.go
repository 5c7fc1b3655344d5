package network

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// Errors of extensible payload admission. An OnExtensible error wrapping
// ErrInvalidExtensible disconnects the peer that sent the payload (as the
// reference drops the sender of a payload whose witness fails or whose
// sender is not allowed); any other error only drops the payload. Either
// way the payload is not relayed and its hash is not requested again (see
// rejectCache).
var (
	ErrInvalidExtensible = errors.New("network: invalid extensible payload")
	// ErrExtensibleNotValidNow is a payload outside its validity window
	// [ValidBlockStart, ValidBlockEnd) at the current height: dropped, the
	// sender is kept (it may be a block ahead or behind).
	ErrExtensibleNotValidNow = errors.New("network: extensible payload not valid at this height")
)

// ExtensibleConfig configures an ExtensibleAdmission.
type ExtensibleConfig struct {
	// Height returns the current chain height.
	Height func() uint32
	// Senders returns the accounts allowed to send extensible payloads at
	// the current height, sorted (chain.(*Chain).ExtensibleSenders). It is
	// read once per height.
	Senders func() ([]util.Uint160, error)
	// VerifyWitness checks the payload's witness against its sender
	// (chain.(*Chain).VerifyWitness through the VM, as the reference does).
	VerifyWitness func(e *payload.Extensible) error
	// Handlers are the rules of the categories a local service takes: a
	// handler runs after the generic checks and its error is returned as
	// it is (wrapping ErrInvalidExtensible when the sender misbehaved). A
	// valid payload of a category without handler is relayed.
	Handlers map[string]func(e *payload.Extensible) error
}

// ExtensibleAdmission is the rule every extensible payload from a peer
// passes, whatever its category (the reference's extensible pool): valid at
// the current height, from an allowed sender, with a witness that verifies;
// then the rule of its category, when a local service handles it. Its
// Check is the server's OnExtensible. Safe for concurrent use.
type ExtensibleAdmission struct {
	cfg ExtensibleConfig

	mu      sync.Mutex
	height  uint32
	senders []util.Uint160 // at height; nil: not read yet
}

// NewExtensibleAdmission checks cfg and returns the admission rule.
func NewExtensibleAdmission(cfg ExtensibleConfig) (*ExtensibleAdmission, error) {
	if cfg.Height == nil || cfg.Senders == nil || cfg.VerifyWitness == nil {
		return nil, fmt.Errorf("%w: extensible admission needs Height, Senders and VerifyWitness", ErrBadConfig)
	}
	return &ExtensibleAdmission{cfg: cfg}, nil
}

// Check admits e (nil: relay it) or says why not. A payload whose window
// starts at the next block goes to its category's handler (if any) but is
// not admitted.
func (a *ExtensibleAdmission) Check(e *payload.Extensible) error {
	h := a.cfg.Height()
	hd := a.cfg.Handlers[e.Category]
	// A payload valid from the next block on may have outrun that block:
	// a category's handler may keep it (a state-validated root does), it
	// is never relayed early.
	early := e.ValidBlockStart == h+1 && hd != nil
	if (h < e.ValidBlockStart && !early) || h >= e.ValidBlockEnd {
		return fmt.Errorf("%w: [%d, %d) at %d", ErrExtensibleNotValidNow, e.ValidBlockStart, e.ValidBlockEnd, h)
	}
	ok, err := a.allowed(h, e.Sender)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: sender %s is not allowed", ErrInvalidExtensible, e.Sender.StringLE())
	}
	if err := a.cfg.VerifyWitness(e); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidExtensible, err)
	}
	switch {
	case hd == nil:
		return nil
	case early:
		if err := hd(e); err != nil {
			return err
		}
		return fmt.Errorf("%w: valid from %d at %d", ErrExtensibleNotValidNow, e.ValidBlockStart, h)
	}
	return hd(e)
}

// allowed reports whether acc may send extensible payloads at height.
func (a *ExtensibleAdmission) allowed(height uint32, acc util.Uint160) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.senders == nil || a.height != height {
		ss, err := a.cfg.Senders()
		if err != nil {
			return false, fmt.Errorf("extensible senders: %w", err)
		}
		a.senders, a.height = slices.Clip(ss), height
		if a.senders == nil {
			a.senders = []util.Uint160{}
		}
	}
	_, ok := slices.BinarySearchFunc(a.senders, acc, util.Uint160.Compare)
	return ok, nil
}

// maxRejected bounds the remembered rejected extensible hashes.
const maxRejected = 4096

// rejectCache remembers the extensible payloads OnExtensible refused, so
// that the announcements of other peers do not make the server fetch them
// again. A payload refused for a fault of its own (ErrInvalidExtensible)
// stays refused; one refused for another reason (not valid at this
// height, a category's own rule) is refused until the chain height
// changes, since it may be valid then. The oldest entry goes first.
type rejectCache struct {
	mu    sync.Mutex
	m     map[util.Uint256]rejection
	order []util.Uint256
}

type rejection struct {
	height  uint32
	forever bool
}

func newRejectCache() *rejectCache {
	return &rejectCache{m: make(map[util.Uint256]rejection)}
}

func (c *rejectCache) put(h util.Uint256, height uint32, forever bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[h]; !ok {
		if len(c.order) >= maxRejected {
			delete(c.m, c.order[0])
			c.order = c.order[1:]
		}
		c.order = append(c.order, h)
	}
	c.m[h] = rejection{height: height, forever: forever}
}

// has reports whether h was refused and still is at height.
func (c *rejectCache) has(h util.Uint256, height uint32) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[h]
	return ok && (r.forever || r.height == height)
}

// knownExtensible reports whether an announced extensible is not to be
// requested: cached (valid) or refused.
func (s *Server) knownExtensible(h util.Uint256) bool {
	return s.ext.has(h) || s.rejected.has(h, s.cfg.Ledger.BlockHeight())
}

// handleExtensible passes an extensible payload to OnExtensible; a valid
// one is cached for getdata and announced to the other peers, a refused
// one remembered (not fetched again). The returned error, for a payload
// wrapping ErrInvalidExtensible, disconnects the peer.
func (s *Server) handleExtensible(p *peer, e *payload.Extensible) error {
	h := e.Hash()
	s.seen.remove(h)
	if s.cfg.OnExtensible == nil || s.knownExtensible(h) {
		return nil
	}
	height := s.cfg.Ledger.BlockHeight()
	err := s.cfg.OnExtensible(e)
	if err == nil {
		s.RelayExtensible(e)
		return nil
	}
	invalid := errors.Is(err, ErrInvalidExtensible)
	s.rejected.put(h, height, invalid)
	if errors.Is(err, ErrExtensibleNotValidNow) && e.ValidBlockEnd != height {
		// neo-go drops a payload that has just expired quietly and
		// counts the others against the sender (tolerance.go).
		return fmt.Errorf("%w: %w", errTolerated, err)
	}
	if invalid {
		s.log.Info("extensible payload invalid, dropping its sender", zap.Stringer("addr", p),
			zap.String("category", e.Category), zap.Error(err))
		return fmt.Errorf("%w: %w", ErrProtocol, err)
	}
	s.log.Debug("extensible payload rejected", zap.Stringer("addr", p),
		zap.String("category", e.Category), zap.Error(err))
	return nil
}
