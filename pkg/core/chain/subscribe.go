package chain

import (
	"errors"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// EventKind selects the events a subscription receives (a bit set).
type EventKind byte

// Event kinds.
const (
	EventBlock EventKind = 1 << iota
	EventTransaction
	EventExecution
	EventNotification
	EventAll = EventBlock | EventTransaction | EventExecution | EventNotification
)

// DefaultMaxPending is the number of undelivered events after which a
// subscriber is dropped.
const DefaultMaxPending = 1 << 16

// ErrSlowSubscriber is the Err of a subscription dropped because its
// reader fell more than its MaxPending events behind.
var ErrSlowSubscriber = errors.New("chain: subscriber too slow, dropped")

// Event is one chain event; the field matching Kind is set. For a
// notification, Container is the hash of the transaction or block that
// emitted it. Everything an event points to is shared: do not modify it.
type Event struct {
	Kind         EventKind
	Block        *block.Block
	Tx           *transaction.Transaction
	Execution    *state.AppExecResult
	Notification *state.NotificationEvent
	Container    util.Uint256
}

// Subscription delivers events on C in chain order: for each block, the
// OnPersist execution and its notifications, then per transaction the
// transaction, its execution and its notifications, then the PostPersist
// execution and its notifications, then the block. C is closed after Close
// or when the subscriber is dropped.
type Subscription struct {
	C <-chan Event

	ch   chan Event
	kind EventKind
	max  int
	n    *notifier
	done chan struct{}
	once sync.Once

	mu struct {
		sync.Mutex
		queue  []Event
		err    error
		closed bool
	}
	wake chan struct{}
}

// Close stops the subscription; it never blocks, even with undelivered
// events, and may be called more than once and from any goroutine.
func (s *Subscription) Close() {
	s.n.remove(s)
	s.stop()
}

// stop ends delivery; it takes no notifier lock.
func (s *Subscription) stop() {
	s.once.Do(func() {
		s.mu.Lock()
		s.mu.closed = true
		s.mu.queue = nil
		s.mu.Unlock()
		close(s.done)
	})
}

// Err returns ErrSlowSubscriber if the subscription was dropped.
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mu.err
}

// push queues events without blocking; it returns false when the
// subscriber has to be dropped.
func (s *Subscription) push(evs []Event) bool {
	s.mu.Lock()
	if s.mu.closed {
		s.mu.Unlock()
		return true
	}
	for _, e := range evs {
		if e.Kind&s.kind != 0 {
			s.mu.queue = append(s.mu.queue, e)
		}
	}
	if len(s.mu.queue) > s.max {
		s.mu.err = ErrSlowSubscriber
		s.mu.Unlock()
		s.stop()
		return false
	}
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return true
}

// deliver is the subscription's goroutine: it moves queued events to C.
func (s *Subscription) deliver() {
	defer close(s.ch)
	for {
		s.mu.Lock()
		q := s.mu.queue
		s.mu.queue = nil
		s.mu.Unlock()
		for _, e := range q {
			select {
			case s.ch <- e:
			case <-s.done:
				return
			}
		}
		select {
		case <-s.wake:
		case <-s.done:
			return
		}
	}
}

// notifier fans events out to subscriptions.
type notifier struct {
	mu   sync.RWMutex
	subs map[*Subscription]struct{}
}

func newNotifier() *notifier { return &notifier{subs: make(map[*Subscription]struct{})} }

func (n *notifier) add(s *Subscription) {
	n.mu.Lock()
	n.subs[s] = struct{}{}
	n.mu.Unlock()
}

func (n *notifier) remove(s *Subscription) {
	n.mu.Lock()
	delete(n.subs, s)
	n.mu.Unlock()
}

func (n *notifier) closeAll() {
	n.mu.RLock()
	subs := make([]*Subscription, 0, len(n.subs))
	for s := range n.subs {
		subs = append(subs, s)
	}
	n.mu.RUnlock()
	for _, s := range subs {
		s.Close()
	}
}

func (n *notifier) publish(evs []Event) {
	var dropped []*Subscription
	n.mu.RLock()
	for s := range n.subs {
		if !s.push(evs) {
			dropped = append(dropped, s)
		}
	}
	n.mu.RUnlock()
	for _, s := range dropped {
		n.remove(s)
	}
}

// wanted is the union of the kinds the subscriptions take (0: none), so
// that a block's events nobody takes are not built (the node's own
// subscribers take blocks only).
func (n *notifier) wanted() EventKind {
	n.mu.RLock()
	defer n.mu.RUnlock()
	var k EventKind
	for s := range n.subs {
		k |= s.kind
	}
	return k
}

// recordTxsAsTheyRun reports whether a block's transactions are recorded
// as each one runs rather than after the block: when no subscriber takes
// executions or notifications, nothing reads a result once it is stored.
func (c *Chain) recordTxsAsTheyRun() bool {
	return c.subs.wanted()&^EventBlock == 0
}

// Subscribe returns a subscription to the given kinds of events. maxPending
// bounds its backlog (DefaultMaxPending when 0); a subscriber further behind
// is dropped, so a slow reader never holds up block processing.
func (c *Chain) Subscribe(kinds EventKind, maxPending int) *Subscription {
	if maxPending <= 0 {
		maxPending = DefaultMaxPending
	}
	ch := make(chan Event)
	s := &Subscription{C: ch, ch: ch, kind: kinds, max: maxPending, n: c.subs,
		done: make(chan struct{}), wake: make(chan struct{}, 1)}
	c.subs.add(s)
	go s.deliver()
	return s
}

// publish sends a block's events.
func (c *Chain) publish(b *block.Block, res *blockResult, _ util.Uint256) {
	kinds := c.subs.wanted()
	if kinds == 0 {
		return
	}
	n := 1
	if kinds&^EventBlock != 0 {
		n += 2 + 3*len(b.Transactions)
	}
	evs := make([]Event, 0, n)
	addExec := func(r *state.AppExecResult) {
		if r == nil {
			return
		}
		if kinds&EventExecution != 0 {
			evs = append(evs, Event{Kind: EventExecution, Execution: r, Container: r.Container})
		}
		if kinds&EventNotification != 0 {
			for i := range r.Events {
				evs = append(evs, Event{Kind: EventNotification, Notification: &r.Events[i], Container: r.Container})
			}
		}
	}
	if kinds&^EventBlock != 0 {
		addExec(res.onPersist)
		for i, tx := range b.Transactions {
			if kinds&EventTransaction != 0 {
				evs = append(evs, Event{Kind: EventTransaction, Tx: tx, Container: tx.Hash()})
			}
			if !res.txsStored { // recorded as they ran: nobody wanted them then
				addExec(res.txs[i])
			}
		}
		addExec(res.postPersist)
	}
	evs = append(evs, Event{Kind: EventBlock, Block: b, Container: b.Hash()})
	c.subs.publish(evs)
}
