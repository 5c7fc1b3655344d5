package clock

import (
	"sync"
	"time"
)

// Fake is a manually stepped clock: its time moves only with Advance (or
// Set), which fires the timers that fall due, one at a time in order of
// deadline and, among equal deadlines, of arming. A timer's value is
// sent without blocking (capacity 1, a value not taken is overwritten by
// none: the later fire is dropped, as a ticker's); an AfterFunc function
// runs in the goroutine that calls Advance, without the clock's lock
// held, so it may use the clock (but must not call Advance). Safe for
// concurrent use.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	seq    uint64
	timers map[*fakeTimer]struct{} // pending timers
	armed  *sync.Cond              // signalled when a timer is armed
}

var _ Clock = (*Fake)(nil)

// NewFake returns a Fake clock reading start.
func NewFake(start time.Time) *Fake {
	f := &Fake{now: start, timers: make(map[*fakeTimer]struct{})}
	f.armed = sync.NewCond(&f.mu)
	return f
}

// fakeTimer is a timer, a ticker (period > 0) or an AfterFunc (fn set).
type fakeTimer struct {
	f      *Fake
	c      chan time.Time
	fn     func()
	when   time.Time
	period time.Duration
	seq    uint64 // arming order, the tie-breaker
}

// Now implements Clock.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// NewTimer implements Clock.
func (f *Fake) NewTimer(d time.Duration) Timer {
	t := &fakeTimer{f: f, c: make(chan time.Time, 1)}
	t.Reset(d)
	return t
}

// NewTicker implements Clock; it panics for d <= 0, as time.NewTicker.
func (f *Fake) NewTicker(d time.Duration) Ticker {
	if d <= 0 {
		panic("clock: non-positive ticker period")
	}
	t := &fakeTimer{f: f, c: make(chan time.Time, 1), period: d}
	t.Reset(d)
	return fakeTicker{t}
}

// fakeTicker is a periodic fakeTimer seen as a Ticker.
type fakeTicker struct{ t *fakeTimer }

func (k fakeTicker) C() <-chan time.Time { return k.t.c }
func (k fakeTicker) Stop()               { k.t.Stop() }

// AfterFunc implements Clock.
func (f *Fake) AfterFunc(d time.Duration, fn func()) Timer {
	t := &fakeTimer{f: f, fn: fn}
	t.Reset(d)
	return t
}

// Advance moves the clock d forward, firing every timer that falls due on
// the way, in order; a ticker fires once per period passed (ticks not
// taken are dropped). The clock reads each deadline while its timer
// fires, and now+d at the end.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	end := f.now.Add(d)
	f.mu.Unlock()
	f.advanceTo(end)
}

// Set moves the clock forward to t (firing due timers, like Advance); a
// t before the current time changes nothing.
func (f *Fake) Set(t time.Time) { f.advanceTo(t) }

// AdvanceNext moves the clock to the earliest pending deadline and fires
// what is due then; it returns false (and does nothing) without a
// pending timer. A simulator driving a network of nodes on one Fake
// steps it so, from event to event.
func (f *Fake) AdvanceNext() bool {
	next, ok := f.Next()
	if ok {
		f.advanceTo(next)
	}
	return ok
}

// Next returns the earliest pending deadline.
func (f *Fake) Next() (time.Time, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	t := f.firstLocked()
	if t == nil {
		return time.Time{}, false
	}
	return t.when, true
}

// Pending is the number of pending timers, tickers and AfterFuncs.
func (f *Fake) Pending() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.timers)
}

// WaitPending blocks until at least n timers are pending or done is
// closed (false then): a test calls it before Advance so that the
// goroutines it steps have armed their timers.
func (f *Fake) WaitPending(n int, done <-chan struct{}) bool {
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-done:
			f.mu.Lock()
			f.armed.Broadcast()
			f.mu.Unlock()
		case <-stop:
		}
	}()
	f.mu.Lock()
	defer f.mu.Unlock()
	for len(f.timers) < n {
		select {
		case <-done:
			return false
		default:
		}
		f.armed.Wait()
	}
	return true
}

func (f *Fake) advanceTo(end time.Time) {
	for {
		f.mu.Lock()
		t := f.firstLocked()
		if t == nil || t.when.After(end) {
			if end.After(f.now) {
				f.now = end
			}
			f.mu.Unlock()
			return
		}
		if t.when.After(f.now) {
			f.now = t.when
		}
		now := f.now
		if t.period > 0 {
			t.when = t.when.Add(t.period)
			f.seq++
			t.seq = f.seq
		} else {
			delete(f.timers, t)
		}
		fn, c := t.fn, t.c
		f.mu.Unlock()
		if fn != nil {
			fn()
			continue
		}
		select {
		case c <- now:
		default:
		}
	}
}

// firstLocked is the pending timer due first (nil: none).
func (f *Fake) firstLocked() *fakeTimer {
	var first *fakeTimer
	for t := range f.timers {
		if first == nil || t.when.Before(first.when) || t.when.Equal(first.when) && t.seq < first.seq {
			first = t
		}
	}
	return first
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

// Stop implements Timer and Ticker.
func (t *fakeTimer) Stop() bool {
	t.f.mu.Lock()
	defer t.f.mu.Unlock()
	_, pending := t.f.timers[t]
	delete(t.f.timers, t)
	t.drainLocked()
	return pending
}

// Reset implements Timer. A timer reset to d <= 0 (not a ticker) fires
// at once, as a time.Timer does: its value is sent before Reset returns,
// an AfterFunc's function starts in a goroutine of its own.
func (t *fakeTimer) Reset(d time.Duration) bool {
	f := t.f
	f.mu.Lock()
	defer f.mu.Unlock()
	_, pending := f.timers[t]
	t.drainLocked()
	t.when = f.now.Add(d)
	if d <= 0 && t.period == 0 {
		delete(f.timers, t)
		if t.fn != nil {
			go t.fn()
		} else {
			t.c <- f.now
		}
		return pending
	}
	f.seq++
	t.seq = f.seq
	f.timers[t] = struct{}{}
	f.armed.Broadcast()
	return pending
}

// drainLocked drops a value sent and not taken, so none is received
// after Stop or Reset (the Go 1.23 time.Timer rule).
func (t *fakeTimer) drainLocked() {
	if t.c == nil {
		return
	}
	select {
	case <-t.c:
	default:
	}
}
