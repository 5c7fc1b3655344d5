package mempool

import (
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func removedSet(evs []Event) map[util.Uint256]Reason {
	res := map[util.Uint256]Reason{}
	for _, ev := range evs {
		if ev.Kind == TransactionRemoved {
			res[ev.Tx.Hash()] = ev.Reason
		}
	}
	return res
}

func TestUpdateForBlockRemovesIncludedAndConflicting(t *testing.T) {
	alice, bob, carol := acc(1), acc(2), acc(3)
	p, l := newPool(t, 100)
	sub := p.Subscribe(100)

	included := txSpec{nonce: 1, signers: []util.Uint160{alice}, netFee: 100}.build()
	// The block's own transaction, not pooled, naming two pooled ones.
	namedShared := txSpec{nonce: 2, signers: []util.Uint160{bob}, netFee: 100}.build()
	namedForeign := txSpec{nonce: 3, signers: []util.Uint160{carol}, netFee: 100}.build()
	blockTx := txSpec{nonce: 4, signers: []util.Uint160{alice, bob}, netFee: 100,
		confl: []util.Uint256{namedShared.Hash(), namedForeign.Hash()}}.build()
	// A pooled one naming the block's transaction.
	naming := txSpec{nonce: 5, signers: []util.Uint160{carol}, netFee: 100, confl: []util.Uint256{blockTx.Hash()}}.build()
	unrelated := txSpec{nonce: 6, signers: []util.Uint160{carol}, netFee: 100}.build()
	for _, tx := range []*transaction.Transaction{included, namedShared, namedForeign, naming, unrelated} {
		require.NoError(t, add(p, l, tx))
	}
	drain(sub)
	l.height.Store(1)
	p.UpdateForBlock([]*transaction.Transaction{included, blockTx}, nil)
	require.Equal(t, map[util.Uint256]Reason{
		included.Hash():    ReasonIncluded,
		namedShared.Hash(): ReasonConflict,
		naming.Hash():      ReasonConflict,
	}, removedSet(drain(sub)))
	require.ElementsMatch(t, hashes([]*transaction.Transaction{namedForeign, unrelated}), hashes(p.GetVerifiedTransactions()))
	checkInvariants(t, p)
}

func TestUpdateForBlockRechecks(t *testing.T) {
	alice, bob := acc(1), acc(2)
	p, l := newPool(t, 1000)
	p.cfg.CheckWorkers = 4
	var alices []*transaction.Transaction
	for i := range 10 {
		tx := txSpec{nonce: uint32(i), signers: []util.Uint160{alice}, netFee: int64(1000 + i)}.build()
		alices = append(alices, tx)
		require.NoError(t, add(p, l, tx))
	}
	var bobs []*transaction.Transaction
	for i := range 300 {
		tx := txSpec{nonce: uint32(i), signers: []util.Uint160{bob}, netFee: 100}.build()
		bobs = append(bobs, tx)
		require.NoError(t, add(p, l, tx))
	}
	sub := p.Subscribe(1000)
	invalid := bobs[7].Hash()
	var calls atomic.Int64
	// Alice spent GAS in the block: she can now pay for her best 4.
	l.setBalance(alice, 1009+1008+1007+1006)
	l.height.Store(1)
	p.RemoveStale(func(tx *transaction.Transaction) bool {
		calls.Add(1)
		return tx.Hash() != invalid
	})
	require.EqualValues(t, 310, calls.Load())
	removed := removedSet(drain(sub))
	require.Len(t, removed, 7)
	require.Equal(t, ReasonNoLongerValid, removed[invalid])
	for i := range 6 { // the lowest six
		require.Equal(t, ReasonNoLongerValid, removed[alices[i].Hash()])
	}
	require.Equal(t, 303, p.Count())
	checkInvariants(t, p)
	// The rebuilt context still accounts Alice's fees.
	require.ErrorIs(t, add(p, l, txSpec{nonce: 99, signers: []util.Uint160{alice}, netFee: 1}.build()), ErrInsufficientFunds)
	// And the rebuilt list still inserts and removes.
	require.NoError(t, add(p, l, txSpec{nonce: 99, signers: []util.Uint160{bob}, netFee: 5000}.build()))
	checkInvariants(t, p)
}

// TestUpdateForBlockConcurrentChanges adds and removes transactions while
// the re-checks run without the lock.
func TestUpdateForBlockConcurrentChanges(t *testing.T) {
	p, l := newPool(t, 100)
	old := txSpec{nonce: 1, netFee: 100}.build()
	gone := txSpec{nonce: 2, netFee: 100}.build()
	require.NoError(t, add(p, l, old))
	require.NoError(t, add(p, l, gone))
	l.height.Store(1)
	fresh := txSpec{nonce: 3, netFee: 100}.build()
	entered := make(chan struct{})
	release := make(chan struct{})
	var once sync.Once
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.UpdateForBlock(nil, func(*transaction.Transaction) bool {
			once.Do(func() { close(entered); <-release })
			return true
		})
	}()
	<-entered
	// The pool is usable during the checks.
	require.ErrorIs(t, p.Add(fresh, 0), ErrStale)
	require.NoError(t, p.Add(fresh, 1))
	require.True(t, p.Remove(gone.Hash()))
	require.Equal(t, 2, p.Count())
	close(release)
	<-done
	require.ElementsMatch(t, hashes([]*transaction.Transaction{old, fresh}), hashes(p.GetVerifiedTransactions()))
	checkInvariants(t, p)
}

func TestUpdateForBlockLedgerError(t *testing.T) {
	p, l := newPool(t, 100)
	require.NoError(t, add(p, l, txSpec{nonce: 1, netFee: 100}.build()))
	l.height.Store(1)
	l.err = errLedger
	// A sender whose balance cannot be read cannot be shown to pay.
	p.RemoveStale(nil)
	require.Zero(t, p.Count())
	checkInvariants(t, p)
}

// TestConcurrentAddRemove runs every operation from several goroutines;
// run it with -race.
func TestConcurrentAddRemove(t *testing.T) {
	p, l := newPool(t, 300)
	sub := p.Subscribe(1 << 16)
	const workers, perWorker = 4, 400
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(uint64(w), 7))
			var mine []util.Uint256
			for i := range perWorker {
				s := txSpec{nonce: uint32(w*perWorker + i), signers: []util.Uint160{acc(r.IntN(20))},
					netFee: int64(r.IntN(1000)), high: r.IntN(50) == 0}
				if len(mine) > 0 && r.IntN(10) == 0 {
					s.confl = []util.Uint256{mine[r.IntN(len(mine))]}
				}
				tx := s.build()
				if err := p.Add(tx, l.BlockHeight()); err == nil {
					mine = append(mine, tx.Hash())
				}
				if len(mine) == 0 {
					continue
				}
				switch r.IntN(10) {
				case 0:
					p.Remove(mine[r.IntN(len(mine))])
				case 1:
					p.TryGet(mine[r.IntN(len(mine))])
				case 2:
					_ = p.Top(10)
				}
			}
		})
	}
	wg.Go(func() {
		for range 5 {
			p.RemoveStale(func(tx *transaction.Transaction) bool { return tx.Nonce%17 != 0 })
			_ = p.GetVerifiedTransactions()
		}
	})
	wg.Wait()
	checkInvariants(t, p)
	require.LessOrEqual(t, p.Count(), 300)
	// The events replay to the final content.
	content := map[util.Uint256]bool{}
	for _, ev := range drain(sub) {
		h := ev.Tx.Hash()
		if ev.Kind == TransactionAdded {
			require.False(t, content[h])
			content[h] = true
		} else {
			require.True(t, content[h])
			delete(content, h)
		}
	}
	require.NoError(t, sub.Err())
	require.Len(t, content, p.Count())
	for h := range content {
		require.True(t, p.Contains(h))
	}
}

// TestIndexShrinksAfterBurst: the hash index of a pool a burst filled is
// made again once a quarter of the burst is left (Go's maps keep their
// room after deletions), not before, and the pool stays whole.
func TestIndexShrinksAfterBurst(t *testing.T) {
	n := 2 * remakeMin
	p, l := newPool(t, n)
	txs := make([]*transaction.Transaction, n)
	for i := range txs {
		txs[i] = txSpec{nonce: uint32(i + 1), signers: []util.Uint160{acc(i % 7)}, netFee: 100}.build()
		require.NoError(t, add(p, l, txs[i]))
	}
	require.Equal(t, n, p.peak)
	p.UpdateForBlock(txs[:n/2], nil)
	require.Zero(t, p.remakes, "half the peak left")
	p.UpdateForBlock(txs[n/2:n-n/4-1], nil)
	require.Zero(t, p.remakes, "just above a quarter")
	p.UpdateForBlock(txs[n-n/4-1:n-10], nil)
	require.Equal(t, 1, p.remakes)
	require.Equal(t, 10, p.peak)
	checkInvariants(t, p)
	for _, tx := range txs[n-10:] {
		require.True(t, p.Contains(tx.Hash()))
	}
	require.NoError(t, add(p, l, txSpec{nonce: uint32(n + 1), netFee: 100}.build()))
	checkInvariants(t, p)
}

// TestUpdateForBlockNobodyLeaves: when every transaction passes its check
// and every sender still pays for all of its own, the update keeps the fee
// context and the Conflicts index as they were, and they stay exact: a
// sender at its balance's limit is refused one more, a transaction naming
// a pooled one still replaces it.
func TestUpdateForBlockNobodyLeaves(t *testing.T) {
	alice, bob := acc(1), acc(2)
	p, l := newPool(t, 100)
	var txs []*transaction.Transaction
	for i := range 3 {
		tx := txSpec{nonce: uint32(i), signers: []util.Uint160{alice}, netFee: 1000}.build()
		txs = append(txs, tx)
		require.NoError(t, add(p, l, tx))
	}
	victim := txSpec{nonce: 10, signers: []util.Uint160{bob}, netFee: 100}.build()
	namer := txSpec{nonce: 11, signers: []util.Uint160{bob}, netFee: 100, confl: []util.Uint256{{9, 9}}}.build()
	require.NoError(t, add(p, l, victim))
	require.NoError(t, add(p, l, namer))
	sub := p.Subscribe(100)
	l.setBalance(alice, 2000) // exactly her two left after the block
	l.height.Store(1)
	p.UpdateForBlock([]*transaction.Transaction{txs[0]}, func(*transaction.Transaction) bool { return true })
	require.Equal(t, map[util.Uint256]Reason{txs[0].Hash(): ReasonIncluded}, removedSet(drain(sub)))
	require.Equal(t, 4, p.Count())
	checkInvariants(t, p)
	require.ErrorIs(t, add(p, l, txSpec{nonce: 21, signers: []util.Uint160{alice}, netFee: 1}.build()), ErrInsufficientFunds)
	replacer := txSpec{nonce: 30, signers: []util.Uint160{bob}, netFee: 500, confl: []util.Uint256{victim.Hash()}}.build()
	require.NoError(t, add(p, l, replacer))
	require.False(t, p.Contains(victim.Hash()))
	checkInvariants(t, p)
}

// TestUpdateForBlockLargeBlock: a block holding most of the pool leaves
// it in one pass over the ordered list, with the same events and indexes
// as one by one, conflicts included.
func TestUpdateForBlockLargeBlock(t *testing.T) {
	p, l := newPool(t, 1000)
	var block, kept []*transaction.Transaction
	for i := range 400 {
		tx := txSpec{nonce: uint32(i), signers: []util.Uint160{acc(i % 7)}, netFee: int64(100 + i%13)}.build()
		require.NoError(t, add(p, l, tx))
		if i%5 == 0 {
			kept = append(kept, tx)
		} else {
			block = append(block, tx)
		}
	}
	// A pooled transaction naming one of the block's that was not pooled.
	notPooled := txSpec{nonce: 5000, netFee: 1}.build()
	namer := txSpec{nonce: 999, signers: []util.Uint160{acc(1)}, netFee: 100, confl: []util.Uint256{notPooled.Hash()}}.build()
	require.NoError(t, add(p, l, namer))
	sub := p.Subscribe(1000)
	l.height.Store(1)
	p.UpdateForBlock(append(block, notPooled), func(*transaction.Transaction) bool { return true })
	removed := removedSet(drain(sub))
	require.Len(t, removed, len(block)+1)
	for _, tx := range block {
		require.Equal(t, ReasonIncluded, removed[tx.Hash()])
	}
	require.Equal(t, ReasonConflict, removed[namer.Hash()])
	require.ElementsMatch(t, hashes(kept), hashes(p.GetVerifiedTransactions()))
	checkInvariants(t, p)
	// The list still inserts and evicts in order.
	require.NoError(t, add(p, l, txSpec{nonce: 6000, netFee: 50000}.build()))
	checkInvariants(t, p)
}
