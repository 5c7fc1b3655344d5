package notary

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/util"
)

// NotaryHash is the Notary native contract's hash.
var NotaryHash = smartcontract.CreateContractHash(util.Uint160{}, 0, "Notary")

// queueSize bounds the completed transactions waiting to be relayed (as
// neo-go's; a full queue leaves the transaction to the next block).
const queueSize = 100

// ErrBadConfig is a Config that New refuses.
var ErrBadConfig = errors.New("notary: bad configuration")

// Ledger is the chain as the service reads it.
type Ledger interface {
	// BlockHeight is the current height.
	BlockHeight() uint32
	// NotaryNodes are the keys designated for the P2PNotary role for the
	// next block.
	NotaryNodes() (keys.PublicKeys, error)
}

// Config configures a Service.
type Config struct {
	// Magic is the network's magic (signatures cover it).
	Magic uint32
	// Keys are the unlocked keys of the P2PNotary wallet; the service signs
	// with the first one designated for the role.
	Keys []*keys.PrivateKey
	// Ledger is the chain (required).
	Ledger Ledger
	// Relay verifies, pools and announces a completed transaction
	// (required); it may block.
	Relay func(ctx context.Context, tx *transaction.Transaction) error
	// Log is the service's logger (default: none).
	Log *zap.Logger
	// Registerer receives the service's metrics (nil: none).
	Registerer prometheus.Registerer
}

// request is what the service holds for one main transaction.
type request struct {
	main      *transaction.Transaction // a copy, completed in place
	mainHash  util.Uint256             // of the request's main transaction
	minNVB    uint32                   // lowest NotValidBefore of the fallbacks
	fallbacks []*transaction.Transaction
	slots     []slot // nil: the main transaction cannot be completed
	sent      bool   // the main transaction was relayed
}

func (r *request) mainComplete() bool {
	if r.slots == nil {
		return false
	}
	for i := range r.slots {
		if r.slots[i].left != 0 {
			return false
		}
	}
	return true
}

// completed is a finished transaction waiting to be relayed.
type completed struct {
	tx   *transaction.Transaction
	main util.Uint256 // the request it belongs to
}

// Service is the notary service. Its methods are safe for concurrent use.
type Service struct {
	cfg Config
	log *zap.Logger
	m   *metrics
	out chan completed

	mu       sync.Mutex
	key      *keys.PrivateKey // the designated key held, nil: none
	requests map[util.Uint256]*request
}

// New returns a service; Run must run for it to relay anything.
func New(cfg Config) (*Service, error) {
	if cfg.Ledger == nil || cfg.Relay == nil || len(cfg.Keys) == 0 {
		return nil, fmt.Errorf("%w: ledger set %t, relay set %t, %d keys", ErrBadConfig,
			cfg.Ledger != nil, cfg.Relay != nil, len(cfg.Keys))
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, log: cfg.Log, m: m, out: make(chan completed, queueSize),
		requests: make(map[util.Uint256]*request)}, nil
}

// UpdateKey picks the first wallet key designated for the P2PNotary role
// for the next block; without one the service drops its requests and
// signs nothing until a later designation names one of its keys.
func (s *Service) UpdateKey() error {
	nodes, err := s.cfg.Ledger.NotaryNodes()
	if err != nil {
		return fmt.Errorf("notary: designated nodes: %w", err)
	}
	var key *keys.PrivateKey
	for _, n := range nodes {
		if i := slices.IndexFunc(s.cfg.Keys, func(k *keys.PrivateKey) bool { return k.PublicKey().Equal(n) }); i >= 0 {
			key = s.cfg.Keys[i]
			break
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case key != nil && (s.key == nil || !s.key.PublicKey().Equal(key.PublicKey())):
		s.log.Info("notary: signing as a designated notary node", zap.Stringer("key", key.PublicKey()))
	case key == nil && s.key != nil:
		s.log.Warn("notary: no wallet key is designated for the P2PNotary role any more, requests dropped")
		clear(s.requests)
		s.m.pending.Set(0)
	}
	s.key = key
	s.m.designated.Set(boolGauge(key != nil))
	return nil
}

// Designated reports whether the service holds a key designated for the
// P2PNotary role (it signs nothing otherwise).
func (s *Service) Designated() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.key != nil
}

func boolGauge(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// OnNewRequest takes a request the pool just accepted: its fallback joins
// those of its main transaction, and its main transaction's signatures are
// collected; a completed main transaction is queued for relay while the
// chain is below the fallbacks' lowest NotValidBefore.
func (s *Service) OnNewRequest(r *payload.P2PNotaryRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key == nil {
		return
	}
	nvb := notValidBefore(r.FallbackTransaction)
	main := r.MainTransaction
	mh := main.Hash()
	var slots []slot
	var slotErr error
	if na := main.GetAttributes(transaction.AttrNotaryAssisted); len(na) != 0 {
		slots, slotErr = parseSlots(main, NotaryHash, na[0].Value.(*transaction.NotaryAssisted).NKeys)
	} else {
		slotErr = errors.New("no NotaryAssisted attribute")
	}
	if slotErr != nil {
		s.log.Info("notary: main transaction cannot be completed, its fallback will be",
			zap.Stringer("main", mh), zap.Stringer("fallback", r.FallbackTransaction.Hash()), zap.Error(slotErr))
	}
	req, ok := s.requests[mh]
	if ok {
		fh := r.FallbackTransaction.Hash()
		if slices.ContainsFunc(req.fallbacks, func(f *transaction.Transaction) bool { return f.Hash() == fh }) {
			return
		}
		req.minNVB = min(req.minNVB, nvb)
	} else {
		req = &request{main: main.Copy(), mainHash: mh, minNVB: nvb}
		s.requests[mh] = req
		s.m.pending.Set(float64(len(s.requests)))
	}
	if req.slots == nil && slotErr == nil {
		req.slots = slots
	}
	req.fallbacks = append(req.fallbacks, r.FallbackTransaction.Copy())
	s.m.requests.Inc()
	if (ok && req.mainComplete()) || slotErr != nil {
		return
	}
	s.collect(req, main)
	if req.mainComplete() && req.minNVB > s.cfg.Ledger.BlockHeight() {
		s.finalizeLocked(req.main, mh)
	}
}

// collect takes the signatures main brings for req's witnesses.
func (s *Service) collect(req *request, main *transaction.Transaction) {
	digest := hash.Sha256(main.SignData(s.cfg.Magic))
	for i, w := range main.Witnesses {
		sl := &req.slots[i]
		if sl.kind == kindContract || len(w.InvocationScript) == 0 || sl.left == 0 {
			continue
		}
		if done, inv := sl.add(w.InvocationScript, digest[:]); done {
			req.main.Witnesses[i].InvocationScript = slices.Clone(inv)
		}
	}
}

// OnRequestRemoval forgets a request's fallback the pool dropped.
func (s *Service) OnRequestRemoval(r *payload.P2PNotaryRequest) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, ok := s.requests[r.MainTransaction.Hash()]
	if !ok {
		return
	}
	fh := r.FallbackTransaction.Hash()
	req.fallbacks = slices.DeleteFunc(req.fallbacks, func(f *transaction.Transaction) bool { return f.Hash() == fh })
}

// OnBlock runs after each block: requests without fallbacks left are
// forgotten, completed main transactions not relayed yet are queued again
// while below the lowest NotValidBefore, and fallbacks whose
// NotValidBefore the height reached are completed and queued.
func (s *Service) OnBlock() {
	if err := s.UpdateKey(); err != nil {
		s.log.Warn("notary: designated nodes not read", zap.Error(err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.key == nil {
		return
	}
	height := s.cfg.Ledger.BlockHeight()
	for h, req := range s.requests {
		switch {
		case len(req.fallbacks) == 0:
			delete(s.requests, h)
		case !req.sent && req.mainComplete() && req.minNVB > height:
			s.finalizeLocked(req.main, h)
		case req.minNVB <= height:
			for _, fb := range req.fallbacks {
				if notValidBefore(fb) <= height {
					s.finalizeLocked(fb, h)
				}
			}
		}
	}
	s.m.pending.Set(float64(len(s.requests)))
}

func notValidBefore(tx *transaction.Transaction) uint32 {
	a := tx.GetAttributes(transaction.AttrNotValidBefore)
	if len(a) == 0 {
		return 0
	}
	return a[0].Value.(*transaction.NotValidBefore).Height
}

// finalizeLocked signs a copy of tx as the Notary contract's witness and
// queues it; a full queue leaves it to the next block.
func (s *Service) finalizeLocked(tx *transaction.Transaction, main util.Uint256) {
	done := tx.Copy()
	sig := s.key.Sign(done.SignData(s.cfg.Magic))
	for i := range done.Signers {
		if done.Signers[i].Account == NotaryHash {
			done.Witnesses[i] = transaction.Witness{InvocationScript: append(slices.Clone(sigPrefix), sig...),
				VerificationScript: []byte{}}
			break
		}
	}
	done.InvalidateCache()
	select {
	case s.out <- completed{tx: done, main: main}:
	default:
		s.log.Warn("notary: relay queue full, retrying after the next block", zap.Stringer("hash", done.Hash()))
	}
}

// Run relays the completed transactions until ctx ends.
func (s *Service) Run(ctx context.Context) error {
	s.log.Info("notary service started")
	defer s.log.Info("notary service stopped")
	for {
		select {
		case <-ctx.Done():
			return nil
		case c := <-s.out:
			s.relay(ctx, c)
		}
	}
}

// relay sends c unless it is no longer wanted: a main transaction already
// sent or past the fallbacks' NotValidBefore, a fallback no longer pending.
func (s *Service) relay(ctx context.Context, c completed) {
	isMain := c.tx.Hash() == c.main
	kind := "fallback"
	if isMain {
		kind = "main"
	}
	s.mu.Lock()
	req, ok := s.requests[c.main]
	if ok && isMain {
		ok = !req.sent && req.minNVB > s.cfg.Ledger.BlockHeight()
	} else if ok {
		h := c.tx.Hash()
		ok = slices.ContainsFunc(req.fallbacks, func(f *transaction.Transaction) bool { return f.Hash() == h })
	}
	s.mu.Unlock()
	if !ok {
		return
	}
	if err := s.cfg.Relay(ctx, c.tx); err != nil {
		s.m.relayErrors.WithLabelValues(kind).Inc()
		s.log.Error("notary: completed transaction not relayed, retrying after the next block",
			zap.String("kind", kind), zap.Stringer("hash", c.tx.Hash()), zap.Stringer("main", c.main), zap.Error(err))
		return
	}
	s.m.relayed.WithLabelValues(kind).Inc()
	s.log.Info("notary: completed transaction relayed", zap.String("kind", kind),
		zap.Stringer("hash", c.tx.Hash()), zap.Stringer("main", c.main))
	s.mu.Lock()
	defer s.mu.Unlock()
	if req, ok := s.requests[c.main]; ok {
		if isMain {
			req.sent = true
		} else {
			h := c.tx.Hash()
			req.fallbacks = slices.DeleteFunc(req.fallbacks, func(f *transaction.Transaction) bool { return f.Hash() == h })
		}
	}
}
