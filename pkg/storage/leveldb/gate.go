package leveldb

import (
	"sync/atomic"
	"time"
)

// Bits of gate.state above the count of operations inside.
const (
	gatePending = int64(1) << 61 // an exclusive action waits for a quiet moment
	gateClosed  = int64(1) << 62 // an exclusive action runs; nobody is inside
)

// Waits of the gate (only while an exclusive action is pending or runs).
const (
	gatePoll = 100 * time.Microsecond
	// gateYield bounds how long an operation defers to a pending exclusive
	// action before it goes in anyway: an operation called from inside
	// another one of the same goroutine (a Get from a Seek callback) must
	// not wait for the outer one to end.
	gateYield = 20 * time.Millisecond
)

// gate lets operations run concurrently and one exclusive action (the
// reopen of RecoverWrites) run alone. Once an action is pending, new
// operations wait for it for up to gateYield, then go in anyway; the
// action runs at the first moment no operation is inside, and operations
// arriving while it runs wait for its end. So the action is not starved by
// a steady load, and nested operations cannot deadlock against it.
type gate struct {
	state atomic.Int64
}

// enter counts the caller in once the gate lets it.
func (g *gate) enter() {
	var deferSince time.Time
	for {
		v := g.state.Load()
		switch {
		case v&gateClosed != 0:
		case v&gatePending != 0 && (deferSince.IsZero() || time.Since(deferSince) < gateYield):
			if deferSince.IsZero() {
				deferSince = time.Now()
			}
		default:
			if g.state.CompareAndSwap(v, v+1) {
				return
			}
			continue
		}
		time.Sleep(gatePoll)
	}
}

// exit counts the caller out.
func (g *gate) exit() { g.state.Add(-1) }

// exclusive runs fn alone: no operation inside, new ones waiting.
func (g *gate) exclusive(fn func()) {
	for { // one exclusive action at a time
		v := g.state.Load()
		if v&(gatePending|gateClosed) == 0 && g.state.CompareAndSwap(v, v|gatePending) {
			break
		}
		time.Sleep(gatePoll)
	}
	for !g.state.CompareAndSwap(gatePending, gateClosed) {
		time.Sleep(gatePoll)
	}
	defer g.state.Add(-gateClosed)
	fn()
}
