package txpipe

import (
	"context"
	"crypto/rand"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func randomHash(t testing.TB) util.Uint256 {
	var h util.Uint256
	_, err := rand.Read(h[:])
	require.NoError(t, err)
	return h
}

// TestBatcherGroups: 100 hashes waiting when the batcher starts go out as
// two full groups at once and the rest once the delay has passed on the
// batcher's clock, not before.
func TestBatcherGroups(t *testing.T) {
	var (
		mu     sync.Mutex
		groups [][]util.Uint256
	)
	count := func() int { mu.Lock(); defer mu.Unlock(); return len(groups) }
	const delay = 50 * time.Millisecond
	fake := clock.NewFake(time.Unix(0, 0))
	b := newBatcher(func(hs []util.Uint256) {
		mu.Lock()
		groups = append(groups, hs)
		mu.Unlock()
	}, delay, fake)
	var all []util.Uint256
	for range 100 {
		h := randomHash(t)
		all = append(all, h)
		b.add(h)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.run(ctx); close(done) }()
	// The full groups are sent before the timer for the rest is armed.
	require.True(t, fake.WaitPending(1, done))
	require.Equal(t, 2, count())
	fake.Advance(delay - time.Nanosecond)
	require.Equal(t, 2, count(), "the partial group left before its delay")
	fake.Advance(time.Nanosecond)
	require.Eventually(t, func() bool { return count() == 3 }, 5*time.Second, time.Millisecond)
	cancel()
	<-done
	require.Len(t, groups, 3)
	require.Len(t, groups[0], MaxInvHashes)
	require.Len(t, groups[1], MaxInvHashes)
	require.Len(t, groups[2], 100-2*MaxInvHashes)
	var got []util.Uint256
	for _, g := range groups {
		got = append(got, g...)
	}
	require.Equal(t, all, got)
}

// TestBatcherFlushOnStop relays what waits when the context ends.
func TestBatcherFlushOnStop(t *testing.T) {
	var got [][]util.Uint256
	fake := clock.NewFake(time.Unix(0, 0))
	b := newBatcher(func(hs []util.Uint256) { got = append(got, hs) }, time.Hour, fake)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { b.run(ctx); close(done) }()
	h := randomHash(t)
	b.add(h)
	require.True(t, fake.WaitPending(1, done)) // h waits for its delay
	cancel()
	<-done
	require.Equal(t, [][]util.Uint256{{h}}, got)
}

func TestSchedRoundRobin(t *testing.T) {
	s := newSched(3, 100)
	// a: 3 jobs (a fourth refused), b: 1, c: 2.
	for _, src := range []Source{1, 1, 1, 2, 3, 3} {
		require.True(t, s.push(job{src: src}))
	}
	require.False(t, s.push(job{src: 1}))
	var order []Source
	for {
		j, ok := s.pop()
		if !ok {
			break
		}
		order = append(order, j.src)
	}
	require.Equal(t, []Source{1, 2, 3, 1, 3, 1}, order)
	require.Zero(t, s.n)
	require.Empty(t, s.queues)
	// Jobs of one source keep their order, and the fifo compacts.
	s.perSource, s.maxQueued = 1000, 1000
	for i := range 200 {
		require.True(t, s.push(job{src: 9, hash: util.Uint256{byte(i)}}))
	}
	for i := range 200 {
		j, ok := s.pop()
		require.True(t, ok)
		require.Equal(t, byte(i), j.hash[0])
	}
	require.Empty(t, s.drain())
}

func TestSeenSetRotation(t *testing.T) {
	s, err := newSeenSet(100)
	require.NoError(t, err)
	first := make([]util.Uint256, 100)
	for i := range first {
		first[i] = randomHash(t)
		require.NoError(t, s.add(first[i]))
	}
	for _, h := range first {
		require.True(t, s.maybe(h)) // now in the previous generation
	}
	for range 100 {
		require.NoError(t, s.add(randomHash(t)))
	}
	forgotten := 0
	for _, h := range first {
		if !s.maybe(h) {
			forgotten++
		}
	}
	// Two rotations later they are gone (but for false positives at 1e-6).
	require.GreaterOrEqual(t, forgotten, 99)
	fp := 0
	for range 10000 {
		if s.maybe(randomHash(t)) {
			fp++
		}
	}
	require.LessOrEqual(t, fp, 1)
}
