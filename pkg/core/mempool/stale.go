package mempool

import (
	"sync"
	"sync/atomic"

	"github.com/n3d-io/n3d/pkg/core/transaction"
)

// UpdateForBlock brings the pool up to a block the chain has just added
// (the reference's UpdatePoolForBlockPersisted), in three steps:
//
//  1. the block's transactions leave the pool (ReasonIncluded), and so do
//     the pooled ones conflicting with them (ReasonConflict): a pooled
//     transaction a block transaction names in Conflicts and signed by one
//     of its signers, or a pooled transaction naming a block transaction;
//  2. isStillValid (nil: all are) re-checks every remaining transaction
//     against the new state, on up to Config.CheckWorkers goroutines and
//     without the pool lock, so Add, TryGet and friends go on meanwhile;
//     it must be safe for concurrent use;
//  3. the fee context is rebuilt from the new balances in priority order:
//     the transactions isStillValid rejected and those their sender can no
//     longer pay for leave (ReasonNoLongerValid). When isStillValid
//     rejected none and every sender's balance covers all its pooled
//     fees, nobody can leave and the context is kept as it is: the lock
//     is then held for one balance look-up per sender, not a walk of the
//     pool.
//
// The reference instead marks every transaction unverified and re-verifies
// the best MaxTransactionsPerBlock at once and the rest when idle;
// checking all of them in parallel keeps a single set of transactions,
// each always eligible for the next block. Transactions added during step
// 2 were verified against the new state (Add rejects older ones with
// ErrStale) and are kept. Calls are serialised.
func (p *Pool) UpdateForBlock(persisted []*transaction.Transaction, isStillValid func(*transaction.Transaction) bool) {
	p.updMu.Lock()
	defer p.updMu.Unlock()

	p.mu.Lock()
	var evs events
	p.removeIncludedLocked(persisted, &evs)
	p.epoch++
	epoch := p.epoch
	if cap(p.snap) < p.list.len() {
		p.snap = make([]*item, 0, p.list.len())
	}
	snap := p.snap[:0]
	p.list.each(func(it *item) bool {
		snap = append(snap, it)
		return true
	})
	p.publishLocked(evs)
	p.mu.Unlock()

	rejected := 0
	if isStillValid != nil {
		rejected = p.checkAll(snap, epoch, isStillValid)
	}
	clear(snap) // kept for the next round, without the items
	p.snap = snap[:0]

	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.cfg.Ledger.BlockHeight()
	if rejected == 0 && p.fundsHoldLocked(h) {
		// Nobody leaves: the fee context and the Conflicts index stay
		// as they are (a rebuild would make them again, equal).
		p.shrinkLocked()
		p.publishLocked(nil)
		return
	}
	p.rebuildLocked(epoch, isStillValid != nil, h)
}

// fundsHoldLocked reports whether every sender's GAS at height h covers
// the fees of all its pooled transactions. Then step 3 removes nothing:
// the check of each transaction in priority order compares the balance
// with a prefix of that sum (oracle responses are unique in the pool
// already). A balance that cannot be read says no (REQUIRES: mu).
func (p *Pool) fundsHoldLocked(h uint32) bool {
	for acc, total := range p.fees.fees {
		bal, err := p.fees.balance(p.cfg.Ledger, h, acc)
		if err != nil || bal.cmp(total) < 0 {
			return false
		}
	}
	return true
}

// RemoveStale is UpdateForBlock without block transactions: it re-checks
// every pooled transaction with isStillValid and against its sender's
// balance.
func (p *Pool) RemoveStale(isStillValid func(*transaction.Transaction) bool) {
	p.UpdateForBlock(nil, isStillValid)
}

// removeIncludedLocked is step 1 of UpdateForBlock (REQUIRES: mu).
func (p *Pool) removeIncludedLocked(block []*transaction.Transaction, evs *events) {
	if len(block) == 0 {
		return
	}
	// A block taking a good part of the pool leaves the ordered list in
	// one pass over it, not a search and a shift per transaction.
	batch := len(block) >= batchRemoveMin && len(block) >= p.list.len()/8
	gone := false
	for _, tx := range block {
		it, ok := p.byHash[tx.Hash()]
		if !ok {
			continue
		}
		if batch {
			p.unindexLocked(it)
			it.gone, gone = true, true
		} else {
			p.removeLocked(it)
		}
		evs.removed(it, ReasonIncluded)
	}
	if gone {
		p.list.filter(func(it *item) bool { return !it.gone })
	}
	for _, tx := range block {
		// Pooled transactions this one names, sharing a signer with it.
		for i := range tx.Attributes {
			c, ok := tx.Attributes[i].Value.(*transaction.Conflicts)
			if !ok {
				continue
			}
			if it, ok := p.byHash[c.Hash]; ok && sharesSigner(tx, it.tx) {
				p.removeLocked(it)
				evs.removed(it, ReasonConflict)
			}
		}
		// Pooled transactions naming this one.
		for len(p.conflicts[tx.Hash()]) > 0 {
			it := p.conflicts[tx.Hash()][0]
			p.removeLocked(it)
			evs.removed(it, ReasonConflict)
		}
	}
}

// batchRemoveMin is the fewest pooled transactions of a block removed
// from the ordered list in one pass (when they are also an eighth of the
// pool or more).
const batchRemoveMin = 64

func sharesSigner(a, b *transaction.Transaction) bool {
	for i := range a.Signers {
		if b.HasSigner(a.Signers[i].Account) {
			return true
		}
	}
	return false
}

// checkAll runs ok on every item of snap on up to CheckWorkers goroutines
// and records the verdicts in the items, stamped with epoch. It returns
// how many ok rejected.
func (p *Pool) checkAll(snap []*item, epoch uint64, ok func(*transaction.Transaction) bool) int {
	workers := min(p.cfg.CheckWorkers, (len(snap)+63)/64)
	var (
		next     atomic.Int64
		rejected atomic.Int64
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(snap) {
					return
				}
				it := snap[i]
				it.valid = ok(it.tx)
				it.epoch = epoch
				if !it.valid {
					rejected.Add(1)
				}
			}
		})
	}
	wg.Wait()
	return int(rejected.Load())
}

// rebuildLocked is step 3 of UpdateForBlock: it rebuilds the fee context
// and the Conflicts index over the transactions that stay (REQUIRES: mu).
func (p *Pool) rebuildLocked(epoch uint64, checked bool, h uint32) {
	p.fees.reset()
	clear(p.conflicts)
	keep := make([]*item, 0, p.list.len())
	var evs events
	p.list.each(func(it *item) bool {
		invalid := checked && it.epoch == epoch && !it.valid
		if !invalid && p.checkFundsLocked(it, nil, h) == nil {
			keep = append(keep, it)
			p.fees.add(it)
			p.indexConflictsLocked(it)
			return true
		}
		delete(p.byHash, it.hash)
		evs.removed(it, ReasonNoLongerValid)
		return true
	})
	if len(evs) > 0 {
		p.list.rebuild(keep)
	}
	p.shrinkLocked()
	p.publishLocked(evs)
}
