package blockqueue

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/n3d-io/n3d/pkg/core/block"
	"go.uber.org/zap"
)

// DefaultSize is the number of blocks ahead of the ledger the queue keeps.
const DefaultSize = 2000

// Sentinel errors of Put.
var (
	// ErrOld is a block at or below the ledger's height.
	ErrOld = errors.New("blockqueue: block already on chain")
	// ErrTooFar is a block beyond the queue's window.
	ErrTooFar = errors.New("blockqueue: block too far ahead")
	// ErrDuplicate is a block whose index is already queued.
	ErrDuplicate = errors.New("blockqueue: block already queued")
	// ErrRunning is a second concurrent Run.
	ErrRunning = errors.New("blockqueue: already running")
)

// Ledger is what the queue feeds. AddBlock is only called from Run's
// goroutine; BlockHeight may be called from any goroutine.
type Ledger interface {
	AddBlock(b *block.Block) error
	BlockHeight() uint32
}

// Config configures a Queue.
type Config struct {
	// Ledger receives the blocks (required).
	Ledger Ledger
	// Size is the window of indexes above the ledger's height kept
	// (DefaultSize when 0).
	Size int
	// Log receives failures of AddBlock (zap.NewNop when nil).
	Log *zap.Logger
	// OnAdded, when set, is called from Run's goroutine after each block the
	// ledger accepted (e.g. to relay it).
	OnAdded func(*block.Block)
}

// Queue buffers blocks by index; see the package documentation.
type Queue struct {
	cfg  Config
	wake chan struct{}
	// running guards against concurrent Runs.
	running atomic.Bool

	mu struct {
		sync.Mutex
		ring  []*block.Block // slot index % len(ring)
		count int
		swept uint32 // the slots of indexes up to this one hold no stale block
	}
}

// New validates cfg and returns an empty queue.
func New(cfg Config) (*Queue, error) {
	if cfg.Ledger == nil {
		return nil, errors.New("blockqueue: no ledger")
	}
	if cfg.Size < 0 {
		return nil, fmt.Errorf("blockqueue: negative size %d", cfg.Size)
	}
	if cfg.Size == 0 {
		cfg.Size = DefaultSize
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	q := &Queue{cfg: cfg, wake: make(chan struct{}, 1)}
	q.mu.ring = make([]*block.Block, cfg.Size)
	return q, nil
}

// Put queues b without blocking. It returns ErrOld, ErrTooFar or
// ErrDuplicate (callers usually ignore them) when b is dropped. b must not be
// modified afterwards.
func (q *Queue) Put(b *block.Block) error {
	h := q.cfg.Ledger.BlockHeight()
	if b.Index <= h {
		return fmt.Errorf("%w: %d, height %d", ErrOld, b.Index, h)
	}
	size := uint32(len(q.mu.ring))
	if b.Index-h > size {
		return fmt.Errorf("%w: %d, height %d, window %d", ErrTooFar, b.Index, h, size)
	}
	q.mu.Lock()
	q.sweepLocked(h)
	slot := &q.mu.ring[b.Index%size]
	old := *slot
	switch {
	case old != nil && old.Index == b.Index:
		q.mu.Unlock()
		return fmt.Errorf("%w: %d", ErrDuplicate, b.Index)
	case old == nil:
		q.mu.count++
	}
	// A stale block (at or below the height, left by a failed AddBlock or a
	// late Put) is simply replaced.
	*slot = b
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return nil
}

// Len returns the number of queued blocks (including stale ones not yet
// swept).
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.mu.count
}

// Run feeds the ledger until ctx is cancelled; it returns ctx's error, or
// ErrRunning when another Run is active.
func (q *Queue) Run(ctx context.Context) error {
	if !q.running.CompareAndSwap(false, true) {
		return ErrRunning
	}
	defer q.running.Store(false)
	for {
		q.drain(ctx)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-q.wake:
		}
	}
}

// drain adds consecutive blocks while the next one is queued.
func (q *Queue) drain(ctx context.Context) {
	for ctx.Err() == nil {
		b := q.take(q.cfg.Ledger.BlockHeight() + 1)
		if b == nil {
			return
		}
		if err := q.cfg.Ledger.AddBlock(b); err != nil {
			// Another source (consensus, a second sync path) may have
			// added a block at this height meanwhile: not worth a warning.
			log := q.cfg.Log.Warn
			if q.cfg.Ledger.BlockHeight() >= b.Index {
				log = q.cfg.Log.Debug
			}
			log("block rejected", zap.Uint32("index", b.Index), zap.Stringer("hash", b.Hash()), zap.Error(err))
			continue
		}
		if q.cfg.OnAdded != nil {
			q.cfg.OnAdded(b)
		}
	}
}

// sweepLocked frees the slots of the indexes the ledger reached since the
// last sweep: a block queued there is a copy of one the ledger got
// another way (consensus, or a second copy from another peer that came
// while the first was being added). Left in place it would stay until the
// ring came round to its slot again, Size blocks later: with blocks of
// thousands of transactions, up to Size of them held in memory.
// REQUIRES: q.mu held.
func (q *Queue) sweepLocked(height uint32) {
	if height <= q.mu.swept {
		return
	}
	size := uint32(len(q.mu.ring))
	from := q.mu.swept + 1
	if height-from >= size {
		from = height - size + 1
	}
	for i := from; ; i++ {
		slot := &q.mu.ring[i%size]
		if b := *slot; b != nil && b.Index <= height {
			*slot = nil
			q.mu.count--
		}
		if i == height {
			break
		}
	}
	q.mu.swept = height
}

// take removes and returns the block with the given index, if queued. The
// slot of a failed block is thereby freed for a better copy.
func (q *Queue) take(index uint32) *block.Block {
	q.mu.Lock()
	defer q.mu.Unlock()
	if index > 0 {
		q.sweepLocked(index - 1)
	}
	slot := &q.mu.ring[index%uint32(len(q.mu.ring))]
	b := *slot
	if b == nil {
		return nil
	}
	if b.Index != index {
		if b.Index < index { // stale: swept now
			*slot = nil
			q.mu.count--
		}
		return nil
	}
	*slot = nil
	q.mu.count--
	return b
}
