package mempool

import (
	"fmt"
	"maps"
	"math/big"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
)

// Ledger is what the pool reads from the chain.
type Ledger interface {
	// BlockHeight is the height of the current state.
	BlockHeight() uint32
	// GASBalance is acc's GAS balance in the current state. The pool does
	// not modify the result.
	GASBalance(acc util.Uint160) (*big.Int, error)
}

// Config configures a Pool.
type Config struct {
	// Capacity is the maximum number of transactions (the protocol's
	// MemPoolSize); it must be positive.
	Capacity int
	// Ledger is the chain; required.
	Ledger Ledger
	// Registerer receives the pool's metrics; nil registers nothing.
	Registerer prometheus.Registerer
	// CheckWorkers bounds the goroutines that run the isStillValid
	// callback of UpdateForBlock; 0 means GOMAXPROCS.
	CheckWorkers int
}

func (c *Config) validate() error {
	if c.Capacity <= 0 {
		return fmt.Errorf("%w: capacity %d", ErrBadConfig, c.Capacity)
	}
	if c.Ledger == nil {
		return fmt.Errorf("%w: no ledger", ErrBadConfig)
	}
	if c.CheckWorkers < 0 {
		return fmt.Errorf("%w: %d check workers", ErrBadConfig, c.CheckWorkers)
	}
	if c.CheckWorkers == 0 {
		c.CheckWorkers = runtime.GOMAXPROCS(0)
	}
	return nil
}

// Pool is the memory pool of verified transactions waiting for a block.
// It is safe for concurrent use.
type Pool struct {
	cfg     Config
	metrics *metrics

	// mu guards the fields below it; subMu (in subscribers) is taken
	// after mu, never before.
	mu     sync.RWMutex
	byHash map[util.Uint256]*item
	list   ordered
	// conflicts maps a hash named by Conflicts attributes to the pooled
	// items naming it.
	conflicts map[util.Uint256][]*item
	fees      feeContext
	epoch     uint64 // UpdateForBlock rounds, stamps item verdicts
	peak      int    // most entries byHash held since it was made
	remakes   int    // times byHash was made again (tests)

	updMu sync.Mutex // serialises UpdateForBlock
	snap  []*item    // UpdateForBlock's snapshot buffer, empty between rounds (updMu)

	subscribers
	nsubs atomic.Int32
}

// New returns an empty pool.
func New(cfg Config) (*Pool, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	p := &Pool{
		cfg:     cfg,
		metrics: m,
		// Not sized for Capacity: a pool under load holds a block or two
		// of transactions, far fewer than it may, and a map made for
		// 50,000 is ~7 MB of pointers the collector scans on every cycle.
		byHash:    make(map[util.Uint256]*item),
		conflicts: make(map[util.Uint256][]*item),
		fees:      newFeeContext(),
	}
	p.subs = make(map[*Subscription]struct{})
	return p, nil
}

// Capacity is the maximum number of transactions.
func (p *Pool) Capacity() int { return p.cfg.Capacity }

// Add pools tx, which the chain verified (VerifyTx) against the state at
// height verifiedAt. The pool then applies its own rules, in the
// reference's order: already pooled (ErrDup), Conflicts attributes
// (ErrConflict), the sender's GAS against the fees of all its pooled
// transactions and one response per oracle request (ErrInsufficientFunds,
// ErrOracleResponse), capacity (ErrOOM). ErrStale means the chain moved
// past verifiedAt: verify tx again. On success the pooled transactions tx
// replaces (Conflicts) and the one it evicts from a full pool are removed
// and reported to subscribers.
func (p *Pool) Add(tx *transaction.Transaction, verifiedAt uint32) error {
	it := newItem(tx)
	p.mu.Lock()
	defer p.mu.Unlock()
	h := p.cfg.Ledger.BlockHeight()
	if h != verifiedAt {
		return fmt.Errorf("%w: verified at height %d, chain at %d", ErrStale, verifiedAt, h)
	}
	if _, ok := p.byHash[it.hash]; ok {
		return ErrDup
	}
	victims, err := p.checkConflictsLocked(it)
	if err != nil {
		return err
	}
	if err := p.checkFundsLocked(it, victims, h); err != nil {
		return err
	}
	if len(victims) == 0 && p.list.len() >= p.cfg.Capacity {
		if low := p.list.last(); low == nil || it.cmpPriority(low) <= 0 {
			return ErrOOM
		}
	}
	var buf [2]Event // the added one and an evicted one, without a heap slice
	evs := events(buf[:0])
	for _, v := range victims {
		if p.removeLocked(v) {
			evs = append(evs, removedEvent(v, ReasonConflict))
		}
	}
	p.insertLocked(it)
	evs = append(evs, Event{Kind: TransactionAdded, Tx: it.tx})
	for p.list.len() > p.cfg.Capacity {
		low := p.list.last()
		p.removeLocked(low)
		evs = append(evs, removedEvent(low, ReasonCapacityExceeded))
	}
	p.publishLocked(evs)
	return nil
}

// CanFit reports whether tx may enter the pool as far as capacity goes: the
// pool is not full, tx beats its lowest-priority transaction, or tx may
// replace pooled transactions through Conflicts. It is a cheap check to
// run before verification; Add decides.
func (p *Pool) CanFit(tx *transaction.Transaction) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if p.list.len() < p.cfg.Capacity {
		return true
	}
	if tx.HasAttribute(transaction.AttrConflicts) {
		return true
	}
	it := newItem(tx)
	if _, ok := p.conflicts[it.hash]; ok {
		return true
	}
	low := p.list.last()
	return low == nil || it.cmpPriority(low) > 0
}

// Remove removes the transaction with hash h (reason ReasonDropped) and
// reports whether it was pooled.
func (p *Pool) Remove(h util.Uint256) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	it, ok := p.byHash[h]
	if !ok {
		return false
	}
	p.removeLocked(it)
	p.publishLocked(events{{Kind: TransactionRemoved, Tx: it.tx, Reason: ReasonDropped}})
	return true
}

// TryGet returns the pooled transaction with hash h.
func (p *Pool) TryGet(h util.Uint256) (*transaction.Transaction, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if it, ok := p.byHash[h]; ok {
		return it.tx, true
	}
	return nil, false
}

// Contains reports whether a transaction with hash h is pooled.
func (p *Pool) Contains(h util.Uint256) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	_, ok := p.byHash[h]
	return ok
}

// Count is the number of pooled transactions.
func (p *Pool) Count() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.list.len()
}

// GetVerifiedTransactions returns every pooled transaction, the highest
// priority first (the reference's GetSortedVerifiedTransactions). The
// slice is the caller's; the transactions are shared and must not be
// modified.
func (p *Pool) GetVerifiedTransactions() []*transaction.Transaction {
	return p.Top(-1)
}

// Top returns at most n pooled transactions (all of them when n < 0), the
// highest priority first.
func (p *Pool) Top(n int) []*transaction.Transaction {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if n < 0 || n > p.list.len() {
		n = p.list.len()
	}
	return p.list.appendTxs(make([]*transaction.Transaction, 0, n), n)
}

// insertLocked adds it to every index (REQUIRES: mu).
func (p *Pool) insertLocked(it *item) {
	p.byHash[it.hash] = it
	p.peak = max(p.peak, len(p.byHash))
	p.list.insert(it)
	p.fees.add(it)
	p.indexConflictsLocked(it)
}

// indexConflictsLocked lists it under every hash it names (REQUIRES: mu).
func (p *Pool) indexConflictsLocked(it *item) {
	for _, h := range it.conflicts {
		// The index is a set per hash, as the reference's: a transaction
		// naming a hash twice is listed once.
		if l := p.conflicts[h]; len(l) == 0 || l[len(l)-1] != it {
			p.conflicts[h] = append(l, it)
		}
	}
}

// remakeMin is the fewest entries the hash index must have held to be
// made again when it shrinks (smaller ones cost too little to bother).
const remakeMin = 4096

// shrinkLocked makes the hash index again once it holds a quarter of its
// peak: Go's maps keep their room after deletions, so a burst that filled
// the pool (50,000 transactions, ~2.5 MB of index) would otherwise keep
// it for good. The copy is paid at most once per three quarters of the
// peak removed. REQUIRES: mu.
func (p *Pool) shrinkLocked() {
	if p.peak < remakeMin || len(p.byHash) > p.peak/4 {
		return
	}
	m := make(map[util.Uint256]*item, len(p.byHash))
	maps.Copy(m, p.byHash)
	p.byHash, p.peak = m, len(m)
	p.remakes++
}

// removeLocked drops it from every index and reports whether it was
// pooled (REQUIRES: mu).
func (p *Pool) removeLocked(it *item) bool {
	if !p.unindexLocked(it) {
		return false
	}
	p.list.remove(it)
	return true
}

// unindexLocked drops it from every index but the ordered list and
// reports whether it was pooled (REQUIRES: mu).
func (p *Pool) unindexLocked(it *item) bool {
	if p.byHash[it.hash] != it {
		return false
	}
	delete(p.byHash, it.hash)
	p.fees.remove(it)
	p.unindexConflictsLocked(it)
	return true
}

// unindexConflictsLocked drops it from the Conflicts index (REQUIRES: mu).
func (p *Pool) unindexConflictsLocked(it *item) {
	for _, h := range it.conflicts {
		l := p.conflicts[h]
		for i := range l {
			if l[i] == it {
				l[i] = l[len(l)-1]
				l[len(l)-1] = nil
				l = l[:len(l)-1]
				break
			}
		}
		if len(l) == 0 {
			delete(p.conflicts, h)
		} else {
			p.conflicts[h] = l
		}
	}
}
