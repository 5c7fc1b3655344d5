package clock

import "time"

// Clock makes the timers of a service and tells the time.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// NewTimer returns a timer that sends the time on its channel once d
	// has passed (at once for d <= 0).
	NewTimer(d time.Duration) Timer
	// NewTicker returns a ticker that sends the time every d (d > 0); a
	// tick the reader is not ready for is dropped, as time.Ticker does.
	NewTicker(d time.Duration) Ticker
	// AfterFunc calls f in its own goroutine (Real) or in the goroutine
	// that advances the clock (Fake) once d has passed. The returned
	// timer's C is nil.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a one-shot timer of a Clock.
type Timer interface {
	// C is the channel the timer fires on (capacity 1; nil for AfterFunc).
	C() <-chan time.Time
	// Stop stops the timer; it reports whether the timer was pending.
	Stop() bool
	// Reset makes the timer fire d from now; it reports whether the
	// timer was pending. As with time.Timer since Go 1.23, no stale
	// value is received after Stop or Reset returns.
	Reset(d time.Duration) bool
}

// Ticker is a periodic timer of a Clock.
type Ticker interface {
	// C is the channel the ticks arrive on (capacity 1).
	C() <-chan time.Time
	// Stop stops the ticks.
	Stop()
}

// Real is the wall clock (package time).
type Real struct{}

var _ Clock = Real{}

// Now implements Clock.
func (Real) Now() time.Time { return time.Now() }

// NewTimer implements Clock.
func (Real) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

// NewTicker implements Clock.
func (Real) NewTicker(d time.Duration) Ticker { return realTicker{time.NewTicker(d)} }

// AfterFunc implements Clock.
func (Real) AfterFunc(d time.Duration, f func()) Timer { return realTimer{time.AfterFunc(d, f)} }

type realTimer struct{ t *time.Timer }

func (t realTimer) C() <-chan time.Time        { return t.t.C }
func (t realTimer) Stop() bool                 { return t.t.Stop() }
func (t realTimer) Reset(d time.Duration) bool { return t.t.Reset(d) }

type realTicker struct{ t *time.Ticker }

func (t realTicker) C() <-chan time.Time { return t.t.C }
func (t realTicker) Stop()               { t.t.Stop() }

// OrReal returns c, or Real when c is nil (for Config defaults).
func OrReal(c Clock) Clock {
	if c == nil {
		return Real{}
	}
	return c
}
