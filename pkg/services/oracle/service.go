package oracle

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
)

// Service is an oracle node: it answers the OracleContract's requests
// while one of its keys is designated for the Oracle role. Create it with
// New, feed it requests (AddRequests, RemoveRequests or OnBlock) and the
// other nodes' signatures (AddResponse), and run it with Run.
type Service struct {
	cfg     Config
	log     *zap.Logger
	client  HTTPClient
	metrics *metrics
	sender  *RPCSender // the default Broadcast, run by Run (nil otherwise)

	// newReqs hands batches of new requests to the Run loop; a batch not
	// taken yet is merged with the next one (capacity 1, AddRequests never
	// blocks).
	newReqs chan map[uint64]request
	// work feeds the request workers: a request with Req nil is a retry.
	work chan request

	mu struct {
		sync.Mutex
		running bool
		// pending are the requests added before Run.
		pending map[uint64]request
		// responses are the requests being answered.
		responses map[uint64]*incompleteTx
		// removed are the requests dropped at the last expiry pass (not
		// answered again until the next one).
		removed map[uint64]bool
		// seen are the ids of every request added and not finished: OnBlock
		// adds only new ones.
		seen map[uint64]bool
		// before are the chain values read at the last OnBlock: the state
		// the next block builds on.
		before *chain.OracleParams
	}
}

// request is a unit of work: a new request, or a retry of id (Req nil).
type request struct {
	ID  uint64
	Req *neostate.OracleRequest
	// params, when set, are the chain values to build the response with
	// (those of the state before the request's block); else the current
	// ones are read.
	params *chain.OracleParams
	// pooled tells that the request's transaction counts as pooled (see
	// Config.PooledTx).
	pooled bool
}

// New checks cfg and returns a service ready to Run.
func New(cfg Config) (*Service, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	s := &Service{cfg: cfg, log: cfg.Log.With(zap.String("service", "oracle")), client: cfg.Client, metrics: m,
		newReqs: make(chan map[uint64]request, 1),
		work:    make(chan request, cfg.Oracle.MaxConcurrentRequests)}
	if s.client == nil {
		s.client = NewHTTPClient(cfg.Oracle, cfg.TLSConfig)
	}
	if s.cfg.Broadcast == nil {
		s.sender = NewRPCSender(cfg.Oracle.Nodes, cfg.Oracle.ResponseTimeout, s.log)
		s.cfg.Broadcast = s.sender.Send
	}
	s.mu.pending = make(map[uint64]request)
	s.mu.responses = make(map[uint64]*incompleteTx)
	s.mu.removed = make(map[uint64]bool)
	s.mu.seen = make(map[uint64]bool)
	return s, nil
}

// ErrRunning is returned by a second Run.
var ErrRunning = errors.New("oracle: already running")

// Run answers requests until ctx ends: MaxConcurrentRequests workers
// fetch and sign, the loop hands them new requests and, every
// RefreshInterval, retries the requests still unanswered (with the backup
// transaction) and forgets those older than MaxTaskTimeout. It returns
// when every goroutine it started has stopped.
func (s *Service) Run(ctx context.Context) error {
	s.mu.Lock()
	if s.mu.running {
		s.mu.Unlock()
		return ErrRunning
	}
	s.mu.running = true
	first := s.mu.pending
	s.mu.pending = nil
	s.mu.Unlock()
	s.log.Info("oracle service started", zap.Int("workers", s.cfg.Oracle.MaxConcurrentRequests),
		zap.Int("nodes", len(s.cfg.Oracle.Nodes)))

	var wg sync.WaitGroup
	if s.sender != nil {
		wg.Go(func() { s.sender.Run(ctx) })
	}
	for range s.cfg.Oracle.MaxConcurrentRequests {
		wg.Go(func() { s.worker(ctx) })
	}
	s.loop(ctx, first)
	wg.Wait()
	s.log.Info("oracle service stopped")
	return nil
}

// loop is Run's own goroutine.
func (s *Service) loop(ctx context.Context, first map[uint64]request) {
	tick := time.NewTicker(s.cfg.Oracle.RefreshInterval)
	defer tick.Stop()
	if !s.enqueue(ctx, first) {
		return
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if !s.enqueueRetries(ctx, s.expire()) {
				return
			}
		case reqs := <-s.newReqs:
			if !s.enqueue(ctx, reqs) {
				return
			}
		}
	}
}

func (s *Service) enqueue(ctx context.Context, reqs map[uint64]request) bool {
	for _, r := range reqs {
		select {
		case s.work <- r:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

func (s *Service) enqueueRetries(ctx context.Context, ids []uint64) bool {
	for _, id := range ids {
		select {
		case s.work <- request{ID: id}:
		case <-ctx.Done():
			return false
		}
	}
	return true
}

// expire drops the requests last processed more than MaxTaskTimeout ago
// and returns those last processed more than RefreshInterval ago (the
// reference's refresh pass).
func (s *Service) expire() []uint64 {
	now := s.cfg.Now()
	var retry []uint64
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.removed = make(map[uint64]bool)
	for id, t := range s.mu.responses {
		t.mu.Lock()
		since := now.Sub(t.mu.last)
		t.mu.Unlock()
		switch {
		case since > s.cfg.Oracle.MaxTaskTimeout:
			s.mu.removed[id] = true
			delete(s.mu.responses, id)
		case since > s.cfg.Oracle.RefreshInterval:
			retry = append(retry, id)
		}
	}
	if len(s.mu.removed) > 0 {
		s.log.Info("oracle requests expired", zap.Int("count", len(s.mu.removed)))
	}
	s.metrics.pending.Set(float64(len(s.mu.responses)))
	return retry
}

// worker processes requests until ctx ends.
func (s *Service) worker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case r := <-s.work:
			if err := s.process(ctx, r); err != nil {
				s.log.Warn("cannot process oracle request", zap.Uint64("request", r.ID), zap.Error(err))
			}
		}
	}
}

// AddRequests queues new requests (by id), answered with the chain values
// read when they are processed. Before Run they wait; a request already
// added and not finished is not added twice. Never blocks.
func (s *Service) AddRequests(reqs map[uint64]*neostate.OracleRequest) {
	batch := make(map[uint64]request, len(reqs))
	for id, r := range reqs {
		batch[id] = request{ID: id, Req: r}
	}
	s.add(batch)
}

func (s *Service) add(batch map[uint64]request) {
	fresh := make(map[uint64]request, len(batch))
	s.mu.Lock()
	for id, r := range batch {
		if !s.mu.seen[id] {
			s.mu.seen[id] = true
			fresh[id] = r
		}
	}
	if !s.mu.running {
		maps.Copy(s.mu.pending, fresh)
		s.mu.Unlock()
		return
	}
	s.mu.Unlock()
	if len(fresh) == 0 {
		return
	}
	for {
		select {
		case s.newReqs <- fresh:
			return
		default:
		}
		select {
		case old := <-s.newReqs:
			maps.Copy(fresh, old)
		default:
		}
	}
}

// RemoveRequests forgets finished requests (their response is on chain).
func (s *Service) RemoveRequests(ids []uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, id := range ids {
		delete(s.mu.pending, id)
		delete(s.mu.responses, id)
		delete(s.mu.seen, id)
	}
	s.metrics.pending.Set(float64(len(s.mu.responses)))
}

// OnBlock updates the service after block b was stored; call it for every
// block, in order, from the node's chain event loop. The requests b's
// response transactions finished are removed; the pending requests not
// seen yet are added, to be answered as the reference answers a request
// while it stores the request's block: with the chain values of the state
// before b (read at the previous call) and the request's transaction as
// pooled when b holds it.
func (s *Service) OnBlock(b *block.Block) error {
	var done []uint64
	inBlock := make(map[util.Uint256]bool, len(b.Transactions))
	for _, tx := range b.Transactions {
		inBlock[tx.Hash()] = true
		for _, a := range tx.GetAttributes(transaction.AttrOracleResponse) {
			if r, ok := a.Value.(*transaction.OracleResponse); ok {
				done = append(done, r.ID)
			}
		}
	}
	if len(done) > 0 {
		s.RemoveRequests(done)
	}
	after, err := s.cfg.Ledger.OracleParams()
	if err != nil {
		return fmt.Errorf("oracle: chain values: %w", err)
	}
	s.mu.Lock()
	before := s.mu.before
	s.mu.before = &after
	s.mu.Unlock()
	if before != nil && (b.Index == 0 || before.Height != b.Index-1) {
		before = nil // not the state b builds on (a block was skipped)
	}
	reqs, err := s.cfg.Ledger.OracleRequests()
	if err != nil {
		return fmt.Errorf("oracle: pending requests: %w", err)
	}
	batch := make(map[uint64]request, len(reqs))
	for id, r := range reqs {
		batch[id] = request{ID: id, Req: r, params: before, pooled: inBlock[r.OriginalTxID]}
	}
	s.add(batch)
	return nil
}

// LoadPending adds the chain's pending requests the service has not seen
// (what a node does when it starts, before the first OnBlock).
func (s *Service) LoadPending() error {
	reqs, err := s.cfg.Ledger.OracleRequests()
	if err != nil {
		return fmt.Errorf("oracle: pending requests: %w", err)
	}
	s.AddRequests(reqs)
	return nil
}

// response returns the state of request id, creating it when create is
// set (unless the request expired at the last pass).
func (s *Service) response(id uint64, create bool) *incompleteTx {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.mu.responses[id]
	if !ok && create && !s.mu.removed[id] {
		t = newIncompleteTx()
		s.mu.responses[id] = t
		s.metrics.pending.Set(float64(len(s.mu.responses)))
	}
	return t
}

// ourKey returns the first of our keys among the oracle nodes.
func (s *Service) ourKey(nodes keys.PublicKeys) *keys.PrivateKey {
	for _, k := range s.cfg.Keys {
		for _, n := range nodes {
			if n.Equal(k.PublicKey()) {
				return k
			}
		}
	}
	return nil
}

// relay hands a completed transaction to the node.
func (s *Service) relay(tx *transaction.Transaction, backup bool) {
	kind := "main"
	if backup {
		kind = "backup"
	}
	h := tx.Hash() // before the node has it
	if err := s.cfg.Relay(tx); err != nil {
		s.log.Error("cannot relay oracle response", zap.Stringer("hash", h), zap.String("kind", kind), zap.Error(err))
		return
	}
	s.metrics.relayed.WithLabelValues(kind).Inc()
	s.log.Info("oracle response relayed", zap.Stringer("hash", h), zap.String("kind", kind))
}
