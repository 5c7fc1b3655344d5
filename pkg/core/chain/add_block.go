package chain

import (
	"time"

	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	bloomfilter "github.com/holiman/bloomfilter/v2"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// blockResult holds the application logs of one executed block.
type blockResult struct {
	onPersist, postPersist *state.AppExecResult
	txs                    []*state.AppExecResult // one per transaction, unless txsStored
	// txsStored: the transactions and their results are in the block's
	// DAO already (recorded as each ran), txs is nil.
	txsStored bool
}

// AddBlock verifies (unless SkipBlockVerification is set), executes and
// stores b, which must follow the current height. Errors name the block;
// ErrAlreadyExists means b is on chain already. b must not be modified
// afterwards. The header (witness included) is verified before anything
// runs; the transactions are verified while the block executes.
func (c *Chain) AddBlock(b *block.Block) error { return c.add(b, false) }

// add is AddBlock; with speculative set the header is verified while the
// block executes too (Restore: a forged header then costs an execution, so
// blocks from peers never take this path) and the block is not logged (it
// comes from a dump that can be restored again, see blocklog.go).
func (c *Chain) add(b *block.Block, speculative bool) error {
	c.addMu.Lock()
	defer c.addMu.Unlock()
	if c.closed.Load() {
		return ErrClosed
	}
	h := c.height.Load()
	if b.Index <= h {
		return fmt.Errorf("%w: block %d, height %d", ErrAlreadyExists, b.Index, h)
	}
	if b.Index != h+1 {
		return fmt.Errorf("%w: block %d, expected %d", ErrBlockIndex, b.Index, h+1)
	}
	if c.syncing.Load() {
		return blockError(&b.Header, ErrStateSyncActive)
	}
	if b.StateRootEnabled != c.proto.StateRootInHeader {
		// Checked even without verification, as neo-go does.
		return blockError(&b.Header, fmt.Errorf("%w: block %t, network %t",
			ErrHeaderStateRootSetting, b.StateRootEnabled, c.proto.StateRootInHeader))
	}
	mode := addMode{verify: !c.cfg.Ledger.SkipBlockVerification, speculative: speculative, log: logWrite}
	if speculative || c.cfg.noBlockLog {
		mode.log = logNone
	}
	c.adding.Store(&addingBlock{index: b.Index, hash: b.Hash()})
	defer c.adding.Store(nil)
	return c.addBlock(b, mode)
}

// addingBlock is what Adding reports.
type addingBlock struct {
	index uint32
	hash  util.Uint256
}

// Adding returns the index and hash of the block being added, if one is:
// a copy of it from a peer need not be fetched nor decoded (if adding it
// fails, the block is missing and fetched by index again).
func (c *Chain) Adding() (index uint32, hash util.Uint256, ok bool) {
	a := c.adding.Load()
	if a == nil {
		return 0, util.Uint256{}, false
	}
	return a.index, a.hash, true
}

// addMode says how addBlock treats a block.
type addMode struct {
	verify      bool    // verify the header and transactions
	speculative bool    // verify the header concurrently with execution
	log         logMode // block log record: none, write it, already there
}

func noWait() error { return nil }

// addBlock runs under addMu.
func (c *Chain) addBlock(b *block.Block, m addMode) error {
	if c.broken != nil {
		return c.broken
	}
	if err := c.StorageErr(); err != nil {
		return blockError(&b.Header, err)
	}
	if err := c.checkAheadHeader(b); err != nil {
		return blockError(&b.Header, err)
	}
	if m.log == logWrite && c.unlogged {
		// Unlogged blocks below this one must be on disk first.
		if err := c.persistCache(true); err != nil {
			c.storageFailed(err)
			return blockError(&b.Header, c.StorageErr())
		}
	}
	wait := noWait
	if m.verify {
		var err error
		if wait, err = c.startVerify(b, m.speculative); err != nil {
			return blockError(&b.Header, err)
		}
	}
	logged := noWait
	var raw []byte
	if m.log == logWrite {
		raw, logged = c.startLogWrite(b)
	}
	blockDAO := c.dao.Private()
	res, err := c.exec.execute(blockDAO, b)
	if verr := wait(); verr != nil {
		err = verr // the verdict on the block comes first
	}
	if err == nil {
		err = c.storeLedger(blockDAO, b, res)
	}
	if err == nil {
		// The block is made visible only once it is durable.
		t0 := time.Now()
		err = logged()
		c.metrics.logWait.Add(time.Since(t0).Seconds())
		if err != nil {
			c.storageFailed(err)
			return blockError(&b.Header, errors.Join(err, blockDAO.Discard()))
		}
		// The filter learns the block's hashes before its records become
		// visible in the chain's DAO, so it never answers "absent" for a
		// record a reader could find (a failure below only leaves false
		// positives).
		c.addToBloom(b)
		err = blockDAO.Persist()
	} else {
		err = errors.Join(err, blockDAO.Discard(), logged())
	}
	if err != nil {
		if m.log == logWrite {
			err = errors.Join(err, c.unlog(b.Index))
		}
		return blockError(&b.Header, err)
	}
	if m.log == logNone {
		c.unlogged = true
	} else {
		c.logged = append(c.logged, b.Index)
	}
	// From here on the write cache holds the block: a failure leaves the
	// chain unusable until reopened at the last persisted block.
	root, err := c.persistBlock(b)
	if err != nil {
		return c.breakWith(blockError(&b.Header, err))
	}
	if raw != nil {
		c.recent.add(b.Hash(), raw)
	}
	c.publish(b, res, root)
	return nil
}

// startVerify checks b against the current tip: header (index, link,
// timestamp, primary, witness against the previous NextConsensus), block
// limits and, with VerifyTransactions, every transaction. The header and
// the limits are checked before it returns (unless speculative: the header
// then runs in the background too); the transactions are verified in the
// background, on a private view of the state before the block, while the
// caller executes the block in its own layer. wait returns the first
// failure in that order.
func (c *Chain) startVerify(b *block.Block, speculative bool) (wait func() error, err error) {
	pico, err := c.exec.execFeeFactor(c.dao)
	if err != nil {
		return nil, err
	}
	c.mu.RLock()
	prev, prevRoot := c.mu.tip, c.mu.stateRoot
	c.mu.RUnlock()
	var tasks []func() error
	header := func() error { return c.hv.verifyHeader(&b.Header, prev, prevRoot, pico) }
	if speculative {
		tasks = append(tasks, header)
	} else if err := header(); err != nil {
		return nil, err
	}
	if err := checkBlockLimits(b, c.proto.MaxBlockSize, c.proto.MaxTransactionsPerBlock); err != nil {
		return nil, err
	}
	// A chain without natives (the persistence tests' scripted executor)
	// has no state to verify transactions against.
	if c.proto.VerifyTransactions && c.cfg.Natives != nil && len(b.Transactions) != 0 {
		tasks = append(tasks, func() error { return c.verifyTxsOn(c.dao.Private(), b) })
	}
	return runConcurrently(tasks), nil
}

// verifyTxsOn is verifyBlockTxs on the state d shows (a private view, so
// it can run beside the block's execution and the header check).
func (c *Chain) verifyTxsOn(d *dao.DAO, b *block.Block) (err error) {
	defer func() { err = errors.Join(err, d.Discard()) }()
	tc, err := c.newTxCheck(d)
	if err != nil {
		return err
	}
	pooled := 0
	defer func() { c.metrics.pooledTxs.Add(float64(pooled)) }()
	for _, tx := range b.Transactions {
		check := tc.verify
		if c.inPool(tx) {
			check = tc.verifyPooled
			pooled++
		}
		if err := check(tx); err != nil {
			return fmt.Errorf("transaction %s: %w", tx.Hash().String(), err)
		}
	}
	return nil
}

// runConcurrently starts each task in its own goroutine; the returned
// function waits for all and returns the first task's error, in task
// order.
func runConcurrently(tasks []func() error) func() error {
	errs := make([]error, len(tasks))
	var wg sync.WaitGroup
	for i, task := range tasks {
		wg.Go(func() { errs[i] = task() })
	}
	return func() error {
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				return err
			}
		}
		return nil
	}
}

// storeLedger writes the block, its transactions and their logs into the
// block layer.
func (c *Chain) storeLedger(d *dao.DAO, b *block.Block, res *blockResult) error {
	if err := d.StoreAsBlock(b, res.onPersist, res.postPersist); err != nil {
		return err
	}
	if !res.txsStored {
		for i, tx := range b.Transactions {
			if err := d.StoreAsTransaction(tx, b.Index, res.txs[i]); err != nil {
				return err
			}
		}
	}
	if err := d.StoreAsCurrentBlock(b); err != nil {
		return err
	}
	if !c.headersAbove() {
		if err := d.PutCurrentHeader(b.Hash(), b.Index); err != nil {
			return err
		}
	}
	if (b.Index+1)%headerBatch == 0 {
		c.mu.RLock()
		hashes := append(make([]util.Uint256, 0, headerBatch), c.mu.headers[b.Index+1-headerBatch:]...)
		c.mu.RUnlock()
		hashes = append(hashes, b.Hash())
		if err := d.StoreHeaderHashes(hashes, b.Index+1-headerBatch); err != nil {
			return err
		}
	}
	return nil
}

// persistBlock applies the block's storage changes to the state trie,
// stores the state root and hands the block's cache layer to the
// background writer.
func (c *Chain) persistBlock(b *block.Block) (util.Uint256, error) {
	puts, dels, old := c.rec.take()
	batch, err := mpt.NewBatch(trieChanges(puts, dels))
	if err != nil {
		return util.Uint256{}, err
	}
	if err := c.trie.PutBatch(batch); err != nil {
		return util.Uint256{}, err
	}
	if err := c.trie.Flush(b.Index); err != nil {
		return util.Uint256{}, err
	}
	root := c.trie.StateRoot()
	if err := putStateRoot(c.cache, &StateRoot{Index: b.Index, Root: root}); err != nil {
		return util.Uint256{}, err
	}
	if c.cfg.OnStorageChanges != nil {
		c.cfg.OnStorageChanges(b.Index, storageChanges(puts, dels, old))
	}
	if err := c.maybePersist(b.Index); err != nil {
		// The block is safe in the block log (or comes from a dump):
		// announce it, and stop taking more until the store writes again.
		c.storageFailed(fmt.Errorf("persist: %w", err))
	}
	c.mu.Lock()
	prev := c.mu.tip // nil before genesis
	c.blockAddedLocked(b.Hash())
	c.metrics.headers.Set(float64(c.headerHeightLocked()))
	c.mu.tip = &b.Header
	c.mu.stateRoot = root
	c.mu.Unlock()
	c.height.Store(b.Index)
	c.tipGen.Add(1)
	c.metrics.blockAdded(b, prev)
	c.metrics.cached.Set(float64(c.cache.Len()))
	if b.Index%1000 == 0 {
		c.trie.Collapse(10)
	}
	c.log.Debug("block added", zap.Uint32("index", b.Index), zap.Int("txs", len(b.Transactions)),
		zap.Stringer("stateroot", root))
	return root, nil
}

func bloomKey(h util.Uint256) uint64 { return binary.LittleEndian.Uint64(h[:8]) }

// addToBloom adds b's hashes to the chain's filter.
func (c *Chain) addToBloom(b *block.Block) { addBlockHashes(c.bloom, b) }

// addBlockHashes adds the hashes b's records are stored under: its
// transactions and the conflict records their Conflicts attributes write.
func addBlockHashes(f *bloomfilter.Filter, b *block.Block) {
	for _, tx := range b.Transactions {
		f.AddHash(bloomKey(tx.Hash()))
		for _, a := range tx.GetAttributes(transaction.AttrConflicts) {
			if cf, ok := a.Value.(*transaction.Conflicts); ok {
				f.AddHash(bloomKey(cf.Hash))
			}
		}
	}
}
