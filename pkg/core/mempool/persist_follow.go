package mempool

import (
	"errors"
	"fmt"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"go.uber.org/zap"
)

// followCapacity is the event buffer of Follow's subscription.
const followCapacity = 4096

// Follow keeps the journal in step with p until stop is called: every
// transaction p accepts is appended (unless the accept path appended it
// already with Append), and the file is compacted to p's transactions once
// it holds more than twice MaxTransactions records. Should its
// subscription be dropped (a burst beyond its buffer), it compacts to p's
// transactions and subscribes again, so no pooled transaction is missed.
// Errors are logged (at ERROR: the saved pool then lags the pool) and
// retried with the next event. stop handles the events already delivered,
// then returns once the goroutine has ended.
func (j *Journal) Follow(p *Pool) (stop func()) {
	done := make(chan struct{})
	ended := make(chan struct{})
	sub := p.Subscribe(followCapacity) // before returning: no event is missed
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

func (j *Journal) follow(p *Pool, sub *Subscription, done <-chan struct{}) {
	defer func() { sub.Close() }()
	for {
		select {
		case <-done:
			for {
				select {
				case ev, ok := <-sub.C:
					if !j.handle(p, &sub, ev, ok) {
						return
					}
				default:
					return
				}
			}
		case ev, ok := <-sub.C:
			j.handle(p, &sub, ev, ok)
		}
	}
}

// handle saves one event of Follow's subscription; ok false means the
// subscription was dropped: it catches up from p and subscribes again
// (and returns false).
func (j *Journal) handle(p *Pool, sub **Subscription, ev Event, ok bool) bool {
	log := j.cfg.Log
	if !ok {
		*sub = p.Subscribe(followCapacity)
		if err := j.Compact(p.GetVerifiedTransactions()); err != nil {
			log.Error("saving the pool failed", zap.Error(err))
		}
		return false
	}
	if ev.Kind == TransactionAdded {
		if err := j.Append(ev.Tx); err != nil {
			log.Error("saving a pooled transaction failed", zap.Stringer("tx", ev.Tx.Hash()), zap.Error(err))
		}
	}
	if j.NeedsCompaction() {
		if err := j.Compact(p.GetVerifiedTransactions()); err != nil {
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
