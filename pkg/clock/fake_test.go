package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// recv returns the value waiting on c, failing when there is none (a
// Fake fires synchronously in Advance, so no wait is needed).
func recv(t *testing.T, c <-chan time.Time) time.Time {
	t.Helper()
	select {
	case v := <-c:
		return v
	default:
		t.Fatal("timer did not fire")
		return time.Time{}
	}
}

func none(t *testing.T, c <-chan time.Time) {
	t.Helper()
	select {
	case v := <-c:
		t.Fatalf("unexpected fire at %v", v)
	default:
	}
}

func TestFakeTimerFiresInOrder(t *testing.T) {
	f := NewFake(t0)
	var order []string
	f.AfterFunc(3*time.Second, func() { order = append(order, "c3") })
	f.AfterFunc(time.Second, func() { order = append(order, "a1") })
	f.AfterFunc(time.Second, func() { order = append(order, "b1") }) // same deadline: arming order
	f.AfterFunc(2*time.Second, func() {
		order = append(order, "x2")
		require.Equal(t, t0.Add(2*time.Second), f.Now(), "the clock reads the deadline while it fires")
		f.AfterFunc(500*time.Millisecond, func() { order = append(order, "y2.5") }) // armed while firing
	})
	tm := f.NewTimer(10 * time.Second)
	require.Equal(t, 5, f.Pending())
	f.Advance(5 * time.Second)
	require.Equal(t, []string{"a1", "b1", "x2", "y2.5", "c3"}, order)
	require.Equal(t, t0.Add(5*time.Second), f.Now())
	none(t, tm.C())
	next, ok := f.Next()
	require.True(t, ok)
	require.Equal(t, t0.Add(10*time.Second), next)
	require.True(t, f.AdvanceNext())
	require.Equal(t, t0.Add(10*time.Second), recv(t, tm.C()))
	require.False(t, f.AdvanceNext())
	require.Zero(t, f.Pending())
}

func TestFakeStopReset(t *testing.T) {
	f := NewFake(t0)
	tm := f.NewTimer(time.Second)
	require.True(t, tm.Stop())
	require.False(t, tm.Stop())
	f.Advance(time.Hour)
	none(t, tm.C())

	// A fire not taken is dropped by Reset: no stale value afterwards.
	require.False(t, tm.Reset(time.Second))
	f.Advance(time.Second)
	require.True(t, len(tm.C()) == 1)
	require.False(t, tm.Reset(time.Minute))
	none(t, tm.C())
	f.Advance(59 * time.Second)
	none(t, tm.C())
	f.Advance(time.Second)
	recv(t, tm.C())

	// d <= 0 fires at once.
	z := f.NewTimer(0)
	require.Equal(t, f.Now(), recv(t, z.C()))
	done := make(chan struct{})
	f.AfterFunc(-time.Second, func() { close(done) })
	<-done
}

func TestFakeTicker(t *testing.T) {
	f := NewFake(t0)
	tk := f.NewTicker(time.Second)
	f.Advance(time.Second)
	require.Equal(t, t0.Add(time.Second), recv(t, tk.C()))
	f.Advance(3 * time.Second) // three ticks, the reader takes none: one kept
	require.Equal(t, t0.Add(2*time.Second), recv(t, tk.C()))
	none(t, tk.C())
	f.Advance(time.Second)
	require.Equal(t, t0.Add(5*time.Second), recv(t, tk.C()))
	tk.Stop()
	f.Advance(time.Hour)
	none(t, tk.C())
	require.Panics(t, func() { f.NewTicker(0) })
}

func TestFakeWaitPending(t *testing.T) {
	f := NewFake(t0)
	armed := make(chan Timer)
	go func() { armed <- f.NewTimer(time.Second) }()
	require.True(t, f.WaitPending(1, nil))
	tm := <-armed
	f.Advance(time.Second)
	recv(t, tm.C())
	done := make(chan struct{})
	close(done)
	require.False(t, f.WaitPending(5, done))
}

func TestRealClock(t *testing.T) {
	c := OrReal(nil)
	require.IsType(t, Real{}, c)
	f := NewFake(t0)
	require.Same(t, f, OrReal(f))
	tm := c.NewTimer(0)
	<-tm.C()
	fired := make(chan struct{})
	c.AfterFunc(time.Millisecond, func() { close(fired) })
	<-fired
	tk := c.NewTicker(time.Millisecond)
	<-tk.C()
	tk.Stop()
	require.False(t, c.Now().IsZero())
}
