package txpipe

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// gate makes the fake chain's verification of the given transactions block
// until released; entered receives each one as its verification starts.
type gate struct {
	mu      sync.Mutex
	held    map[util.Uint256]chan struct{}
	entered chan util.Uint256
}

func newGate(c *fakeChain, txs ...*transaction.Transaction) *gate {
	g := &gate{held: make(map[util.Uint256]chan struct{}), entered: make(chan util.Uint256, 16)}
	for _, tx := range txs {
		g.held[tx.Hash()] = make(chan struct{})
	}
	c.verify = func(tx *transaction.Transaction) error {
		g.mu.Lock()
		ch := g.held[tx.Hash()]
		g.mu.Unlock()
		g.entered <- tx.Hash()
		if ch != nil {
			<-ch
		}
		return nil
	}
	return g
}

func (g *gate) release(tx *transaction.Transaction) { close(g.held[tx.Hash()]) }

func startInline(t *testing.T, edit func(*Config)) (*harness, func() error) {
	h := newHarness(t, 100, edit)
	stop := h.start(t)
	require.Eventually(t, h.pipe.running.Load, 5*time.Second, time.Millisecond)
	return h, stop
}

// TestInlineNotBehindWorkers: with every worker busy on a peer's
// transaction, a SubmitWait caller verifies and pools its own.
func TestInlineNotBehindWorkers(t *testing.T) {
	peer, local := testTx(1, 100), testTx(2, 100)
	h, _ := startInline(t, func(c *Config) { c.Workers, c.Inline = 1, 1 })
	g := newGate(h.chain, peer)
	require.NoError(t, h.pipe.Submit(5, peer))
	require.Equal(t, peer.Hash(), <-g.entered)
	require.NoError(t, h.pipe.SubmitWait(context.Background(), local))
	require.Equal(t, local.Hash(), <-g.entered)
	require.True(t, h.pool.Contains(local.Hash()))
	require.False(t, h.pool.Contains(peer.Hash()))
	g.release(peer)
	require.Eventually(t, func() bool { return h.pool.Contains(peer.Hash()) }, 5*time.Second, time.Millisecond)
}

// TestInlineBound: beyond Inline callers processing at once, SubmitWait
// queues for the workers; a caller of a transaction in flight waits for
// the verdict of the one processing it (verified once).
func TestInlineBound(t *testing.T) {
	first, second := testTx(1, 100), testTx(2, 100)
	h, _ := startInline(t, func(c *Config) { c.Workers, c.Inline = 1, 1 })
	g := newGate(h.chain, first)
	res := make(chan error, 2)
	go func() { res <- h.pipe.SubmitWait(context.Background(), first) }()
	require.Equal(t, first.Hash(), <-g.entered)
	h.pipe.mu.Lock()
	require.Equal(t, 1, h.pipe.inlineN)
	h.pipe.mu.Unlock()
	go func() { res <- h.pipe.SubmitWait(context.Background(), first) }()
	require.Eventually(t, func() bool {
		h.pipe.mu.Lock()
		defer h.pipe.mu.Unlock()
		f, ok := h.pipe.inflight[first.Hash()]
		return ok && f != nil && len(f.waiters) == 1 // the inline caller is not a waiter
	}, 5*time.Second, time.Millisecond)
	// The inline slot is taken: this one goes to the (free) worker.
	require.NoError(t, h.pipe.SubmitWait(context.Background(), second))
	require.Equal(t, second.Hash(), <-g.entered)
	g.release(first)
	require.NoError(t, <-res)
	require.NoError(t, <-res)
	require.EqualValues(t, 2, h.chain.calls.Load())
	h.pipe.mu.Lock()
	require.Zero(t, h.pipe.inlineN)
	require.Empty(t, h.pipe.inflight)
	h.pipe.mu.Unlock()
}

// TestInlineShutdown: Run does not return while a caller processes its
// transaction inline; that transaction is pooled and relayed; after Run,
// SubmitWait fails with ErrStopped.
func TestInlineShutdown(t *testing.T) {
	var (
		mu      sync.Mutex
		relayed []util.Uint256
	)
	tx := testTx(1, 100)
	h := newHarness(t, 100, func(c *Config) {
		c.Inline = 4
		c.RelayDelay = time.Hour // relayed only by the flush at the end
		c.Relay = func(hs []util.Uint256) { mu.Lock(); relayed = append(relayed, hs...); mu.Unlock() }
	})
	g := newGate(h.chain, tx)
	ctx, cancel := context.WithCancel(context.Background())
	runDone := make(chan error, 1)
	go func() { runDone <- h.pipe.Run(ctx) }()
	require.Eventually(t, h.pipe.running.Load, 5*time.Second, time.Millisecond)
	res := make(chan error, 1)
	go func() { res <- h.pipe.SubmitWait(context.Background(), tx) }()
	require.Equal(t, tx.Hash(), <-g.entered)
	cancel()
	require.Eventually(t, func() bool {
		h.pipe.mu.Lock()
		defer h.pipe.mu.Unlock()
		return h.pipe.closing
	}, 5*time.Second, time.Millisecond)
	select {
	case <-runDone:
		t.Fatal("Run returned while a caller was processing inline")
	default:
	}
	// A new caller is not processed inline once Run is ending.
	h.pipe.mu.Lock()
	require.Equal(t, 1, h.pipe.inlineN)
	h.pipe.mu.Unlock()
	g.release(tx)
	require.NoError(t, <-res)
	require.NoError(t, <-runDone)
	require.True(t, h.pool.Contains(tx.Hash()))
	mu.Lock()
	require.True(t, slices.Equal(relayed, []util.Uint256{tx.Hash()}))
	mu.Unlock()
	require.ErrorIs(t, h.pipe.SubmitWait(context.Background(), testTx(2, 100)), ErrStopped)
}
