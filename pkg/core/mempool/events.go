package mempool

import (
	"sync"

	"github.com/n3d-io/n3d/pkg/core/transaction"
)

// Reason says why a transaction left the pool. The first three values are
// the reference's TransactionRemovalReason, in its order.
type Reason byte

// Removal reasons.
const (
	// ReasonCapacityExceeded: evicted as the lowest-priority transaction of
	// a full pool.
	ReasonCapacityExceeded Reason = iota
	// ReasonNoLongerValid: failed re-verification after a block.
	ReasonNoLongerValid
	// ReasonConflict: replaced by a transaction with Conflicts that pays
	// more, or conflicting with a transaction of a new block.
	ReasonConflict
	// ReasonIncluded: included in a block (the reference removes these
	// silently; we report them so subscribers need not watch blocks).
	ReasonIncluded
	// ReasonDropped: removed by the node through Remove.
	ReasonDropped
)

var reasonNames = [...]string{"CapacityExceeded", "NoLongerValid", "Conflict", "Included", "Dropped"}

// String is the reason's name (the reference's for the first three).
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "Unknown"
}

// EventKind says whether a transaction entered or left the pool.
type EventKind byte

// Event kinds.
const (
	TransactionAdded EventKind = iota + 1
	TransactionRemoved
)

// Event is one change of the pool. Reason is set for TransactionRemoved.
// The pointer comes first: 16 bytes, not 24 (the saved pool's
// subscription buffers MemPoolSize and more events).
type Event struct {
	Tx     *transaction.Transaction
	Kind   EventKind
	Reason Reason
}

// Subscription receives the pool's events in the order they happened.
// Sends never block the pool: a subscriber whose channel is full is
// dropped, its channel closed and Err set to ErrSlowSubscriber.
type Subscription struct {
	// C delivers the events; it is closed by Close or when the
	// subscriber is dropped.
	C <-chan Event

	ch   chan Event
	pool *Pool
	err  error // guarded by pool.subMu
}

// Subscribe returns a subscription with a channel of the given capacity
// (at least 1).
func (p *Pool) Subscribe(capacity int) *Subscription {
	ch := make(chan Event, max(capacity, 1))
	s := &Subscription{C: ch, ch: ch, pool: p}
	p.subMu.Lock()
	p.subs[s] = struct{}{}
	p.nsubs.Store(int32(len(p.subs)))
	p.subMu.Unlock()
	return s
}

// Close stops the subscription and closes C. It may be called more than
// once.
func (s *Subscription) Close() {
	s.pool.subMu.Lock()
	s.pool.dropLocked(s, nil)
	s.pool.subMu.Unlock()
}

// Err is ErrSlowSubscriber when the subscription was dropped for a full
// channel, nil otherwise.
func (s *Subscription) Err() error {
	s.pool.subMu.Lock()
	defer s.pool.subMu.Unlock()
	return s.err
}

// dropLocked removes s (REQUIRES: subMu).
func (p *Pool) dropLocked(s *Subscription, err error) {
	if _, ok := p.subs[s]; !ok {
		return
	}
	delete(p.subs, s)
	p.nsubs.Store(int32(len(p.subs)))
	s.err = err
	close(s.ch)
}

// events collects the events of one pool operation; they are published
// together while the pool lock is still held, so every subscriber sees the
// pool's changes in order.
type events []Event

func (e *events) added(it *item) {
	*e = append(*e, Event{Kind: TransactionAdded, Tx: it.tx})
}

func (e *events) removed(it *item, r Reason) {
	*e = append(*e, removedEvent(it, r))
}

func removedEvent(it *item, r Reason) Event {
	return Event{Kind: TransactionRemoved, Tx: it.tx, Reason: r}
}

// publishLocked delivers evs without blocking (REQUIRES: p.mu held for
// writing, so events keep the pool's order).
func (p *Pool) publishLocked(evs events) {
	p.metrics.observe(p.list.len(), evs)
	if len(evs) == 0 || p.nsubs.Load() == 0 {
		return
	}
	p.subMu.Lock()
	defer p.subMu.Unlock()
	for s := range p.subs {
		for i := range evs {
			select {
			case s.ch <- evs[i]:
			default:
				p.dropLocked(s, ErrSlowSubscriber)
			}
			if s.err != nil {
				break
			}
		}
	}
}

// subscribers is the part of Pool that holds the subscriptions.
type subscribers struct {
	subMu sync.Mutex
	subs  map[*Subscription]struct{}
}
