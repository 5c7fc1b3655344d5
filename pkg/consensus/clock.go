package consensus

import (
	"time"

	"github.com/nspcc-dev/dbft"
)

// Clock is the service's time source: every timer of the package (dBFT's
// round timer, the wait for peers) is made by it, so a test can run a
// network of services on a clock it steps.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTimer returns a timer that sends the time on its channel once d
	// has passed (at once for d <= 0).
	NewTimer(d time.Duration) ClockTimer
}

// ClockTimer is a one-shot timer of a Clock.
type ClockTimer interface {
	// C is the channel the timer fires on (capacity 1).
	C() <-chan time.Time
	// Stop stops the timer; it reports whether the timer was pending.
	Stop() bool
}

// RealClock is the wall clock (package time).
type RealClock struct{}

var _ Clock = RealClock{}

// Now implements Clock.
func (RealClock) Now() time.Time { return time.Now() }

// NewTimer implements Clock.
func (RealClock) NewTimer(d time.Duration) ClockTimer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time { return t.t.C }
func (t realTimer) Stop() bool          { return t.t.Stop() }

// roundTimer is dBFT's timer on a Clock: one pending deadline for a
// height and view, which dBFT may push back (Extend).
type roundTimer struct {
	clock  Clock
	height uint32
	view   byte
	start  time.Time     // when the deadline was set
	d      time.Duration // deadline - start
	t      ClockTimer    // nil when none is pending
	now    chan time.Time
}

var _ dbft.Timer = (*roundTimer)(nil)

func newRoundTimer(c Clock) *roundTimer {
	return &roundTimer{clock: c, now: make(chan time.Time, 1)}
}

// Now implements dbft.Timer.
func (t *roundTimer) Now() time.Time { return t.clock.Now() }

// Height implements dbft.Timer.
func (t *roundTimer) Height() uint32 { return t.height }

// View implements dbft.Timer.
func (t *roundTimer) View() byte { return t.view }

// C implements dbft.Timer. The channel changes with Reset and Extend;
// the service reads it afresh in every select.
func (t *roundTimer) C() <-chan time.Time {
	if t.t != nil {
		return t.t.C()
	}
	return t.now
}

// Reset implements dbft.Timer: a deadline d from now for height and
// view; d <= 0 fires at once.
func (t *roundTimer) Reset(height uint32, view byte, d time.Duration) {
	t.stop()
	select { // a fire of the previous deadline is stale
	case <-t.now:
	default:
	}
	t.height, t.view = height, view
	t.start, t.d = t.clock.Now(), d
	if d <= 0 {
		t.now <- t.start
		return
	}
	t.t = t.clock.NewTimer(d)
}

// Extend implements dbft.Timer: the deadline moves d later; if the new
// one is still ahead, the timer fires (again) then.
func (t *roundTimer) Extend(d time.Duration) {
	t.d += d
	if elapsed := t.clock.Now().Sub(t.start); t.d > elapsed {
		t.stop()
		t.t = t.clock.NewTimer(t.d - elapsed)
	}
}

// firedAtOnce tells whether the last deadline was not in the future and
// its fire is still to be taken.
func (t *roundTimer) firedAtOnce() bool { return t.t == nil && len(t.now) > 0 }

func (t *roundTimer) stop() {
	if t.t != nil {
		t.t.Stop()
		t.t = nil
	}
}
