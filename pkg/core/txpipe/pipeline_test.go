package txpipe

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func TestConfigValidation(t *testing.T) {
	c := &fakeChain{}
	_, err := New(Config{Verifier: c})
	require.ErrorIs(t, err, ErrBadConfig)
	pool, err := mempool.New(mempool.Config{Capacity: 1, Ledger: c})
	require.NoError(t, err)
	_, err = New(Config{Verifier: c, Pool: pool, Workers: -1})
	require.ErrorIs(t, err, ErrBadConfig)
}

func TestSubmitWaitPoolsAndRelays(t *testing.T) {
	var (
		mu      sync.Mutex
		relayed []util.Uint256
	)
	h := newHarness(t, 10, func(c *Config) {
		c.RelayDelay = time.Millisecond
		c.Relay = func(hs []util.Uint256) { mu.Lock(); relayed = append(relayed, hs...); mu.Unlock() }
	})
	h.start(t)
	ctx := context.Background()
	tx := testTx(1, 100)
	require.NoError(t, h.pipe.SubmitWait(ctx, tx))
	require.True(t, h.pool.Contains(tx.Hash()))
	require.ErrorIs(t, h.pipe.SubmitWait(ctx, tx), mempool.ErrDup)
	require.ErrorIs(t, h.pipe.Submit(7, tx), ErrKnown)
	require.False(t, h.pipe.ShouldRequest(tx.Hash()))
	require.True(t, h.pipe.ShouldRequest(testTx(2, 100).Hash()))
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return slices.Equal(relayed, []util.Uint256{tx.Hash()})
	}, 5*time.Second, time.Millisecond)
	require.EqualValues(t, 1, h.chain.calls.Load())
}

func TestRejectedIsRemembered(t *testing.T) {
	var results sync.Map
	h := newHarness(t, 10, func(c *Config) {
		c.OnResult = func(src Source, tx *transaction.Transaction, err error) { results.Store(tx.Hash(), err) }
	})
	h.chain.verify = func(*transaction.Transaction) error { return errInvalid }
	h.start(t)
	tx := testTx(1, 100)
	require.ErrorIs(t, h.pipe.SubmitWait(context.Background(), tx), errInvalid)
	require.False(t, h.pool.Contains(tx.Hash()))
	v, ok := results.Load(tx.Hash())
	require.True(t, ok)
	require.ErrorIs(t, v.(error), errInvalid)
	// Peers sending it again cost nothing; the node's own RPC may retry.
	require.False(t, h.pipe.ShouldRequest(tx.Hash()))
	require.ErrorIs(t, h.pipe.Submit(3, tx), ErrKnown)
	require.ErrorIs(t, h.pipe.SubmitWait(context.Background(), tx), errInvalid)
	require.EqualValues(t, 2, h.chain.calls.Load())
}

// TestDedupInFlight sends one transaction from many peers and RPC callers
// while it is being verified: it is verified once and every caller gets
// the verdict.
func TestDedupInFlight(t *testing.T) {
	h := newHarness(t, 10, nil)
	entered, release := make(chan struct{}), make(chan struct{})
	h.chain.verify = func(*transaction.Transaction) error {
		close(entered)
		<-release
		return nil
	}
	h.start(t)
	tx := testTx(1, 100)
	require.NoError(t, h.pipe.Submit(1, tx))
	<-entered
	require.False(t, h.pipe.ShouldRequest(tx.Hash()))
	var wg sync.WaitGroup
	for src := range 8 {
		wg.Go(func() { require.ErrorIs(t, h.pipe.Submit(Source(src+2), tx), ErrInFlight) })
	}
	waits := make(chan error, 3)
	for range 3 {
		go func() { waits <- h.pipe.SubmitWait(context.Background(), tx) }()
	}
	wg.Wait()
	require.Eventually(t, func() bool {
		h.pipe.mu.Lock()
		defer h.pipe.mu.Unlock()
		return len(h.pipe.inflight[tx.Hash()].waiters) == 3
	}, 5*time.Second, time.Millisecond)
	close(release)
	for range 3 {
		require.NoError(t, <-waits)
	}
	require.EqualValues(t, 1, h.chain.calls.Load())
	require.True(t, h.pool.Contains(tx.Hash()))
}

// TestFairness queues a flood from one peer and a few transactions from
// another before the single worker starts: the quiet peer's are served
// in alternation with the flood, not after it.
func TestFairness(t *testing.T) {
	h := newHarness(t, 10000, func(c *Config) { c.Workers = 1 })
	const flood, quiet = 500, 10
	for i := range flood {
		require.NoError(t, h.pipe.Submit(1, testTx(uint32(i), 100)))
	}
	var quietHashes []util.Uint256
	for i := range quiet {
		tx := testTx(uint32(100000+i), 100)
		quietHashes = append(quietHashes, tx.Hash())
		require.NoError(t, h.pipe.Submit(2, tx))
	}
	require.Equal(t, flood+quiet, h.pipe.Queued())
	h.start(t)
	require.Eventually(t, func() bool { return h.pool.Count() == flood+quiet }, 10*time.Second, time.Millisecond)
	order := h.chain.verified()
	last := 0
	for _, qh := range quietHashes {
		last = max(last, slices.Index(order, qh))
	}
	require.Less(t, last, 2*quiet, "quiet peer served at positions up to %d", last)
}

func TestQueueBounds(t *testing.T) {
	h := newHarness(t, 100, func(c *Config) { c.PerSource, c.MaxQueued = 5, 8 })
	for i := range 5 {
		require.NoError(t, h.pipe.Submit(1, testTx(uint32(i), 100)))
	}
	require.ErrorIs(t, h.pipe.Submit(1, testTx(5, 100)), ErrQueueFull)
	// Another source is not affected by the first one's bound...
	for i := range 3 {
		require.NoError(t, h.pipe.Submit(2, testTx(uint32(10+i), 100)))
	}
	// ...until the global one.
	require.ErrorIs(t, h.pipe.Submit(3, testTx(20, 100)), ErrQueueFull)
	// A refused transaction is not in flight: it can come back.
	h.start(t)
	require.Eventually(t, func() bool { return h.pool.Count() == 8 }, 5*time.Second, time.Millisecond)
	require.NoError(t, h.pipe.SubmitWait(context.Background(), testTx(5, 100)))
}

func TestPoolFullSkipsVerification(t *testing.T) {
	h := newHarness(t, 1, nil)
	h.start(t)
	require.NoError(t, h.pipe.SubmitWait(context.Background(), testTx(1, 1000)))
	err := h.pipe.SubmitWait(context.Background(), testTx(2, 1))
	require.ErrorIs(t, err, ErrPoolFull)
	require.ErrorIs(t, err, mempool.ErrOOM)
	require.EqualValues(t, 1, h.chain.calls.Load())
	// A better one evicts the lowest.
	require.NoError(t, h.pipe.SubmitWait(context.Background(), testTx(3, 10000)))
	require.Equal(t, 1, h.pool.Count())
}

// TestStaleRetry adds a block while a transaction is verified: the pool
// refuses the outdated verdict and the pipeline verifies again.
func TestStaleRetry(t *testing.T) {
	h := newHarness(t, 10, nil)
	h.chain.verify = func(*transaction.Transaction) error {
		if h.chain.calls.Load() == 1 {
			h.chain.height.Add(1)
		}
		return nil
	}
	h.start(t)
	require.NoError(t, h.pipe.SubmitWait(context.Background(), testTx(1, 100)))
	require.EqualValues(t, 2, h.chain.calls.Load())

	// A chain that keeps moving gives up after StaleRetries.
	h.chain.verify = func(*transaction.Transaction) error { h.chain.height.Add(1); return nil }
	require.ErrorIs(t, h.pipe.SubmitWait(context.Background(), testTx(2, 100)), mempool.ErrStale)
	require.EqualValues(t, 2+1+3, h.chain.calls.Load())
}

// TestShutdown stops the pipeline while a worker is busy: Run waits for
// it, fails the queued transactions and later submissions.
func TestShutdown(t *testing.T) {
	h := newHarness(t, 100, func(c *Config) { c.Workers = 1 })
	entered, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h.chain.verify = func(*transaction.Transaction) error {
		once.Do(func() { close(entered); <-release })
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- h.pipe.Run(ctx) }()
	first := testTx(0, 100)
	firstRes := make(chan error, 1)
	go func() { firstRes <- h.pipe.SubmitWait(context.Background(), first) }()
	<-entered
	queued := make(chan error, 5)
	for i := range 5 {
		tx := testTx(uint32(i+1), 100)
		require.NoError(t, h.pipe.Submit(Source(i+1), tx))
		go func() { queued <- h.pipe.SubmitWait(context.Background(), tx) }()
	}
	// The dispatcher holds one, waiting for the busy worker.
	require.Eventually(t, func() bool { return h.pipe.Queued() == 4 }, 5*time.Second, time.Millisecond)
	require.ErrorIs(t, h.pipe.Run(ctx), ErrRunning)
	cancel()
	select {
	case <-runDone:
		t.Fatal("Run returned while a worker was busy")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	require.NoError(t, <-runDone)
	require.NoError(t, <-firstRes) // the transaction in hand was finished
	for range 5 {
		require.ErrorIs(t, <-queued, ErrStopped)
	}
	require.ErrorIs(t, h.pipe.Submit(9, testTx(99, 100)), ErrStopped)
	require.Zero(t, h.pipe.Queued())
	require.Empty(t, h.pipe.inflight)
}

func TestSubmitWaitContext(t *testing.T) {
	h := newHarness(t, 10, nil) // not running: the job waits
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	require.ErrorIs(t, h.pipe.SubmitWait(ctx, testTx(1, 100)), context.DeadlineExceeded)
}

func TestRelayLocalOnly(t *testing.T) {
	var (
		mu      sync.Mutex
		relayed []util.Uint256
	)
	h := newHarness(t, 10, func(c *Config) {
		c.RelayLocalOnly, c.RelayDelay = true, time.Millisecond
		c.Relay = func(hs []util.Uint256) { mu.Lock(); relayed = append(relayed, hs...); mu.Unlock() }
	})
	stop := h.start(t)
	fromPeer, local := testTx(1, 100), testTx(2, 100)
	require.NoError(t, h.pipe.Submit(5, fromPeer))
	require.NoError(t, h.pipe.SubmitWait(context.Background(), local))
	require.Eventually(t, func() bool { return h.pool.Count() == 2 }, 5*time.Second, time.Millisecond)
	require.NoError(t, stop()) // flushes the batcher
	require.Equal(t, []util.Uint256{local.Hash()}, relayed)
}

// TestSignedTransactions runs real signatures through the pipeline: the
// valid ones are pooled, a tampered one is rejected.
func TestSignedTransactions(t *testing.T) {
	h := newHarness(t, 100, nil)
	h.chain.verify = verifySignature
	h.start(t)
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	for i := range 10 {
		require.NoError(t, h.pipe.SubmitWait(context.Background(), signedTx(t, priv, uint32(i))))
	}
	bad := signedTx(t, priv, 100)
	bad.Witnesses[0].InvocationScript[10] ^= 1
	require.ErrorIs(t, h.pipe.SubmitWait(context.Background(), bad), errInvalid)
	require.Equal(t, 10, h.pool.Count())
}

// TestTransientRejectionNotRemembered: a transaction refused because the
// pool is full is not entered in the recently-processed filter, so a peer
// re-announcing it later is asked for it again; an invalid one is.
func TestTransientRejectionNotRemembered(t *testing.T) {
	h := newHarness(t, 1, nil)
	h.start(t)
	ctx := context.Background()
	require.NoError(t, h.pipe.SubmitWait(ctx, testTx(1, 1000)))
	low := testTx(2, 1)
	require.ErrorIs(t, h.pipe.SubmitWait(ctx, low), mempool.ErrOOM)
	require.True(t, h.pipe.ShouldRequest(low.Hash()), "a full pool is no verdict on the transaction")

	h.chain.verify = func(*transaction.Transaction) error { return errInvalid }
	bad := testTx(3, 5000)
	require.ErrorIs(t, h.pipe.SubmitWait(ctx, bad), errInvalid)
	require.False(t, h.pipe.ShouldRequest(bad.Hash()))
}
