package stateroot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

// Validity windows and vote resend schedule of the reference.
const (
	// VoteValidBlocks is how many blocks a vote stays valid.
	VoteValidBlocks = 10
	// RootValidBlocks is how many blocks a StateRoot message stays valid.
	RootValidBlocks = 100
	// FirstResendDelay is when a vote is first sent again.
	FirstResendDelay = 3 * time.Second
	// maxRetries bounds the resends of a vote.
	maxRetries = VoteValidBlocks
)

// Ledger is what the service reads of the chain; chain.StateRootReader
// implements it. Methods may be called from any goroutine.
type Ledger interface {
	// BlockHeight is the index of the last block.
	BlockHeight() uint32
	// StateRoot returns the stored state root of a block (local, or with
	// the validators' witness once validated).
	StateRoot(index uint32) (*chain.StateRoot, error)
	// AddValidatedStateRoot stores a root whose witness verified
	// (chain.ErrStateRootMismatch when it is not the local one).
	AddValidatedStateRoot(sr *chain.StateRoot) error
	// StateValidators returns the state validators designated for a
	// block, sorted (RoleManagement's StateValidator role at index).
	StateValidators(index uint32) (keys.PublicKeys, error)
}

// Clock is the time source of the vote resend timer.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Config configures a Service. Fields marked optional may be left zero.
type Config struct {
	// Logger receives the service's log (optional: no log).
	Logger *zap.Logger
	// Magic is the network magic signatures cover.
	Magic uint32
	// Ledger is the chain (chain.StateRootReader).
	Ledger Ledger
	// Keys are the unlocked keys of the StateRoot section's wallet
	// (optional: the node only checks and stores validated roots). The
	// node signs with the first designated state validator whose key is
	// here.
	Keys []*keys.PrivateKey
	// Broadcast sends a signed StateService payload to the network
	// (required with Keys). It must not block for long.
	Broadcast func(e *payload.Extensible)
	// TimePerBlock gives the block time that spaces later vote resends
	// (optional: 15 s).
	TimePerBlock func() time.Duration
	// Clock is the resend timer's time source (optional: the wall clock).
	Clock Clock
	// Synced reports whether the node has caught up with the network
	// (optional: always; network.Server.IsInSync). A state validator signs
	// nothing until it first returns true, and it is not asked again:
	// votes for blocks the network left behind would be refused by neo-go
	// peers, which drop the sender (neo-go starts the service once in
	// sync).
	Synced func() bool
	// Registerer receives the service's metrics (optional: none).
	Registerer prometheus.Registerer
}

// Service checks and stores validated state roots and, for a state
// validator, signs and aggregates them.
type Service struct {
	cfg     Config
	log     *zap.Logger
	metrics *metrics
	notify  chan struct{}
	started atomic.Bool
	synced  atomic.Bool // Synced returned true once

	mu struct {
		sync.Mutex
		roots map[uint32]*pendingRoot     // signing state per block index
		early map[uint32]*chain.StateRoot // verified roots of a block not here yet
		last  uint32                      // the last block signed (or skipped)
		begun bool                        // last is meaningful
	}
}

// New checks cfg and returns a service; Run starts it.
func New(cfg Config) (*Service, error) {
	if cfg.Ledger == nil {
		return nil, fmt.Errorf("%w: no Ledger", ErrBadConfig)
	}
	if len(cfg.Keys) != 0 && cfg.Broadcast == nil {
		return nil, fmt.Errorf("%w: Keys without Broadcast", ErrBadConfig)
	}
	if cfg.Logger == nil {
		cfg.Logger = zap.NewNop()
	}
	if cfg.TimePerBlock == nil {
		cfg.TimePerBlock = func() time.Duration { return 15 * time.Second }
	}
	if cfg.Clock == nil {
		cfg.Clock = realClock{}
	}
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, log: cfg.Logger, metrics: m, notify: make(chan struct{}, 1)}
	s.mu.roots = make(map[uint32]*pendingRoot)
	s.mu.early = make(map[uint32]*chain.StateRoot)
	return s, nil
}

// NotifyBlock tells the service a block was added; it never blocks.
func (s *Service) NotifyBlock() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// Run signs the new blocks' roots (when the node is a state validator) and
// resends votes until ctx ends. It is the service's one goroutine.
func (s *Service) Run(ctx context.Context) error {
	if !s.started.CompareAndSwap(false, true) {
		return errors.New("stateroot: already running")
	}
	s.log.Info("state root service started", zap.Bool("signer", len(s.cfg.Keys) != 0))
	s.onBlocks()
	for {
		var resend <-chan time.Time
		if d, ok := s.nextResend(); ok {
			resend = s.cfg.Clock.After(d)
		}
		select {
		case <-ctx.Done():
			s.log.Info("state root service stopped")
			return nil
		case <-s.notify:
			s.onBlocks()
		case <-resend:
			s.resendVotes()
		}
	}
}

// OnPayload checks a StateService payload from the network and acts on
// it. nil means it is valid (to be relayed); ErrInvalidPayload and
// ErrInvalidMessage mean the sender misbehaved; ErrNotValidNow that it is
// not for this height.
func (s *Service) OnPayload(e *payload.Extensible) error {
	err := s.onPayload(e)
	s.metrics.received.WithLabelValues(outcome(err)).Inc()
	return err
}

func (s *Service) onPayload(e *payload.Extensible) error {
	if e.Category != Category {
		return fmt.Errorf("%w: category %q", ErrInvalidPayload, e.Category)
	}
	h := s.cfg.Ledger.BlockHeight()
	// A root can arrive just before its block: it is checked and kept.
	early := e.ValidBlockStart == h+1
	if (h < e.ValidBlockStart && !early) || h >= e.ValidBlockEnd {
		return fmt.Errorf("%w: [%d, %d) at %d", ErrNotValidNow, e.ValidBlockStart, e.ValidBlockEnd, h)
	}
	svs, err := s.cfg.Ledger.StateValidators(h)
	if err != nil {
		return err
	}
	pub, err := senderKey(s.cfg.Magic, e, svs)
	if err != nil {
		return err
	}
	m, err := DecodeMessage(e.Data)
	if err != nil {
		return err
	}
	switch {
	case early && (m.Type != RootT || m.Root.Index != h+1):
		return fmt.Errorf("%w: valid from %d at %d", ErrNotValidNow, e.ValidBlockStart, h)
	case early:
		return s.keepEarlyRoot(m.Root)
	case m.Type == VoteT:
		return s.onVote(pub, m.Vote, h)
	}
	return s.onRoot(m.Root, h)
}

// keepEarlyRoot checks a root of the block after the current one (its
// state validators are known: a designation takes effect a block after the
// one that makes it) and keeps it until the block arrives (onBlocks). It
// is not relayed: peers that lack the block would refuse it.
func (s *Service) keepEarlyRoot(sr *chain.StateRoot) error {
	svs, err := s.cfg.Ledger.StateValidators(sr.Index)
	if err != nil {
		return err
	}
	if err := verifyRoot(s.cfg.Magic, sr, svs); err != nil {
		return err
	}
	s.mu.Lock()
	s.mu.early[sr.Index] = sr
	s.mu.Unlock()
	return fmt.Errorf("%w: state root %d kept until its block arrives", ErrNotValidNow, sr.Index)
}

// storeEarlyRoots stores the kept roots whose block has arrived and drops
// the rest that are too old.
func (s *Service) storeEarlyRoots(height uint32) {
	var ready []*chain.StateRoot
	s.mu.Lock()
	for i, sr := range s.mu.early {
		if i <= height {
			ready = append(ready, sr)
			delete(s.mu.early, i)
		}
	}
	s.mu.Unlock()
	for _, sr := range ready {
		if err := s.storeRoot(sr); err != nil {
			s.log.Warn("cannot store a validated state root", zap.Uint32("index", sr.Index), zap.Error(err))
		}
	}
}

// onRoot verifies and stores a validated root.
func (s *Service) onRoot(sr *chain.StateRoot, height uint32) error {
	if sr.Index == 0 {
		return nil // the genesis root is never validated (as the reference)
	}
	if sr.Index > height {
		return fmt.Errorf("%w: state root %d above height %d", ErrNotValidNow, sr.Index, height)
	}
	svs, err := s.cfg.Ledger.StateValidators(sr.Index)
	if err != nil {
		return err
	}
	if err := verifyRoot(s.cfg.Magic, sr, svs); err != nil {
		return err
	}
	return s.storeRoot(sr)
}

// storeRoot stores a verified root: a root that is not the local one is
// logged, not the sender's fault (as the reference).
func (s *Service) storeRoot(sr *chain.StateRoot) error {
	err := s.cfg.Ledger.AddValidatedStateRoot(sr)
	if errors.Is(err, chain.ErrStateRootMismatch) {
		s.log.Error("state validators signed another state root", zap.Error(err))
		return nil
	}
	if err != nil {
		return fmt.Errorf("stateroot: %w", err)
	}
	s.metrics.validated.Set(float64(sr.Index))
	s.mu.Lock()
	if p := s.mu.roots[sr.Index]; p != nil {
		p.sent = true
	}
	s.mu.Unlock()
	return nil
}
