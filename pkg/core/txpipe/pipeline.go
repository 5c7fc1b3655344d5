package txpipe

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// Source identifies where a transaction came from: a peer id chosen by the
// network server, or SourceLocal.
type Source uint64

// SourceLocal is the node itself (the RPC server, a wallet): its
// submissions skip the recently-processed filter.
const SourceLocal Source = 0

// Verifier is the chain as the pipeline uses it.
type Verifier interface {
	// BlockHeight is the height of the current state.
	BlockHeight() uint32
	// VerifyTx verifies tx against the current state, as before pooling
	// it. It is called from several workers at once.
	VerifyTx(tx *transaction.Transaction) error
}

// Pool is the memory pool as the pipeline uses it (*mempool.Pool).
type Pool interface {
	Add(tx *transaction.Transaction, verifiedAt uint32) error
	Contains(h util.Uint256) bool
	CanFit(tx *transaction.Transaction) bool
}

// Config configures a Pipeline.
type Config struct {
	Verifier Verifier // required
	Pool     Pool     // required
	// Workers is the number of verification goroutines; 0 means
	// GOMAXPROCS.
	Workers int
	// PerSource bounds the queue of one source (default 1024), MaxQueued
	// all queues together (default 65536).
	PerSource, MaxQueued int
	// SeenWindow is the size of a generation of the recently-processed
	// filter (default 1<<17 hashes).
	SeenWindow int
	// Relay receives the hashes of pooled transactions in groups of at
	// most MaxInvHashes, from one goroutine; the slice is the callee's.
	// Nil relays nothing.
	Relay func(hashes []util.Uint256)
	// RelayDelay is how long a partial group waits for more hashes
	// (default 20ms).
	RelayDelay time.Duration
	// Clock makes the relay timer (clock.Real when nil).
	Clock clock.Clock
	// RelayLocalOnly relays only SourceLocal transactions (the gossip
	// policy of a full-mesh network: peers relay what they received
	// first-hand).
	RelayLocalOnly bool
	// OnResult, if set, is called from the workers with every verdict (nil
	// for a pooled transaction), e.g. to penalise a peer.
	OnResult func(src Source, tx *transaction.Transaction, err error)
	// StaleRetries bounds the verifications of a transaction the chain
	// moved past while it was verified (default 3).
	StaleRetries int
	// Inline is how many SubmitWait callers may verify and pool their
	// transaction on their own goroutine at once while the pipeline
	// runs, instead of queueing it for a worker; the others queue. A
	// caller that waits anyway (an RPC request) then pays no hand-off to
	// the dispatcher, a worker and back. Zero (the default) queues every
	// transaction.
	Inline int
}

func (c *Config) validate() error {
	if c.Verifier == nil || c.Pool == nil {
		return fmt.Errorf("%w: a verifier and a pool are required", ErrBadConfig)
	}
	if c.Workers < 0 || c.PerSource < 0 || c.MaxQueued < 0 || c.SeenWindow < 0 || c.Inline < 0 || c.RelayDelay < 0 || c.StaleRetries < 0 {
		return fmt.Errorf("%w: negative value", ErrBadConfig)
	}
	setDefault(&c.Workers, runtime.GOMAXPROCS(0))
	setDefault(&c.PerSource, 1024)
	setDefault(&c.MaxQueued, 1<<16)
	setDefault(&c.SeenWindow, 1<<17)
	setDefault(&c.StaleRetries, 3)
	if c.RelayDelay == 0 {
		c.RelayDelay = 20 * time.Millisecond
	}
	c.Clock = clock.OrReal(c.Clock)
	return nil
}

func setDefault(v *int, d int) {
	if *v == 0 {
		*v = d
	}
}

// flight is a transaction being processed and the SubmitWait callers
// waiting for its verdict (in the inflight map, nil for one processed
// inline that no other caller waits for).
type flight struct {
	waiters []chan error
}

// Pipeline takes transactions from peers and the RPC server to the pool:
// dedup, fair queueing, parallel verification, Add, batched relay.
type Pipeline struct {
	cfg   Config
	seen  *seenSet
	relay *batcher

	// mu guards the fields below it.
	mu       sync.Mutex
	inflight map[util.Uint256]*flight
	queue    *sched
	stopped  bool
	closing  bool // Run is ending: no new inline processing
	inlineN  int  // SubmitWait callers processing inline

	inlineWG sync.WaitGroup // the inline callers, waited for by Run

	wake    chan struct{} // capacity 1: a job was queued
	running atomic.Bool
	bgErr   atomic.Pointer[error] // the first internal failure, returned by Run
}

// New returns a pipeline; Run makes it work.
func New(cfg Config) (*Pipeline, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	seen, err := newSeenSet(cfg.SeenWindow)
	if err != nil {
		return nil, err
	}
	relay := cfg.Relay
	if relay == nil {
		relay = func([]util.Uint256) {}
	}
	return &Pipeline{
		cfg:      cfg,
		seen:     seen,
		relay:    newBatcher(relay, cfg.RelayDelay, cfg.Clock),
		inflight: make(map[util.Uint256]*flight),
		queue:    newSched(cfg.PerSource, cfg.MaxQueued),
		wake:     make(chan struct{}, 1),
	}, nil
}

// ShouldRequest reports whether a transaction announced by a peer is worth
// a getdata: it is not being processed, not pooled and not processed
// recently.
func (p *Pipeline) ShouldRequest(h util.Uint256) bool {
	p.mu.Lock()
	_, busy := p.inflight[h]
	p.mu.Unlock()
	return !busy && !p.seen.maybe(h) && !p.cfg.Pool.Contains(h)
}

// Submit queues tx from src without waiting: ErrInFlight, ErrKnown,
// ErrQueueFull or ErrStopped say why it was not queued. A transaction is
// processed once however many peers send it.
func (p *Pipeline) Submit(src Source, tx *transaction.Transaction) error {
	_, err := p.submit(src, tx, false)
	return err
}

// SubmitWait queues tx as SourceLocal and waits for its verdict: nil once
// pooled, else the verifier's or the pool's error (mempool.ErrDup for a
// pooled one). If tx is being processed already, it waits for that
// processing. ctx bounds the wait, not the processing.
func (p *Pipeline) SubmitWait(ctx context.Context, tx *transaction.Transaction) error {
	done, inline, err := p.submitWait(tx)
	if err != nil {
		return err
	}
	if inline {
		err := p.process(job{tx: tx, hash: tx.Hash(), src: SourceLocal})
		p.mu.Lock()
		p.inlineN--
		p.mu.Unlock()
		p.inlineWG.Done()
		return err
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// submitWait is submit for SubmitWait: when the pipeline runs and fewer
// than Inline callers process theirs, tx is put in flight without being
// queued and inline says the caller must process it.
//
// An inline transaction's flight is nil until another caller waits for
// it too: the inline caller takes the verdict from process, so the common
// case allocates neither a flight nor a channel.
func (p *Pipeline) submitWait(tx *transaction.Transaction) (done chan error, inline bool, err error) {
	if p.cfg.Inline > 0 && p.running.Load() {
		h := tx.Hash()
		if p.cfg.Pool.Contains(h) {
			return nil, false, mempool.ErrDup
		}
		p.mu.Lock()
		if _, busy := p.inflight[h]; !busy && !p.stopped && !p.closing && p.inlineN < p.cfg.Inline {
			p.inflight[h] = nil
			p.inlineN++
			p.inlineWG.Add(1)
			p.mu.Unlock()
			return nil, true, nil
		}
		p.mu.Unlock()
	}
	done, err = p.submit(SourceLocal, tx, true)
	return done, false, err
}

func (p *Pipeline) submit(src Source, tx *transaction.Transaction, wait bool) (chan error, error) {
	h := tx.Hash()
	if src != SourceLocal && p.seen.maybe(h) {
		return nil, ErrKnown
	}
	if p.cfg.Pool.Contains(h) {
		if wait {
			return nil, mempool.ErrDup
		}
		return nil, ErrKnown
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return nil, ErrStopped
	}
	var done chan error
	if wait {
		done = make(chan error, 1)
	}
	if f, ok := p.inflight[h]; ok {
		if !wait {
			return nil, ErrInFlight
		}
		if f == nil { // processed inline, nobody waiting yet
			f = &flight{}
			p.inflight[h] = f
		}
		f.waiters = append(f.waiters, done)
		return done, nil
	}
	if !p.queue.push(job{tx: tx, hash: h, src: src}) {
		return nil, ErrQueueFull
	}
	f := &flight{}
	if wait {
		f.waiters = append(f.waiters, done)
	}
	p.inflight[h] = f
	select {
	case p.wake <- struct{}{}:
	default:
	}
	return done, nil
}

// Queued is the number of transactions waiting for a worker.
func (p *Pipeline) Queued() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.queue.n
}

// Run processes transactions until ctx ends. It owns every goroutine of
// the pipeline: the workers, which finish the transaction in hand, and the
// relay batcher, which relays what is pending; it returns once all have
// exited and the SubmitWait callers processing inline have finished, failing the transactions still queued with ErrStopped. It
// returns nil, or the first internal failure (a Bloom filter that could
// not be renewed). A pipeline runs once.
func (p *Pipeline) Run(ctx context.Context) error {
	if !p.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	work := make(chan job)
	var wg sync.WaitGroup
	for range p.cfg.Workers {
		wg.Go(func() {
			for j := range work {
				_ = p.process(j) // the verdict went to the waiters
			}
		})
	}
	relayCtx, stopRelay := context.WithCancel(context.Background())
	var relayWG sync.WaitGroup
	relayWG.Go(func() { p.relay.run(relayCtx) })

	p.dispatch(ctx, work)

	p.mu.Lock()
	p.closing = true
	p.mu.Unlock()
	close(work)
	wg.Wait()
	p.inlineWG.Wait()
	stopRelay() // after the workers: their last hashes are relayed too
	relayWG.Wait()
	p.mu.Lock()
	p.stopped = true
	left := p.queue.drain()
	p.mu.Unlock()
	for _, j := range left {
		p.finish(j, ErrStopped, false)
	}
	if e := p.bgErr.Load(); e != nil {
		return *e
	}
	return nil
}

// dispatch hands queued jobs to the workers in the scheduler's order
// until ctx ends. The hand-off is unbuffered, so a job is chosen only when
// a worker is free and the round-robin order holds.
func (p *Pipeline) dispatch(ctx context.Context, work chan<- job) {
	for {
		p.mu.Lock()
		j, ok := p.queue.pop()
		p.mu.Unlock()
		if !ok {
			select {
			case <-ctx.Done():
				return
			case <-p.wake:
				continue
			}
		}
		select {
		case work <- j:
		case <-ctx.Done():
			p.finish(j, ErrStopped, false)
			return
		}
	}
}

// process verifies and pools one transaction and returns the verdict.
func (p *Pipeline) process(j job) error {
	err := p.verifyAndAdd(j.tx)
	if p.cfg.OnResult != nil {
		p.cfg.OnResult(j.src, j.tx, err)
	}
	p.finish(j, err, !transient(err))
	if err == nil && (!p.cfg.RelayLocalOnly || j.src == SourceLocal) {
		p.relay.add(j.hash)
	}
	return err
}

func (p *Pipeline) verifyAndAdd(tx *transaction.Transaction) error {
	for try := 0; ; try++ {
		if !p.cfg.Pool.CanFit(tx) {
			return ErrPoolFull
		}
		h := p.cfg.Verifier.BlockHeight()
		if err := p.cfg.Verifier.VerifyTx(tx); err != nil {
			return err
		}
		err := p.cfg.Pool.Add(tx, h)
		if errors.Is(err, mempool.ErrStale) && try < p.cfg.StaleRetries {
			continue
		}
		return err
	}
}

// transient reports whether a rejection depends on the moment rather than
// on the transaction: a full pool, a state that kept moving, a sender
// whose pooled transactions use up its GAS. Such a transaction is not
// remembered as processed, so that a peer announcing it again (the
// sender's node re-announces what stays in its pool) gets it verified
// again instead of ignored for a whole filter generation.
func transient(err error) bool {
	return errors.Is(err, mempool.ErrOOM) || errors.Is(err, mempool.ErrStale) ||
		errors.Is(err, mempool.ErrInsufficientFunds)
}

// finish ends j's flight with err; processed hashes enter the
// recently-processed filter.
func (p *Pipeline) finish(j job, err error, processed bool) {
	if processed {
		if serr := p.seen.add(j.hash); serr != nil {
			p.bgErr.CompareAndSwap(nil, &serr)
		}
	}
	p.mu.Lock()
	f := p.inflight[j.hash]
	delete(p.inflight, j.hash)
	p.mu.Unlock()
	if f == nil {
		return
	}
	for _, w := range f.waiters {
		w <- err // capacity 1, one send each
	}
}
