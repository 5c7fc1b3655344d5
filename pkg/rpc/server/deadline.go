package server

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// deadlineStep is how long the requests of a sharedDeadline share one
// context: each waits between the timeout and the timeout plus this.
const deadlineStep = time.Second

// sharedDeadline hands out contexts that end after its timeout, one per
// deadlineStep instead of one per request: a context with a timeout is
// four allocations and a runtime timer, on every sendrawtransaction. Each
// context ends by its own timer, never earlier than the timeout after the
// request took it and at most deadlineStep later.
type sharedDeadline struct {
	timeout time.Duration
	cur     atomic.Pointer[stepContext]
	mu      sync.Mutex // serialises the making of a new step
}

type stepContext struct {
	ctx    context.Context
	cancel context.CancelFunc // released by the context's own timer
	until  time.Time          // hand it out until then
}

// context returns a context ending in [timeout, timeout+deadlineStep].
func (d *sharedDeadline) context() context.Context {
	now := time.Now()
	if c := d.cur.Load(); c != nil && now.Before(c.until) {
		return c.ctx
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if c := d.cur.Load(); c != nil && now.Before(c.until) {
		return c.ctx
	}
	ctx, cancel := context.WithTimeout(context.Background(), d.timeout+deadlineStep)
	d.cur.Store(&stepContext{ctx: ctx, cancel: cancel, until: now.Add(deadlineStep)})
	return ctx
}
