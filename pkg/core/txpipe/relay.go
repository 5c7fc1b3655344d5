package txpipe

import (
	"context"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/util"
)

// MaxInvHashes is the most hashes relayed in one Inv message: 42 hashes
// of 32 bytes plus the message and inventory headers fill one 1500-byte
// MTU after the IP and TCP headers.
const MaxInvHashes = 42

// batcher gathers the hashes of accepted transactions and hands them to
// the relay function in groups of at most MaxInvHashes: a full group at
// once, the rest after delay counted from the first hash waiting.
type batcher struct {
	relay func([]util.Uint256)
	delay time.Duration
	clock clock.Clock

	mu      sync.Mutex
	pending []util.Uint256
	wake    chan struct{} // capacity 1: pending grew
}

func newBatcher(relay func([]util.Uint256), delay time.Duration, c clock.Clock) *batcher {
	return &batcher{relay: relay, delay: delay, clock: clock.OrReal(c), wake: make(chan struct{}, 1)}
}

func (b *batcher) add(h util.Uint256) {
	b.mu.Lock()
	b.pending = append(b.pending, h)
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// take removes the waiting hashes: only whole groups unless all is set.
func (b *batcher) take(all bool) (groups [][]util.Uint256, left int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n := len(b.pending)
	if !all {
		n -= n % MaxInvHashes
	}
	for i := 0; i < n; i += MaxInvHashes {
		g := make([]util.Uint256, min(MaxInvHashes, n-i))
		copy(g, b.pending[i:])
		groups = append(groups, g)
	}
	rest := copy(b.pending, b.pending[n:])
	b.pending = b.pending[:rest]
	return groups, rest
}

func (b *batcher) send(groups [][]util.Uint256) {
	for _, g := range groups {
		b.relay(g)
	}
}

// run relays until ctx ends, then relays what is left and returns.
func (b *batcher) run(ctx context.Context) {
	timer := b.clock.NewTimer(time.Hour)
	timer.Stop()
	armed := false
	for {
		select {
		case <-ctx.Done():
			timer.Stop()
			groups, _ := b.take(true)
			b.send(groups)
			return
		case <-b.wake:
			groups, left := b.take(false)
			b.send(groups)
			if left > 0 && !armed {
				timer.Reset(b.delay)
				armed = true
			}
		case <-timer.C():
			armed = false
			groups, _ := b.take(true)
			b.send(groups)
		}
	}
}
