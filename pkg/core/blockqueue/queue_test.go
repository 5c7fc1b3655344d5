package blockqueue

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// testLedger accepts only the next block, like the chain.
type testLedger struct {
	height atomic.Uint32
	mu     sync.Mutex
	added  []uint32
	reject map[uint32]int // index -> number of times to reject it
	inAdd  atomic.Int32
	slow   time.Duration
}

func (l *testLedger) BlockHeight() uint32 { return l.height.Load() }

func (l *testLedger) AddBlock(b *block.Block) error {
	if l.inAdd.Add(1) != 1 {
		panic("concurrent AddBlock")
	}
	defer l.inAdd.Add(-1)
	time.Sleep(l.slow)
	l.mu.Lock()
	defer l.mu.Unlock()
	if b.Index != l.height.Load()+1 {
		return errors.New("not the next block")
	}
	if l.reject[b.Index] > 0 {
		l.reject[b.Index]--
		return errors.New("bad block")
	}
	l.added = append(l.added, b.Index)
	l.height.Store(b.Index)
	return nil
}

func (l *testLedger) addedList() []uint32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]uint32(nil), l.added...)
}

func mkBlock(i uint32) *block.Block { return &block.Block{Header: block.Header{Index: i}} }

func run(t *testing.T, q *Queue) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx) }()
	return func() {
		cancel()
		select {
		case err := <-done:
			require.ErrorIs(t, err, context.Canceled)
		case <-time.After(5 * time.Second):
			t.Fatal("Run did not return")
		}
	}
}

func waitHeight(t *testing.T, l *testLedger, h uint32) {
	require.Eventually(t, func() bool { return l.BlockHeight() >= h }, 5*time.Second, time.Millisecond)
}

func TestOutOfOrderAndDuplicates(t *testing.T) {
	l := &testLedger{}
	var relayed atomic.Int32
	q, err := New(Config{Ledger: l, Size: 64, OnAdded: func(*block.Block) { relayed.Add(1) }})
	require.NoError(t, err)
	stop := run(t, q)
	defer stop()
	const n = 500
	order := rand.Perm(n)
	var wg sync.WaitGroup
	for w := range 4 { // four "peers", each sending every block, shuffled
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(w), 1))
			for len(l.addedList()) < n {
				for _, i := range r.Perm(n) {
					_ = q.Put(mkBlock(uint32(order[i]) + 1))
				}
			}
		}()
	}
	waitHeight(t, l, n)
	wg.Wait()
	added := l.addedList()
	require.Len(t, added, n)
	for i, idx := range added {
		require.EqualValues(t, i+1, idx)
	}
	require.EqualValues(t, n, relayed.Load())
}

func TestPutErrors(t *testing.T) {
	l := &testLedger{}
	l.height.Store(10)
	q, err := New(Config{Ledger: l, Size: 8})
	require.NoError(t, err)
	require.ErrorIs(t, q.Put(mkBlock(10)), ErrOld)
	require.ErrorIs(t, q.Put(mkBlock(19)), ErrTooFar)
	require.NoError(t, q.Put(mkBlock(18)))
	require.ErrorIs(t, q.Put(mkBlock(18)), ErrDuplicate)
	require.Equal(t, 1, q.Len())
	_, err = New(Config{})
	require.Error(t, err)
	_, err = New(Config{Ledger: l, Size: -1})
	require.Error(t, err)
}

func TestRejectedBlockReplaced(t *testing.T) {
	l := &testLedger{reject: map[uint32]int{2: 1}}
	q, err := New(Config{Ledger: l, Size: 16})
	require.NoError(t, err)
	stop := run(t, q)
	defer stop()
	for i := uint32(1); i <= 5; i++ {
		require.NoError(t, q.Put(mkBlock(i)))
	}
	waitHeight(t, l, 1)
	// Block 2 was rejected once; its slot is free for another copy.
	require.Eventually(t, func() bool { return q.Put(mkBlock(2)) == nil }, 5*time.Second, time.Millisecond)
	waitHeight(t, l, 5)
	require.Equal(t, []uint32{1, 2, 3, 4, 5}, l.addedList())
	require.Eventually(t, func() bool { return q.Len() == 0 }, 5*time.Second, time.Millisecond)
}

func TestShutdownWaitsForBlockInProgress(t *testing.T) {
	l := &testLedger{slow: 5 * time.Millisecond}
	q, err := New(Config{Ledger: l})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- q.Run(ctx) }()
	for i := uint32(1); i <= 100; i++ {
		require.NoError(t, q.Put(mkBlock(i)))
	}
	waitHeight(t, l, 1)
	cancel()
	require.ErrorIs(t, <-done, context.Canceled)
	// Nothing is in AddBlock, and nothing is added once Run has returned.
	require.Zero(t, l.inAdd.Load())
	h := l.BlockHeight()
	require.Less(t, h, uint32(100))
	time.Sleep(100 * time.Millisecond)
	require.Equal(t, h, l.BlockHeight())
	// A second Run continues where the first stopped.
	stop := run(t, q)
	waitHeight(t, l, 100)
	stop()
}

func TestSingleRun(t *testing.T) {
	q, err := New(Config{Ledger: &testLedger{}})
	require.NoError(t, err)
	stop := run(t, q)
	defer stop()
	require.Eventually(t, func() bool { return q.running.Load() }, time.Second, time.Millisecond)
	require.ErrorIs(t, q.Run(context.Background()), ErrRunning)
}

func TestStaleSlotSwept(t *testing.T) {
	l := &testLedger{}
	q, err := New(Config{Ledger: l, Size: 4})
	require.NoError(t, err)
	require.NoError(t, q.Put(mkBlock(2)))
	// The ledger moves on by another path (e.g. consensus).
	l.height.Store(5)
	require.Equal(t, 1, q.Len())
	// Slot 2 % 4 is checked when block 6 is looked for; 6 % 4 == 2.
	require.Nil(t, q.take(6))
	require.Equal(t, 0, q.Len())
}

// racingLedger has every block added by someone else just before the
// queue's AddBlock of it, except the ones it rejects outright.
type racingLedger struct {
	height atomic.Uint32
	bad    uint32
}

func (l *racingLedger) BlockHeight() uint32 { return l.height.Load() }

func (l *racingLedger) AddBlock(b *block.Block) error {
	if b.Index == l.bad {
		return errors.New("bad block")
	}
	l.height.Store(b.Index)
	return errors.New("already exists")
}

// TestRejectedLogLevel: a block another source added meanwhile is no
// warning; a block the ledger refuses is.
func TestRejectedLogLevel(t *testing.T) {
	core, logs := observer.New(zap.DebugLevel)
	l := &racingLedger{bad: 2}
	q, err := New(Config{Ledger: l, Size: 8, Log: zap.New(core)})
	require.NoError(t, err)
	stop := run(t, q)
	defer stop()
	require.NoError(t, q.Put(mkBlock(1)))
	require.NoError(t, q.Put(mkBlock(2)))
	require.Eventually(t, func() bool { return logs.FilterMessage("block rejected").Len() == 2 }, 5*time.Second, time.Millisecond)
	entries := logs.FilterMessage("block rejected").All()
	levels := map[uint32]zapcore.Level{}
	for _, e := range entries {
		levels[uint32(e.ContextMap()["index"].(uint32))] = e.Level
	}
	require.Equal(t, map[uint32]zapcore.Level{1: zapcore.DebugLevel, 2: zapcore.WarnLevel}, levels)
}

// A copy of a block the ledger got another way (consensus, or a second
// peer's copy that came while the first was being added) is dropped once
// the ledger's height passes it, not kept until the ring comes round to
// its slot again.
func TestCopiesOfAddedBlocksNotKept(t *testing.T) {
	l := &testLedger{}
	q, err := New(Config{Ledger: l, Size: 2000})
	require.NoError(t, err)
	for h := uint32(1); h <= 100; h++ {
		require.NoError(t, q.Put(mkBlock(h))) // a peer's copy, while the ledger adds h itself
		l.height.Store(h)
		require.LessOrEqual(t, q.Len(), 1, "height %d", h)
	}
	require.Nil(t, q.take(101))
	require.Equal(t, 0, q.Len())
	// Far behind the ledger (more than the window): nothing to sweep twice.
	require.NoError(t, q.Put(mkBlock(101)))
	l.height.Store(5000)
	require.Nil(t, q.take(5001))
	require.Equal(t, 0, q.Len())
	require.NoError(t, q.Put(mkBlock(5002)))
	require.Equal(t, 1, q.Len())
	b := q.take(5002)
	require.NotNil(t, b)
	require.Equal(t, uint32(5002), b.Index)
	require.Equal(t, 0, q.Len())
}
