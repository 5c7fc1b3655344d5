package chain

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// The state jump ends a state synchronisation once the trie at the sync
// point P and the blocks of the window below it are stored. It runs in
// two recorded stages (SYSStateChangeStage = stage ‖ hash of block P, no
// reset bit; SYSStateSyncPoint = P), each safe to run again, so an
// interrupted jump is completed at the next open:
//
//  1. storage: the state root record of P is written with the stage
//     record; contract storage is made equal to the trie leaves at that
//     root (resetStorage: a page at a time, each persisted);
//  2. finish: block P becomes the current block (the header pointer stays
//     on the highest header), the transaction filter record is dropped (it
//     is rebuilt from the stored transactions at load), the sync records
//     are deleted, all in one change set.
//
// The in-memory state is then loaded at P as at open (reload) and Policy's
// key filters are reset (its storage changed without executing blocks).
const (
	jumpStageStorage = 1
	jumpStageFinish  = 2
)

// jump makes the state jump to the sync point. REQUIRES: s.mu held.
func (s *StateSync) jump() error {
	c := s.c
	c.addMu.Lock()
	defer c.addMu.Unlock()
	if err := c.writable(); err != nil {
		return err
	}
	hash, ok := c.HeaderHashAt(s.point)
	if !ok {
		return fmt.Errorf("%w: no header at the sync point %d", ErrStateSync, s.point)
	}
	s.log.Info("jumping to the state sync point", zap.Uint32("sync_point", s.point), zap.Stringer("hash", hash),
		zap.Stringer("stateroot", s.root))
	if err := c.putStateRootRecord(s.point, s.root); err != nil {
		return err
	}
	err := c.runJump(s.point, hash, s.root, jumpStageStorage)
	if err == nil {
		err = c.jumped(s.point)
	}
	if err != nil {
		_ = c.breakWith(err) // err is returned, c.broken wraps it
		return err
	}
	s.stage = syncOff
	s.log.Info("state jump done", zap.Uint32("height", s.point), zap.Uint32("header_height", c.HeaderHeight()))
	return nil
}

// putStateRootRecord writes the state root record of the sync point.
func (c *Chain) putStateRootRecord(p uint32, root util.Uint256) error {
	if err := putStateRoot(c.cache, &StateRoot{Index: p, Root: root}); err != nil {
		return fmt.Errorf("%w: %w", ErrStateSync, err)
	}
	return nil
}

// runJump runs the jump to block p (hash) from stage on. REQUIRES: addMu
// held (or the chain not yet open).
func (c *Chain) runJump(p uint32, hash, root util.Uint256, stage byte) error {
	if stage < jumpStageStorage || stage > jumpStageFinish {
		return fmt.Errorf("%w: unknown jump stage %d", ErrStateSync, stage)
	}
	steps := []func() error{
		func() error { return c.resetStorage(root) },
		func() error { return c.jumpFinish(hash, p) },
	}
	for st := stage; st <= jumpStageFinish; st++ {
		if err := c.cache.Put(resetStageKey, append([]byte{st}, hash[:]...)); err != nil {
			return err
		}
		if _, err := c.cache.PersistSync(); err != nil {
			return fmt.Errorf("%w: jump stage %d: %w", ErrStateSync, st, err)
		}
		if c.cfg.jumpHook != nil {
			if err := c.cfg.jumpHook(st); err != nil {
				return err
			}
		}
		if err := steps[st-1](); err != nil {
			return fmt.Errorf("%w: jump stage %d: %w", ErrStateSync, st, err)
		}
	}
	return nil
}

// jumpFinish points the chain at block p and drops the sync records.
func (c *Chain) jumpFinish(hash util.Uint256, p uint32) error {
	topHash, top, err := c.dao.GetCurrentHeader()
	if err != nil {
		return fmt.Errorf("current header: %w", err)
	}
	if err := c.pointTo(hash); err != nil {
		return err
	}
	if top > p {
		if err := c.dao.PutCurrentHeader(topHash, top); err != nil {
			return err
		}
	}
	for _, k := range [][]byte{bloomRecordKey, syncPointKey, syncBlocksKey, resetStageKey} {
		if err := c.cache.Delete(k); err != nil {
			return err
		}
	}
	_, err = c.cache.PersistSync()
	return err
}

// jumped loads the chain at the sync point p after the jump.
func (c *Chain) jumped(p uint32) error {
	c.syncing.Store(false)
	if c.cfg.Natives != nil {
		c.cfg.Natives.Core.Policy.ResetCaches()
	}
	if err := c.reload(p); err != nil {
		return err
	}
	c.metrics.loaded(&block.Header{Index: p}, c.HeaderHeight())
	return nil
}

// resumeJump completes a state jump found unfinished at open; it reports
// whether there was one.
func (c *Chain) resumeJump() (bool, error) {
	stage, err := c.cache.Get(resetStageKey)
	if errors.Is(err, storage.ErrKeyNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("%w: jump stage: %w", ErrStateSync, err)
	}
	if len(stage) != 1+util.Uint256Size || stage[0]&resetBit != 0 {
		return false, fmt.Errorf("%w: unknown state change record %x", ErrStateSync, stage)
	}
	p, ok, err := c.syncPointStored()
	if err != nil {
		return false, err
	}
	if !ok {
		return false, fmt.Errorf("%w: a jump stage without a sync point", ErrStateSync)
	}
	sr, err := getStateRoot(c.cache, p)
	if err != nil {
		return false, fmt.Errorf("%w: %w", ErrStateSync, err)
	}
	var hash util.Uint256
	copy(hash[:], stage[1:])
	c.log.Warn("completing an interrupted state jump", zap.Uint32("sync_point", p), zap.Uint8("stage", stage[0]))
	if err := c.runJump(p, hash, sr.Root, stage[0]); err != nil {
		return false, err
	}
	if c.cfg.Natives != nil {
		c.cfg.Natives.Core.Policy.ResetCaches()
	}
	return true, nil
}
