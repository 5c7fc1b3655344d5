package consensus

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// fakeClock is a Clock that moves only when the test advances it.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers map[*fakeTimer]struct{} // pending
}

var _ Clock = (*fakeClock)(nil)

type fakeTimer struct {
	c  *fakeClock
	at time.Time
	ch chan time.Time
}

func newFakeClock(now time.Time) *fakeClock {
	return &fakeClock{now: now, timers: map[*fakeTimer]struct{}{}}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) ClockTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), ch: make(chan time.Time, 1)}
	if d <= 0 {
		t.ch <- c.now
		return t
	}
	c.timers[t] = struct{}{}
	return t
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	_, ok := t.c.timers[t]
	delete(t.c.timers, t)
	return ok
}

// Advance moves the clock by d and fires the timers due by then.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for t := range c.timers {
		if !t.at.After(c.now) {
			delete(c.timers, t)
			t.ch <- c.now
		}
	}
}

// pendingAfter counts the pending timers due later than now+d.
func (c *fakeClock) pendingAfter(d time.Duration) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for t := range c.timers {
		if t.at.After(c.now.Add(d)) {
			n++
		}
	}
	return n
}

// waitPending waits until at least n timers are pending beyond now+d:
// the services have handled what fired and armed their next deadline.
func (c *fakeClock) waitPending(t *testing.T, n int, d time.Duration) {
	t.Helper()
	require.Eventually(t, func() bool { return c.pendingAfter(d) >= n }, 10*time.Second, time.Millisecond,
		"%d timers beyond %v not armed", n, d)
}

func fired(c <-chan time.Time) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

func TestRoundTimer(t *testing.T) {
	c := newFakeClock(time.Unix(1000, 0))
	rt := newRoundTimer(c)

	rt.Reset(5, 1, time.Second)
	require.Equal(t, uint32(5), rt.Height())
	require.Equal(t, byte(1), rt.View())
	c.Advance(999 * time.Millisecond)
	require.False(t, fired(rt.C()))
	c.Advance(time.Millisecond)
	require.True(t, fired(rt.C()))

	// Extend pushes the deadline back from the start of the round.
	rt.Reset(6, 0, time.Second)
	c.Advance(500 * time.Millisecond)
	rt.Extend(time.Second) // deadline: start + 2s
	c.Advance(time.Second)
	require.False(t, fired(rt.C()))
	c.Advance(500 * time.Millisecond)
	require.True(t, fired(rt.C()))

	// A zero delay fires at once; a Reset drops a fire not taken yet.
	rt.Reset(7, 0, 0)
	rt.Reset(7, 1, time.Second)
	require.False(t, fired(rt.C()))
	rt.Reset(7, 2, 0)
	require.True(t, rt.firedAtOnce())
	require.True(t, fired(rt.C()))
	require.False(t, rt.firedAtOnce())
	require.Equal(t, byte(2), rt.View())
	require.Equal(t, c.Now(), rt.Now())
	require.Zero(t, c.pendingAfter(0), "replaced timers are stopped")
}

func TestRealClock(t *testing.T) {
	var c Clock = RealClock{}
	tm := c.NewTimer(time.Millisecond)
	select {
	case <-tm.C():
	case <-time.After(10 * time.Second):
		t.Fatal("real timer did not fire")
	}
	require.False(t, tm.Stop())
	require.WithinDuration(t, time.Now(), c.Now(), time.Minute)
}
