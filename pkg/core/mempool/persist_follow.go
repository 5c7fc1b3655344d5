package mempool

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"go.uber.org/zap"
)

// followCapacity is the event buffer of Follow's subscription beyond
// MaxTransactions: a block removing the whole pool does not overflow it
// (a dropped subscription costs a rewrite of the file).
const followCapacity = 4096

// followFlushEvery is how often Follow writes the records staged by the
// accept path that nobody flushed (transactions from peers with relaying
// off); the accept path flushes before answering or announcing.
const followFlushEvery = 100 * time.Millisecond

// Follow keeps the journal in step with p until stop is called: every
// transaction p accepts is recorded (unless the accept path staged it
// already), one that leaves p is forgotten, the records staged are written
// at least every followFlushEvery, and the file is compacted to p's
// transactions when NeedsCompaction says so. Should its
// subscription be dropped (a burst beyond its buffer), it compacts to p's
// transactions and subscribes again, so no pooled transaction is missed.
// Errors are logged (at ERROR: the saved pool then lags the pool) and
// retried with the next event. stop handles the events already delivered,
// then returns once the goroutine has ended.
func (j *Journal) Follow(p *Pool) (stop func()) {
	done := make(chan struct{})
	ended := make(chan struct{})
	sub := p.Subscribe(j.followCapacity()) // before returning: no event is missed
	go func() {
		defer close(ended)
		j.follow(p, sub, done)
	}()
	var once sync.Once
	return func() {
		once.Do(func() { close(done) })
		<-ended
	}
}

func (j *Journal) followCapacity() int {
	if j.subCap > 0 {
		return j.subCap
	}
	return j.cfg.MaxTransactions + followCapacity
}

func (j *Journal) follow(p *Pool, sub *Subscription, done <-chan struct{}) {
	defer func() { sub.Close() }()
	tick := time.NewTicker(followFlushEvery)
	defer tick.Stop()
	for {
		select {
		case <-done:
			for {
				select {
				case ev, ok := <-sub.C:
					if !j.handle(p, &sub, ev, ok) {
						j.flushLogged()
						return
					}
				default:
					j.flushLogged()
					return
				}
			}
		case <-tick.C:
			j.flushLogged()
		case ev, ok := <-sub.C:
			j.handle(p, &sub, ev, ok)
		}
	}
}

func (j *Journal) flushLogged() {
	if err := j.Flush(); err != nil {
		j.cfg.Log.Error("saving pooled transactions failed", zap.Error(err))
	}
}

// handle saves one event of Follow's subscription; ok false means the
// subscription was dropped: it catches up from p and subscribes again
// (and returns false).
func (j *Journal) handle(p *Pool, sub **Subscription, ev Event, ok bool) bool {
	log := j.cfg.Log
	if !ok {
		*sub = p.Subscribe(j.followCapacity())
		if err := j.compactPool(p); err != nil {
			log.Error("saving the pool failed", zap.Error(err))
		}
		return false
	}
	switch ev.Kind {
	case TransactionAdded:
		if err := j.Stage(ev.Tx); err != nil {
			log.Error("saving a pooled transaction failed", zap.Stringer("tx", ev.Tx.Hash()), zap.Error(err))
		}
	case TransactionRemoved:
		j.Forget(ev.Tx.Hash())
	}
	if j.NeedsCompaction() {
		if err := j.compactPool(p); err != nil {
			log.Error("compacting the saved pool failed", zap.Error(err))
		}
	}
	return true
}

// Verifier verifies a transaction against the chain's current state and
// returns the height it verified at (the chain's VerifyTxConcurrent
// together with BlockHeight read before it).
type Verifier func(tx *transaction.Transaction) (height uint32, err error)

// Reload puts the saved transactions back into p, each verified by verify
// first: those included meanwhile, expired or no longer valid are dropped.
// It returns the transactions pooled again (for the node to announce them
// to its peers) and how many were dropped.
func Reload(p *Pool, txs []*transaction.Transaction, verify Verifier) (added []*transaction.Transaction, dropped int) {
	for _, tx := range txs {
		if err := reloadOne(p, tx, verify); err != nil {
			dropped++
			continue
		}
		added = append(added, tx)
	}
	return added, dropped
}

// reloadOne verifies and adds tx, verifying again when a block came in
// between (ErrStale), a bounded number of times.
func reloadOne(p *Pool, tx *transaction.Transaction, verify Verifier) error {
	for range 3 {
		h, err := verify(tx)
		if err != nil {
			return err
		}
		if err = p.Add(tx, h); !errors.Is(err, ErrStale) {
			return err
		}
	}
	return fmt.Errorf("%w: transaction %s: the chain kept moving", ErrStale, tx.Hash().String())
}
