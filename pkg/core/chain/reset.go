package chain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// State reset (`db reset --height N`, neo-go's Blockchain.Reset): the chain
// is rolled back to the state right after block N. What is removed and
// rebuilt:
//
//   - blocks N+1.. with their transactions, execution results and the
//     conflict records they wrote;
//   - contract storage: made equal to the leaves of the state trie at
//     block N (the trie keeps every root unless KeepOnlyLatestState);
//   - state root records above N, header hash batches reaching above N,
//     the current block and header pointers, the persisted transaction
//     filter (rebuilt at the next load).
//
// Trie nodes written after block N stay (as in neo-go): they are
// unreachable from the new root and harmless.
//
// A reset is resumable: it writes its target height (SYSStateSyncPoint)
// and stage (SYSStateChangeStage, 0x80 | stage) first, and every batch it
// persists keeps the database consistent with that record: blocks are
// removed from the top down, the current block pointer following them;
// the storage pass computes the difference to the trie anew, so running
// it twice changes nothing more. Opening a database with an unfinished
// reset completes it before anything else.
const (
	resetBit            = 0x80
	resetStageBlocks    = 1
	resetStageStorage   = 2
	resetStageFinish    = 3
	resetBlocksPerBatch = 1000
	resetKeysPerBatch   = 1 << 16
)

// ErrReset is a state reset the chain refuses.
var ErrReset = errors.New("chain: state reset")

var (
	resetStageKey  = storage.SYSStateChangeStage.Bytes()
	resetHeightKey = storage.SYSStateSyncPoint.Bytes()
)

// Reset rolls the chain back to the state right after block height. It
// must not run while blocks are being added; the chain is usable at the
// new height afterwards.
func (c *Chain) Reset(height uint32) error {
	c.addMu.Lock()
	defer c.addMu.Unlock()
	if c.closed.Load() {
		return fmt.Errorf("%w: chain closed", ErrReset)
	}
	if c.broken != nil {
		return c.broken
	}
	cur := c.BlockHeight()
	if err := c.checkReset(height, cur); err != nil {
		return err
	}
	if height == cur {
		c.log.Info("chain already at the reset height", zap.Uint32("height", height))
		return nil
	}
	if err := c.persistCache(true); err != nil {
		return fmt.Errorf("%w: %w", ErrReset, err)
	}
	c.recent.clear() // the blocks above height go
	err := c.runReset(height, resetStageBlocks)
	if err == nil {
		err = c.reload(height)
	}
	if err != nil {
		_ = c.breakWith(err) // err is returned, c.broken wraps it
		return err
	}
	return nil
}

// checkReset refuses a reset the stored state cannot serve.
func (c *Chain) checkReset(height, cur uint32) error {
	switch {
	case height > cur:
		return fmt.Errorf("%w: height %d is above the current block %d", ErrReset, height, cur)
	case c.cfg.Ledger.KeepOnlyLatestState:
		return fmt.Errorf("%w: KeepOnlyLatestState is on, the state of block %d is gone", ErrReset, height)
	case c.cfg.Ledger.RemoveUntraceableBlocks && cur >= c.proto.MaxTraceableBlocks:
		return fmt.Errorf("%w: RemoveUntraceableBlocks is on and blocks before %d are removed", ErrReset,
			cur-c.proto.MaxTraceableBlocks+1)
	}
	return nil
}

// resumeReset completes an unfinished reset found at open; it reports
// whether there was one.
func (c *Chain) resumeReset() (bool, error) {
	stage, err := c.cache.Get(resetStageKey)
	if errors.Is(err, storage.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%w: stage: %w", ErrReset, err)
	}
	if len(stage) != 0 && stage[0]&resetBit == 0 {
		return false, nil // a state jump (statesync_jump.go)
	}
	h, err := c.cache.Get(resetHeightKey)
	if err != nil {
		return false, fmt.Errorf("%w: height: %w", ErrReset, err)
	}
	if len(stage) != 1 || len(h) != 4 {
		return false, fmt.Errorf("%w: unknown state change record %x / %x", ErrReset, stage, h)
	}
	height := binary.LittleEndian.Uint32(h)
	c.log.Warn("completing an interrupted state reset", zap.Uint32("height", height),
		zap.Uint8("stage", stage[0]&^resetBit))
	return true, c.runReset(height, stage[0]&^resetBit)
}

// runReset runs the reset to height from stage on.
func (c *Chain) runReset(height uint32, stage byte) error {
	if stage < resetStageBlocks || stage > resetStageFinish {
		return fmt.Errorf("%w: unknown stage %d", ErrReset, stage)
	}
	_, cur, err := c.dao.GetCurrentBlock()
	if err != nil {
		return fmt.Errorf("%w: current block: %w", ErrReset, err)
	}
	if cur < height {
		return fmt.Errorf("%w: the database ends at %d, below the reset height %d", ErrReset, cur, height)
	}
	hashes, err := c.loadHeaderHashes(cur)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrReset, err)
	}
	sr, err := getStateRoot(c.cache, height)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrReset, err)
	}
	c.log.Info("resetting the chain state", zap.Uint32("from", cur), zap.Uint32("to", height),
		zap.Stringer("stateroot", sr.Root))
	steps := []func() error{
		func() error { return c.resetBlocks(hashes, height, cur) },
		func() error { return c.resetStorage(sr.Root) },
		func() error { return c.resetFinish(hashes[height], height) },
	}
	for s := stage; s <= resetStageFinish; s++ {
		if err := c.putResetStage(height, s); err != nil {
			return err
		}
		if err := steps[s-1](); err != nil {
			return fmt.Errorf("%w: stage %d: %w", ErrReset, s, err)
		}
	}
	return nil
}

// putResetStage records the reset in progress and persists it.
func (c *Chain) putResetStage(height uint32, stage byte) error {
	if err := c.cache.Put(resetHeightKey, binary.LittleEndian.AppendUint32(nil, height)); err != nil {
		return err
	}
	if err := c.cache.Put(resetStageKey, []byte{resetBit | stage}); err != nil {
		return err
	}
	_, err := c.cache.PersistSync()
	return err
}

// resetBlocks removes blocks cur..height+1, top down, moving the current
// block pointer below each persisted batch.
func (c *Chain) resetBlocks(hashes []util.Uint256, height, cur uint32) error {
	for i := cur; i > height; i-- {
		if _, err := c.dao.DeleteBlock(hashes[i]); err != nil {
			return fmt.Errorf("block %d: %w", i, err)
		}
		if (cur-i+1)%resetBlocksPerBatch != 0 && i-1 != height {
			continue
		}
		if err := c.pointTo(hashes[i-1]); err != nil {
			return err
		}
		if _, err := c.cache.PersistSync(); err != nil {
			return err
		}
		c.log.Info("blocks removed", zap.Uint32("down_to", i))
	}
	return nil
}

// pointTo makes block h the current block and header.
func (c *Chain) pointTo(h util.Uint256) error {
	t, err := c.dao.GetTrimmedBlock(h)
	if err != nil {
		return err
	}
	if err := c.dao.StoreAsCurrentBlock(&block.Block{Header: t.Header}); err != nil {
		return err
	}
	return c.dao.PutCurrentHeader(h, t.Index)
}

// resetStorage makes contract storage (the state trie's part of it) equal
// to the trie at root, a page of trie leaves at a time: each page is
// compared with the stored items in its key range and the differences are
// written and persisted.
func (c *Chain) resetStorage(root util.Uint256) error {
	var from []byte // the last trie key handled; nil before the first page
	changed := 0
	for {
		t, err := c.openTrie(root) // fresh per page: the walk keeps what it reads
		if err != nil {
			return err
		}
		page, err := t.Find(nil, from, resetKeysPerBatch)
		if err != nil {
			return fmt.Errorf("state trie: %w", err)
		}
		last := len(page) < resetKeysPerBatch
		var upTo []byte // the page's last key; nil for no bound on the last page
		if !last {
			upTo = page[len(page)-1].Key
		}
		stored, err := c.storedRange(from, upTo)
		if err != nil {
			return err
		}
		n, err := c.applyStorageDiff(stored, page)
		if err != nil {
			return err
		}
		changed += n
		if _, err := c.cache.PersistSync(); err != nil {
			return err
		}
		if last {
			c.log.Info("contract storage reset", zap.Int("items_changed", changed))
			return nil
		}
		from = upTo
	}
}

// kvPair is a stored item by its trie key.
type kvPair struct{ key, value []byte }

// storedRange returns the stored trie items with key in (from, upTo], in
// key order (from nil: no lower bound; upTo nil: no upper bound).
func (c *Chain) storedRange(from, upTo []byte) ([]kvPair, error) {
	var out []kvPair
	err := c.cache.Seek(storage.SeekRange{Prefix: storage.STStorage.Bytes(), Start: from}, func(k, v []byte) bool {
		tk := k[1:]
		if from != nil && bytes.Equal(tk, from) {
			return true
		}
		if upTo != nil && bytes.Compare(tk, upTo) > 0 {
			return false
		}
		if isTrieKey(string(k)) {
			out = append(out, kvPair{key: bytes.Clone(tk), value: bytes.Clone(v)})
		}
		return true
	})
	return out, err
}

// applyStorageDiff writes what turns stored into want (both sorted by
// key) and returns the number of items written or deleted.
func (c *Chain) applyStorageDiff(stored []kvPair, want []mpt.KeyValue) (int, error) {
	n := 0
	key := func(k []byte) []byte { return append(storage.STStorage.Bytes(), k...) }
	i, j := 0, 0
	for i < len(stored) || j < len(want) {
		var cmp int
		switch {
		case i == len(stored):
			cmp = 1
		case j == len(want):
			cmp = -1
		default:
			cmp = bytes.Compare(stored[i].key, want[j].Key)
		}
		var err error
		switch {
		case cmp < 0:
			err = c.cache.Delete(key(stored[i].key))
			i++
			n++
		case cmp > 0:
			err = c.cache.Put(key(want[j].Key), want[j].Value)
			j++
			n++
		default:
			if !bytes.Equal(stored[i].value, want[j].Value) {
				err = c.cache.Put(key(want[j].Key), want[j].Value)
				n++
			}
			i++
			j++
		}
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// resetFinish drops the records that reach above height and the reset
// record itself, in one changeset.
func (c *Chain) resetFinish(hash util.Uint256, height uint32) error {
	var stale [][]byte
	aux := []byte{byte(storage.DataMPTAux)}
	err := c.cache.Seek(storage.SeekRange{Prefix: aux}, func(k, _ []byte) bool {
		if len(k) == 5 && binary.BigEndian.Uint32(k[1:]) > height {
			stale = append(stale, bytes.Clone(k))
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, k := range stale {
		if err := c.cache.Delete(k); err != nil {
			return err
		}
	}
	sr, err := getStateRoot(c.cache, height)
	if err != nil {
		return err
	}
	if err := putStateRoot(c.cache, sr); err != nil {
		return err
	}
	stale = stale[:0]
	err = c.cache.Seek(storage.SeekRange{Prefix: storage.IXHeaderHashList.Bytes()}, func(k, _ []byte) bool {
		if len(k) == 5 && !keepHeaderBatch(binary.BigEndian.Uint32(k[1:]), height) {
			stale = append(stale, bytes.Clone(k))
		}
		return true
	})
	if err != nil {
		return err
	}
	for _, k := range append(stale, bloomRecordKey, resetStageKey, resetHeightKey) {
		if err := c.cache.Delete(k); err != nil {
			return err
		}
	}
	if err := c.pointTo(hash); err != nil {
		return err
	}
	_, err = c.cache.PersistSync()
	return err
}

// keepHeaderBatch says whether the header hash batch stored at start stays
// when the chain ends at height: batches are written when full, so only
// those whose last block is at or below height.
func keepHeaderBatch(start, height uint32) bool {
	return uint64(start)+headerBatch <= uint64(height)+1
}

// reload replaces the in-memory state with the persisted chain at height.
// The recorder's clean cache is dropped: the reset wrote contract storage
// below it.
func (c *Chain) reload(height uint32) error {
	c.rec.updateClean(nil, nil, true)
	c.recent.clear()
	g, err := GenesisBlock(c.proto)
	if err != nil {
		return err
	}
	return c.load(g, height)
}
