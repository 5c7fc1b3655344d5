package mempool

import (
	"testing"
	"unsafe"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

func TestConfigValidation(t *testing.T) {
	l := newLedger()
	for _, c := range []Config{{Capacity: 0, Ledger: l}, {Capacity: -1, Ledger: l}, {Capacity: 1}, {Capacity: 1, Ledger: l, CheckWorkers: -1}} {
		_, err := New(c)
		require.ErrorIs(t, err, ErrBadConfig)
	}
}

func TestAddGetRemove(t *testing.T) {
	p, l := newPool(t, 10)
	tx := txSpec{nonce: 1, netFee: 100}.build()
	require.False(t, p.Contains(tx.Hash()))
	require.NoError(t, add(p, l, tx))
	require.ErrorIs(t, add(p, l, tx), ErrDup)
	require.True(t, p.Contains(tx.Hash()))
	got, ok := p.TryGet(tx.Hash())
	require.True(t, ok)
	require.Same(t, tx, got)
	require.Equal(t, 1, p.Count())

	require.True(t, p.Remove(tx.Hash()))
	require.False(t, p.Remove(tx.Hash()))
	_, ok = p.TryGet(tx.Hash())
	require.False(t, ok)
	require.Zero(t, p.Count())
	require.Empty(t, p.GetVerifiedTransactions())
	// The sender's fees left with it: the whole balance is available again.
	l.setBalance(acc(1), 100)
	require.NoError(t, add(p, l, txSpec{nonce: 2, netFee: 100}.build()))
}

func TestStaleVerification(t *testing.T) {
	p, l := newPool(t, 10)
	l.height.Store(5)
	tx := txSpec{nonce: 1, netFee: 100}.build()
	require.ErrorIs(t, p.Add(tx, 4), ErrStale)
	require.ErrorIs(t, p.Add(tx, 6), ErrStale)
	require.NoError(t, p.Add(tx, 5))
}

// TestCapacityEviction fills the pool, then checks that a new transaction
// must beat the lowest one by priority (not by hash), which it then evicts.
func TestCapacityEviction(t *testing.T) {
	const capacity = 50
	p, l := newPool(t, capacity)
	sub := p.Subscribe(capacity * 4)
	var txs []*transaction.Transaction
	for i := range capacity {
		tx := txSpec{nonce: uint32(i), netFee: int64(1000 * (i + 1))}.build()
		txs = append(txs, tx)
		require.NoError(t, add(p, l, tx))
	}
	require.True(t, p.CanFit(txSpec{nonce: 999, netFee: 1000 * (capacity + 1)}.build()))
	require.False(t, p.CanFit(txSpec{nonce: 999, netFee: 1}.build()))

	// Same fees as the lowest: never a replacement, whichever hash sorts
	// first (an accepted transaction is not dropped for an equal one).
	ties := 0
	for n := uint32(1000); n < 1010; n++ {
		tie := txSpec{nonce: n, netFee: txs[0].NetworkFee}.build()
		if refHigher(tie, txs[0]) {
			ties++
		}
		require.False(t, p.CanFit(tie))
		require.ErrorIs(t, add(p, l, tie), ErrOOM)
		require.False(t, p.Contains(tie.Hash()))
		require.True(t, p.Contains(txs[0].Hash()))
	}
	require.NotZero(t, ties, "no tie sorted before the lowest: the check above proves nothing")
	require.ErrorIs(t, add(p, l, txSpec{nonce: 1101, netFee: 10}.build()), ErrOOM)
	require.Equal(t, capacity, p.Count())

	drain(sub)
	best := txSpec{nonce: 1102, netFee: 1 << 30}.build()
	require.NoError(t, add(p, l, best))
	require.Equal(t, capacity, p.Count())
	require.False(t, p.Contains(txs[0].Hash()))
	require.Equal(t, best.Hash(), p.Top(1)[0].Hash())
	evs := drain(sub)
	require.Equal(t, []Event{
		{Kind: TransactionAdded, Tx: best},
		{Kind: TransactionRemoved, Tx: txs[0], Reason: ReasonCapacityExceeded},
	}, evs)

	// A HighPriority transaction beats any fee.
	hp := txSpec{nonce: 1103, netFee: 1, high: true}.build()
	require.NoError(t, add(p, l, hp))
	require.Equal(t, hp.Hash(), p.Top(1)[0].Hash())
	require.False(t, p.Contains(txs[1].Hash()))
}

func TestSenderFeeAccounting(t *testing.T) {
	p, l := newPool(t, 1000)
	sender := acc(7)
	const n = 100
	const fee = 1000 // 600 network + 400 system
	l.setBalance(sender, n*fee)
	var txs []*transaction.Transaction
	for i := range n {
		tx := txSpec{nonce: uint32(i), signers: []util.Uint160{sender}, netFee: 600, sysFee: 400}.build()
		txs = append(txs, tx)
		require.NoError(t, add(p, l, tx), i)
	}
	// The balance is exactly used up.
	extra := txSpec{nonce: n, signers: []util.Uint160{sender}, netFee: 1}.build()
	require.ErrorIs(t, add(p, l, extra), ErrInsufficientFunds)
	// Other senders are not affected.
	require.NoError(t, add(p, l, txSpec{nonce: n, signers: []util.Uint160{acc(8), sender}, netFee: 600}.build()))
	// One transaction out frees its fee.
	require.True(t, p.Remove(txs[3].Hash()))
	require.NoError(t, add(p, l, txSpec{nonce: n + 1, signers: []util.Uint160{sender}, netFee: 999, sysFee: 1}.build()))
	require.ErrorIs(t, add(p, l, extra), ErrInsufficientFunds)
	// A single transaction above the balance.
	poor := acc(9)
	l.setBalance(poor, 10)
	require.ErrorIs(t, add(p, l, txSpec{nonce: 1, signers: []util.Uint160{poor}, netFee: 11}.build()), ErrInsufficientFunds)
}

func TestBalanceReadOncePerHeight(t *testing.T) {
	p, l := newPool(t, 1000)
	for i := range 10 {
		require.NoError(t, add(p, l, txSpec{nonce: uint32(i), netFee: 100}.build()))
	}
	require.EqualValues(t, 1, l.reads.Load())
	l.height.Store(1)
	require.NoError(t, add(p, l, txSpec{nonce: 100, netFee: 100}.build()))
	require.EqualValues(t, 2, l.reads.Load())

	l.err = errLedger
	require.ErrorIs(t, add(p, l, txSpec{nonce: 1, signers: []util.Uint160{acc(3)}, netFee: 100}.build()), errLedger)
}

func TestOracleResponseUniqueness(t *testing.T) {
	p, l := newPool(t, 10)
	id, other := uint64(42), uint64(43)
	first := txSpec{nonce: 1, netFee: 100, oracle: &id}.build()
	require.NoError(t, add(p, l, first))
	// The reference rejects a second response whatever its fee.
	err := add(p, l, txSpec{nonce: 2, netFee: 1 << 20, oracle: &id}.build())
	require.ErrorIs(t, err, ErrOracleResponse)
	require.ErrorIs(t, err, ErrInsufficientFunds)
	require.NoError(t, add(p, l, txSpec{nonce: 3, netFee: 100, oracle: &other}.build()))
	// Once the first left, the request may be answered again.
	require.True(t, p.Remove(first.Hash()))
	require.NoError(t, add(p, l, txSpec{nonce: 2, netFee: 1 << 20, oracle: &id}.build()))
}

func TestSubscriptionNeverBlocks(t *testing.T) {
	p, l := newPool(t, 100)
	slow := p.Subscribe(2)
	fast := p.Subscribe(100)
	for i := range 5 {
		require.NoError(t, add(p, l, txSpec{nonce: uint32(i), netFee: 100}.build()))
	}
	require.Len(t, drain(slow), 2) // then closed
	_, open := <-slow.C
	require.False(t, open)
	require.ErrorIs(t, slow.Err(), ErrSlowSubscriber)
	require.Len(t, drain(fast), 5)
	require.NoError(t, fast.Err())
	fast.Close()
	fast.Close()
	_, open = <-fast.C
	require.False(t, open)
	require.NoError(t, add(p, l, txSpec{nonce: 99, netFee: 100}.build()))
}

func TestMetrics(t *testing.T) {
	reg := prometheus.NewRegistry()
	l := newLedger()
	p, err := New(Config{Capacity: 2, Ledger: l, Registerer: reg})
	require.NoError(t, err)
	// A second pool shares the collectors.
	_, err = New(Config{Capacity: 2, Ledger: l, Registerer: reg})
	require.NoError(t, err)
	for i := range 3 {
		require.NoError(t, add(p, l, txSpec{nonce: uint32(i), netFee: int64(100 * (i + 1))}.build()))
	}
	require.InDelta(t, 2, gathered(t, reg, "n3d_mempool_transactions"), 0)
	require.InDelta(t, 1, gathered(t, reg, "n3d_mempool_removed_total"), 0)
	require.True(t, p.Remove(p.Top(1)[0].Hash()))
	require.InDelta(t, 1, gathered(t, reg, "n3d_mempool_transactions"), 0)
}

// gathered is the sum of the values of the metric called name.
func gathered(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		var sum float64
		for _, m := range mf.GetMetric() {
			sum += m.GetGauge().GetValue() + m.GetCounter().GetValue()
		}
		return sum
	}
	t.Fatalf("metric %s not registered", name)
	return 0
}

func TestReasonNames(t *testing.T) {
	// The first three are the reference's TransactionRemovalReason values.
	require.Equal(t, "CapacityExceeded", ReasonCapacityExceeded.String())
	require.Equal(t, "NoLongerValid", ReasonNoLongerValid.String())
	require.Equal(t, "Conflict", ReasonConflict.String())
	require.EqualValues(t, 2, ReasonConflict)
	require.Equal(t, "Unknown", Reason(99).String())
}

// TestEventSize: an event is two words (the saved pool's subscription
// buffers more events than the pool holds transactions).
func TestEventSize(t *testing.T) {
	require.Equal(t, 2*unsafe.Sizeof(uintptr(0)), unsafe.Sizeof(Event{}))
}
