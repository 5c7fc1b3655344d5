package chain

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/storage"
	"go.uber.org/zap"
)

// The block log makes "visible" mean "durable" without giving up the
// asynchronous state persistence.
//
// A block reaches the write cache, and then readers, only after its bytes
// are durably in the store under SYSBlockLog+index (u32 BE): written
// straight to the lower store with storage.PutDurable (fsync'd by the
// LevelDB and BoltDB backends), concurrently with the block's execution,
// so the wait adds little to AddBlock. The block's state goes to the store
// later, with the write cache (persist.go's persistCache); the deletions of
// the log records of every block in the cache ride in that same change
// set, so the store holds, atomically, either the state without the
// record or the record without the state.
//
// Open replays the records above the persisted height through normal
// execution (verification as configured), so after a SIGKILL or a power
// loss the chain comes back with every block it announced, byte for byte,
// with the same state roots. Records at or below the persisted height
// (none in normal operation) and records after a gap are deleted.
//
// Restore does not log its blocks: they come from a dump the operator can
// restore again, and a durable write per block would cost the restore a
// large part of its speed. The first logged block after unlogged ones (the
// genesis block, restored blocks) first writes the whole cache
// synchronously, so a logged block never sits on top of unlogged ones that
// a crash could lose.
type logMode byte

const (
	logNone    logMode = iota // not logged (genesis, Restore)
	logWrite                  // write the record before the block is committed
	logPresent                // already in the log (replay at Open)
)

// blockLogKeyLen is the length of a block log key: prefix and index.
const blockLogKeyLen = 5

func blockLogKey(index uint32) []byte {
	return binary.BigEndian.AppendUint32([]byte{byte(storage.SYSBlockLog)}, index)
}

// startLogWrite writes b's record durably in a goroutine and returns it
// (raw, b's serialization; nil when encoding failed); wait returns the
// outcome. unlog removes the record again (for a block that failed after
// its record was written: a crash before the removal leaves a record Open
// verifies and drops).
func (c *Chain) startLogWrite(b *block.Block) (raw []byte, wait func() error) {
	raw, err := b.Bytes()
	if err != nil {
		return nil, func() error { return fmt.Errorf("chain: block log: %w", err) }
	}
	put := storage.PutDurable
	if c.cfg.BlockLogNoSync {
		put = storage.Store.Put
	}
	done := make(chan error, 1)
	go func() { done <- put(c.store, blockLogKey(b.Index), raw) }()
	return raw, func() error {
		if err := <-done; err != nil {
			return fmt.Errorf("%w: block log: %w", ErrStorage, err)
		}
		return nil
	}
}

// unlog removes the record of block index, which failed after its record
// was written.
func (c *Chain) unlog(index uint32) error {
	if err := c.store.Delete(blockLogKey(index)); err != nil {
		return fmt.Errorf("chain: block log: removing block %d: %w", index, err)
	}
	return nil
}

// trimLog queues, in the write cache, the deletion of the log records of
// every block the cache holds, so they leave the store in the change set
// that persists those blocks' state. REQUIRES: addMu held, right before
// the cache is persisted.
func (c *Chain) trimLog() error {
	for _, i := range c.logged {
		if err := c.cache.Delete(blockLogKey(i)); err != nil {
			return fmt.Errorf("chain: block log: %w", err)
		}
	}
	c.logged = c.logged[:0]
	return nil
}

// loggedRecord is one record of the block log read at Open.
type loggedRecord struct {
	index uint32
	raw   []byte
}

// readLog returns the block log's records in index order.
func (c *Chain) readLog() ([]loggedRecord, error) {
	var recs []loggedRecord
	err := c.store.Seek(storage.SeekRange{Prefix: storage.SYSBlockLog.Bytes()}, func(k, v []byte) bool {
		if len(k) == blockLogKeyLen {
			recs = append(recs, loggedRecord{index: binary.BigEndian.Uint32(k[1:]), raw: append([]byte(nil), v...)})
		}
		return true
	})
	if err != nil {
		return nil, fmt.Errorf("chain: block log: %w", err)
	}
	return recs, nil
}

// replayLog adds the logged blocks above the loaded height, in order,
// through normal verification and execution, and removes the records it
// cannot use. It runs at Open, before anything else sees the chain.
func (c *Chain) replayLog() error {
	recs, err := c.readLog()
	if err != nil || len(recs) == 0 {
		return err
	}
	var drop []uint32
	replayed := 0
	for i, r := range recs {
		h := c.height.Load()
		if r.index <= h {
			drop = append(drop, r.index) // state already persisted
			continue
		}
		if r.index != h+1 {
			c.log.Warn("block log has a gap: dropping the records after it", zap.Uint32("height", h),
				zap.Uint32("next", r.index))
			drop = appendIndexes(drop, recs[i:])
			break
		}
		if err := c.replayBlock(r); err != nil {
			if c.broken != nil || errors.Is(err, ErrStorage) {
				return err // a disk to fix, not a record to drop
			}
			c.log.Warn("logged block does not apply: dropping it and the records after it",
				zap.Uint32("index", r.index), zap.Error(err))
			drop = appendIndexes(drop, recs[i:])
			break
		}
		replayed++
	}
	for _, i := range drop {
		if err := c.store.Delete(blockLogKey(i)); err != nil {
			return fmt.Errorf("chain: block log: %w", err)
		}
	}
	if replayed != 0 {
		c.log.Info("replayed logged blocks above the persisted state", zap.Int("blocks", replayed),
			zap.Uint32("height", c.height.Load()), zap.Stringer("hash", c.CurrentBlockHash()))
	}
	return nil
}

func appendIndexes(dst []uint32, recs []loggedRecord) []uint32 {
	for _, r := range recs {
		dst = append(dst, r.index)
	}
	return dst
}

// replayBlock decodes and adds one logged block. A storage error is
// returned as is (Open fails: the operator must fix the disk first).
func (c *Chain) replayBlock(r loggedRecord) error {
	b, err := block.NewBlockFromBytesSR(r.raw, c.proto.StateRootInHeader)
	if err != nil {
		return fmt.Errorf("block %d: %w", r.index, err)
	}
	if b.Index != r.index {
		return fmt.Errorf("record %d holds block %d", r.index, b.Index)
	}
	if b.PrevHash != c.CurrentBlockHash() {
		return fmt.Errorf("block %d: %w", b.Index, ErrHeaderPrevHash)
	}
	return c.addBlock(b, addMode{verify: !c.cfg.Ledger.SkipBlockVerification, log: logPresent})
}
