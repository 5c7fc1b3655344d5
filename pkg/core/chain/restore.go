package chain

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"go.uber.org/zap"
)

// indexOffset is where a block's index sits in its serialization: version,
// previous hash, Merkle root, timestamp, nonce.
const indexOffset = 4 + 32 + 32 + 8 + 8

// ErrDump is a dump that does not fit the chain (wrong network, gap in
// indexes, starts beyond the height).
var ErrDump = errors.New("chain: dump does not fit the chain")

// RestoreOptions configures Restore.
type RestoreOptions struct {
	// Count is the number of blocks to add (0: all the dump holds).
	Count uint32
	// Log receives progress and the final summary (zap.NewNop when nil).
	Log *zap.Logger
	// ProgressEvery is the interval of progress logs (10 s when 0).
	ProgressEvery time.Duration
	// OnBlock, when set, is called after each added block.
	OnBlock func(b *block.Block) error
	// CacheKeys, when positive, bounds the keys the write cache holds
	// before it goes to the store, for the restore's duration, in place of
	// the node's bound (a quarter of a million keys, or a second of
	// blocks, whichever comes first). A restore adds several large blocks
	// a second: a second of them is a large part of its peak memory.
	CacheKeys int
}

// RestoreResult sums up a restore.
type RestoreResult struct {
	Added, Skipped uint32
	Elapsed        time.Duration
}

// Restore adds the blocks of an .acc dump (plain or incremental) to c: a
// genesis record is checked against the chain's own and skipped, blocks
// already on chain are skipped, the rest must follow the height without a
// gap and is added (verified as configured) one by one. On an invalid or
// truncated dump it stops with an error naming the block; everything before
// it stays. ctx cancels between blocks. r is read and decoded ahead in the
// background: after Restore returns it may have been read past the last
// block added and must not be used again.
func Restore(ctx context.Context, c *Chain, r io.Reader, o RestoreOptions) (RestoreResult, error) {
	if o.Log == nil {
		o.Log = zap.NewNop()
	}
	if o.ProgressEvery <= 0 {
		o.ProgressEvery = 10 * time.Second
	}
	var res RestoreResult
	d, err := chaindump.NewReader(r)
	if err != nil {
		return res, err
	}
	total := d.Count()
	o.Log.Info("restore started", zap.Stringer("format", d.Format()), zap.Uint32("start", d.Start()),
		zap.Uint32("blocks", total), zap.Uint32("height", c.BlockHeight()))
	begin := time.Now()
	p := progress{log: o.Log, every: o.ProgressEvery, last: begin, lastHeight: c.BlockHeight()}
	if o.CacheKeys > 0 {
		defer c.boundCache(o.CacheKeys)()
	}
	pre, stopPre := c.startPreverify()
	defer stopPre()
	records, taken, stop := readAhead(d, c.BlockHeight(), c.proto.StateRootInHeader, pre)
	defer stop()
	expected := int64(-1) // index the next record must have, once known
	for o.Count == 0 || res.Added < o.Count {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		rec := <-records
		taken(rec)
		if errors.Is(rec.err, io.EOF) {
			break
		}
		if rec.err != nil {
			return res, fmt.Errorf("after block %d: %w", c.BlockHeight(), rec.err)
		}
		if len(rec.raw) < block.UnsignedHeaderSize {
			return res, fmt.Errorf("%w: record of %d bytes after block %d", chaindump.ErrInvalidBlock, len(rec.raw), c.BlockHeight())
		}
		index := rec.index
		if expected >= 0 && int64(index) != expected {
			return res, fmt.Errorf("%w: block %d follows block %d", ErrDump, index, expected-1)
		}
		expected = int64(index) + 1
		if index <= c.BlockHeight() {
			if err := checkKnown(c, index, rec.raw); err != nil {
				return res, err
			}
			res.Skipped++
			continue
		}
		if index != c.BlockHeight()+1 {
			return res, fmt.Errorf("%w: dump continues at block %d, chain height is %d", ErrDump, index, c.BlockHeight())
		}
		if rec.decodeErr != nil {
			return res, fmt.Errorf("block %d: %w: %w", index, chaindump.ErrInvalidBlock, rec.decodeErr)
		}
		b := rec.b
		if err := c.add(b, true); err != nil {
			return res, err
		}
		res.Added++
		if o.OnBlock != nil {
			if err := o.OnBlock(b); err != nil {
				return res, fmt.Errorf("block %d: %w", index, err)
			}
		}
		p.tick(c.BlockHeight(), rec.remaining, o.Count, res.Added)
	}
	res.Elapsed = time.Since(begin)
	o.Log.Info("restore finished", zap.Uint32("added", res.Added), zap.Uint32("skipped", res.Skipped),
		zap.Uint32("height", c.BlockHeight()), zap.Stringer("hash", c.CurrentBlockHash()),
		zap.Stringer("stateroot", c.CurrentStateRoot()), zap.Duration("elapsed", res.Elapsed))
	return res, nil
}

// boundCache sets the write cache's key bound to n and returns what puts
// the node's back.
func (c *Chain) boundCache(n int) (undo func()) {
	c.addMu.Lock()
	c.cacheKeys = n
	c.addMu.Unlock()
	return func() {
		c.addMu.Lock()
		c.cacheKeys = 0
		c.addMu.Unlock()
	}
}

// readAheadRecords is how many dump records are read and decoded ahead of
// the block being added, as long as they hold at most readAheadBytes.
const readAheadRecords = 64

// readAheadBytes bounds the records read ahead by their size (one record is
// always let through): a decoded block keeps its record's bytes (its scripts
// point into them) and is about three times larger in memory, so 64 blocks
// of 2,000-10,000 transactions (a chain made under neo-bench load) held
// 150-300 MB while a few blocks ahead are all the decoding and the
// signature pre-verification need to keep the adding goroutine busy. At
// 4 MiB the read-ahead still held 13 MB of live heap (heap profile of a
// 200,000-transaction neo-bench chain's restore); 2 MiB is 2-5 such blocks.
const readAheadBytes = 2 << 20

// record is one dump record read ahead: a copy of its bytes, its index,
// the block decoded from it when it is above the height the restore
// started at (or why it does not decode), and what is left after it. A
// failed read (io.EOF at the end) carries only err and is the last record.
type record struct {
	raw       []byte
	index     uint32
	b         *block.Block
	decodeErr error
	remaining uint32
	err       error
}

// readAhead reads and decodes the dump's records in a goroutine, in order,
// at most readAheadRecords and (but for one) readAheadBytes ahead: taken
// must be called with each record received. stop makes it quit (without
// waiting for a read in progress). Each decoded block, its hashes computed
// (so that readers only read them), is also offered to pre without waiting
// (dropped when pre is full).
func readAhead(d *chaindump.Reader, height uint32, sr bool, pre chan<- *block.Block) (<-chan record, func(record), func()) {
	out := make(chan record, readAheadRecords)
	done := make(chan struct{})
	budget := newByteBudget(readAheadBytes)
	go func() {
		for {
			var rec record
			raw, err := d.Next()
			if err != nil {
				rec.err = err
			} else if !budget.acquire(len(raw)) {
				return // stopped
			} else {
				rec.raw = append([]byte(nil), raw...)
				rec.remaining = d.Remaining()
				if len(raw) >= block.UnsignedHeaderSize {
					rec.index = binary.LittleEndian.Uint32(raw[indexOffset:])
					if rec.index > height {
						rec.b, rec.decodeErr = block.NewBlockFromBytesSR(rec.raw, sr)
						offerDecoded(rec.b, rec.decodeErr, pre)
					}
				}
			}
			select {
			case out <- rec:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	taken := func(rec record) { budget.release(len(rec.raw)) }
	return out, taken, sync.OnceFunc(func() {
		close(done)
		budget.close()
	})
}

// byteBudget bounds the bytes held by a producer ahead of its consumer.
type byteBudget struct {
	mu     sync.Mutex
	cond   sync.Cond
	used   int
	limit  int
	closed bool
}

func newByteBudget(limit int) *byteBudget {
	b := &byteBudget{limit: limit}
	b.cond.L = &b.mu
	return b
}

// acquire waits until n more bytes fit (always when nothing is held) and
// takes them; false when the budget was closed.
func (b *byteBudget) acquire(n int) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used > 0 && b.used+n > b.limit && !b.closed {
		b.cond.Wait()
	}
	if b.closed {
		return false
	}
	b.used += n
	return true
}

// release gives n bytes back.
func (b *byteBudget) release(n int) {
	b.mu.Lock()
	b.used -= n
	b.mu.Unlock()
	b.cond.Broadcast()
}

// close wakes and fails every acquire, now and later.
func (b *byteBudget) close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.cond.Broadcast()
}

// offerDecoded computes b's cached hashes and offers b to pre.
func offerDecoded(b *block.Block, err error, pre chan<- *block.Block) {
	if err != nil {
		return
	}
	b.Hash()
	for _, tx := range b.Transactions {
		tx.Hash()
	}
	select {
	case pre <- b:
	default:
	}
}

// checkKnown makes sure a record for a block the chain has is that block
// (genesis included: a dump of another network is refused). A block's hash
// is the SHA-256 of its unsigned header, the first bytes of the record.
func checkKnown(c *Chain, index uint32, raw []byte) error {
	n := block.UnsignedSize(c.proto.StateRootInHeader)
	if len(raw) < n {
		return fmt.Errorf("block %d: %w: %d bytes", index, chaindump.ErrInvalidBlock, len(raw))
	}
	got := hash.Sha256(raw[:n])
	have, _ := c.GetHeaderHash(index)
	if got != have {
		return fmt.Errorf("%w: block %d of the dump is %s, the chain has %s", ErrDump, index, got.String(), have.String())
	}
	return nil
}

// progress logs restore progress at intervals.
type progress struct {
	log        *zap.Logger
	every      time.Duration
	last       time.Time
	lastHeight uint32
}

func (p *progress) tick(height, remaining, count, added uint32) {
	now := time.Now()
	if now.Sub(p.last) < p.every {
		return
	}
	rate := float64(height-p.lastHeight) / now.Sub(p.last).Seconds()
	left := remaining
	if count != 0 && count-added < left {
		left = count - added
	}
	eta := time.Duration(0)
	if rate > 0 {
		eta = time.Duration(float64(left) / rate * float64(time.Second)).Round(time.Second)
	}
	p.log.Info("restoring", zap.Uint32("height", height), zap.Float64("blocksPerSecond", rate),
		zap.Uint32("left", left), zap.Duration("eta", eta))
	p.last, p.lastHeight = now, height
}

// Dump writes blocks start..start+count-1 of c as an .acc dump: incremental
// (with the start index) unless plain is set, which is only allowed from
// block 0. count 0 means up to the current height.
func Dump(c *Chain, w io.Writer, start, count uint32, plain bool) error {
	h := c.BlockHeight()
	if start > h {
		return fmt.Errorf("%w: start %d above height %d", ErrNotFound, start, h)
	}
	if count == 0 {
		count = h - start + 1
	}
	if uint64(start)+uint64(count) > uint64(h)+1 {
		return fmt.Errorf("%w: chain height %d, cannot dump %d blocks from %d", ErrNotFound, h, count, start)
	}
	format := chaindump.Incremental
	if plain {
		if start != 0 {
			return fmt.Errorf("chain: a plain dump starts at block 0, not %d", start)
		}
		format = chaindump.Plain
	}
	dw, err := chaindump.NewWriter(w, format, start, count)
	if err != nil {
		return err
	}
	for i := start; i < start+count; i++ {
		b, err := c.GetBlockByIndex(i)
		if err != nil {
			return err
		}
		if err := dw.WriteBlock(b); err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
	}
	return dw.Close()
}
