package chain

import (
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/storage"
	"go.uber.org/zap"
)

// Persistence of the write cache and what happens when the store refuses
// writes.
//
// The write cache goes to the store in the background (persistCache) once
// PersistInterval has passed; the blocks it holds are safe meanwhile in the
// block log (blocklog.go). When a write fails (a full disk, a read-only
// remount, an I/O error), the chain enters the storage-failure state:
//
//   - it says so once at ERROR, with what the operator should do;
//   - AddBlock and VerifyTxConcurrent return ErrStorage at once, so no
//     block or transaction it could not keep is accepted; every read keeps
//     working (the unwritten state stays in memory);
//   - persistLoop retries, with a back-off from StorageRetry doubling up
//     to maxStorageRetry: it retries the failed background write, waits for
//     it and writes a probe record durably; once all succeed the chain
//     leaves the state by itself (logged at INFO) and accepts blocks again.
//
// Nothing announced is lost on the way: a block is announced only once its
// log record is durable, and a crash or a stop during the failure reopens
// at the last persisted state and replays the log.
//
// Where resuming is unsafe, because a block failed after it reached the
// write cache (which then holds part of a block), the chain stops for good
// (ErrBroken), calls Config.OnFatal and, at Close, writes nothing of the
// live cache layer: the node should exit non-zero; a restart replays the
// logged blocks on top of the persisted state.

// DefaultStorageRetry is the default Config.StorageRetry.
const DefaultStorageRetry = time.Second

// maxStorageRetry bounds the back-off between write attempts of a chain in
// the storage-failure state.
const maxStorageRetry = 30 * time.Second

// maxUnpersistedKeys bounds the keys the write cache collects before it
// is handed to the store, whatever the interval.
const maxUnpersistedKeys = 1 << 18

// probeKey is written durably and deleted to see whether the store takes
// writes again (a block log key is one byte longer than the prefix plus
// an index, so replay never reads it).
var probeKey = append(storage.SYSBlockLog.Bytes(), "probe"...)

// health is the storage-failure state.
type health struct {
	failed atomic.Pointer[error] // nil while writes succeed
	// Under addMu:
	backoff  time.Duration
	nextTry  time.Time
	attempts int
}

// StorageErr returns the storage failure that stops the chain from
// accepting blocks and transactions (wrapping ErrStorage and the store's
// error; storage.IsNoSpace tells a full disk), or nil while writes succeed.
// Safe from any goroutine; the node shows it (RPC, health checks).
func (c *Chain) StorageErr() error {
	if p := c.health.failed.Load(); p != nil {
		return *p
	}
	return nil
}

// storageAdvice tells the operator what to do about err.
func storageAdvice(err error) string {
	if storage.IsNoSpace(err) {
		return "the disk holding the database is full: free space on it; meanwhile blocks and transactions are " +
			"refused and reads are served, and the chain resumes by itself once writes succeed"
	}
	return "the database refuses writes: check the disk, its filesystem and permissions; meanwhile blocks and " +
		"transactions are refused and reads are served; the chain resumes by itself once writes succeed, " +
		"otherwise stop the node (announced blocks are kept in the block log) and fix the store"
}

// storageFailed enters the storage-failure state. REQUIRES: addMu held.
func (c *Chain) storageFailed(err error) {
	if c.StorageErr() != nil {
		return
	}
	if !errors.Is(err, ErrStorage) {
		err = fmt.Errorf("%w: %w", ErrStorage, err)
	}
	c.health.failed.Store(&err)
	c.health.backoff = c.cfg.StorageRetry
	c.health.nextTry = time.Now().Add(c.health.backoff)
	c.health.attempts = 0
	c.log.Error("storage write failed: the chain stops accepting blocks and transactions",
		zap.Uint32("height", c.height.Load()), zap.Error(err), zap.String("action", storageAdvice(err)))
	c.metrics.storageState(err)
	if c.cfg.OnStorageState != nil {
		c.cfg.OnStorageState(err)
	}
}

// tryResume retries the writes of a chain in the storage-failure state
// and leaves that state when they succeed. REQUIRES: addMu held.
func (c *Chain) tryResume() {
	err := c.persistCache(false)
	if err == nil {
		err = c.cache.WaitPersist()
	}
	if err == nil {
		err = storage.PutDurable(c.store, probeKey, []byte{1})
	}
	if err == nil {
		err = c.store.Delete(probeKey)
	}
	c.health.attempts++
	if err != nil {
		c.health.backoff = min(2*c.health.backoff, maxStorageRetry)
		c.health.nextTry = time.Now().Add(c.health.backoff)
		c.log.Error("storage still refuses writes", zap.Int("attempts", c.health.attempts),
			zap.Duration("retryIn", c.health.backoff), zap.Error(err), zap.String("action", storageAdvice(err)))
		return
	}
	c.health.failed.Store(nil)
	c.log.Info("storage writable again: the chain accepts blocks and transactions",
		zap.Int("attempts", c.health.attempts), zap.Uint32("height", c.height.Load()))
	c.metrics.storageState(nil)
	if c.cfg.OnStorageState != nil {
		c.cfg.OnStorageState(nil)
	}
}

// retryDue reports whether the next write attempt of a chain in the
// storage-failure state is due.
func (c *Chain) retryDue() bool {
	c.addMu.Lock()
	defer c.addMu.Unlock()
	return !time.Now().Before(c.health.nextTry)
}

// recoverStore asks a store that keeps failing writes after a failure
// (storage.WriteRecoverer: LevelDB) to take writes again, before the
// writes are retried. It runs without the chain's lock: it may wait until
// the disk has space again, or until Close closes the store.
func (c *Chain) recoverStore() {
	r, ok := c.store.(storage.WriteRecoverer)
	if !ok || c.closed.Load() {
		return
	}
	if err := r.RecoverWrites(); err != nil {
		c.log.Debug("store not writable yet", zap.Error(err))
	}
}

// breakWith stops the chain for good after a failure that left part of a
// block in the write cache. REQUIRES: addMu held.
func (c *Chain) breakWith(err error) error {
	c.broken = fmt.Errorf("%w: %w", ErrBroken, err)
	c.log.Error("the chain cannot continue: a block failed after reaching the write cache", zap.Error(c.broken),
		zap.String("action", "restart the node: it reopens at the last persisted state and replays the logged blocks"))
	if c.cfg.OnFatal != nil {
		c.cfg.OnFatal(c.broken)
	}
	return c.broken
}

// maybePersist hands the write cache (every block since the last time, one
// atomic change set) to the store once PersistInterval has passed or it
// holds maxUnpersistedKeys (a restore's RestoreOptions.CacheKeys): in the background while the next blocks run,
// or before returning with PersistSync. Blocks still in the cache are read
// from memory; a crash loses only what the block log can replay.
// REQUIRES: addMu held.
func (c *Chain) maybePersist(upTo uint32) error {
	now := time.Now()
	bound := maxUnpersistedKeys
	if c.cacheKeys > 0 {
		bound = c.cacheKeys
	}
	if c.cfg.PersistInterval >= 0 && now.Sub(c.lastPersist) < c.cfg.PersistInterval &&
		c.cache.Len() < bound {
		return nil
	}
	c.lastPersist = now
	if err := c.persistCache(c.cfg.PersistSync); err != nil {
		return err
	}
	c.metrics.persisted.Set(float64(upTo))
	c.metrics.cached.Set(float64(c.cache.Len()))
	return nil
}

// persistCache queues the block log trim and persists the write cache, in
// the background or (sync) before returning. REQUIRES: addMu held.
func (c *Chain) persistCache(sync bool) error {
	if err := c.trimLog(); err != nil {
		return err
	}
	if sync {
		if _, err := c.cache.PersistSync(); err != nil {
			return err
		}
		c.unlogged = false
		return nil
	}
	t0 := time.Now()
	_, err := c.cache.Persist()
	c.metrics.queueWait.Add(time.Since(t0).Seconds())
	return err
}

// persistLoop hands the write cache to the store when the last blocks
// have waited PersistInterval without a next block to do it (slow blocks
// stay in memory at most that long, as in neo-go), and retries the writes
// of a chain in the storage-failure state, checking every tick. It ends
// when stop is closed.
func (c *Chain) persistLoop(stop <-chan struct{}, tick time.Duration) {
	t := time.NewTicker(tick)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		if c.StorageErr() != nil && c.retryDue() {
			c.recoverStore()
		}
		c.addMu.Lock()
		switch {
		case c.closed.Load() || c.broken != nil:
		case c.StorageErr() != nil:
			if !time.Now().Before(c.health.nextTry) {
				c.tryResume()
			}
		case c.cfg.PersistInterval > 0 && c.cache.Len() != 0:
			if err := c.maybePersist(c.height.Load()); err != nil {
				c.storageFailed(fmt.Errorf("persist: %w", err))
			}
		}
		c.addMu.Unlock()
		// The background write may have finished since the last block.
		c.metrics.cached.Set(float64(c.cache.Len()))
	}
}

// loopTick is persistLoop's period: the shorter of PersistInterval (when
// positive) and StorageRetry.
func (c *Chain) loopTick() time.Duration {
	if c.cfg.PersistInterval > 0 && c.cfg.PersistInterval < c.cfg.StorageRetry {
		return c.cfg.PersistInterval
	}
	return c.cfg.StorageRetry
}
