package chain

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	bloomfilter "github.com/holiman/bloomfilter/v2"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

// DefaultBloomCapacity is the least number of transactions the "is it on
// chain?" filter is sized for (at a 1% false positive rate; ~1.2 MB). At
// open it is sized for twice the transactions the database holds when that
// is more, so a chain outgrowing it between restarts only sees more false
// positives (a database read each) until the next open. It was 4M (~4.8
// MB of live heap) while a fresh or small chain never came near it.
const DefaultBloomCapacity = 1 << 20

// DefaultPersistInterval is the default Config.PersistInterval (neo-go
// persists once a second too).
const DefaultPersistInterval = time.Second

// headerBatch is the number of header hashes stored per IXHeaderHashList
// record (neo-go's batch size).
const headerBatch = 2000

// Config configures a Chain.
type Config struct {
	// Protocol is the defaulted and validated protocol configuration.
	Protocol config.ProtocolConfiguration
	// Ledger holds the local chain-keeping settings.
	Ledger config.Ledger
	// Store is the database; the chain owns it (Close closes it).
	Store storage.Store
	// Log receives the chain's log (zap.NewNop when nil).
	Log *zap.Logger
	// Natives is the native contract set blocks are executed with
	// (NewNativeSet). It is the concrete set, not an interface, so that a
	// set lacking what verification, the Ledger contract's header index or
	// the generator need does not compile.
	Natives *NativeSet
	// WitnessVM verifies witnesses the fast path does not handle (optional:
	// without it such witnesses are rejected).
	WitnessVM WitnessVM
	// BloomCapacity sizes the transaction filter (DefaultBloomCapacity
	// when 0).
	BloomCapacity int
	// OnStorageChanges, when set, receives every block's contract storage
	// changes (neo-go's SaveStorageBatch, used by db restore --dump). It is
	// called from AddBlock before AddBlock returns.
	OnStorageChanges func(index uint32, changes []StorageChange)
	// PersistInterval is how often the write cache (the blocks added
	// since) is handed to the store: DefaultPersistInterval when 0, after
	// every block when negative. A crash loses at most that much.
	PersistInterval time.Duration
	// PersistSync writes to the store before AddBlock returns instead of in
	// the background while the next blocks execute (for measurements and
	// debugging; slower).
	PersistSync bool
	// Registerer receives the chain's metrics (metrics.go); nil:
	// prometheus.DefaultRegisterer, which the node's monitoring endpoint
	// serves.
	Registerer prometheus.Registerer
	// BlockLogNoSync writes the block log with a plain write instead of an
	// fsync'd one: an announced block then survives a crash of the process
	// (SIGKILL included) but not a power loss or a kernel crash. It saves
	// an fsync per block (see BenchmarkAddBlockLog), which matters only
	// when blocks come much faster than one every few milliseconds.
	BlockLogNoSync bool
	// StorageRetry is the first wait before the chain retries the writes
	// the store refused (DefaultStorageRetry when 0); it doubles up to 30 s
	// while they keep failing (see persist.go).
	StorageRetry time.Duration
	// OnStorageState, when set, is called with the storage failure when the
	// chain stops accepting blocks and transactions because the store
	// refuses writes, and with nil when it resumes. It runs under the
	// chain's block lock: it must not call into the chain.
	OnStorageState func(err error)
	// Pooled, when set, returns the transaction the node's memory pool
	// holds under hash h. Every transaction in that pool passed
	// VerifyTxConcurrent when it entered it, so AddBlock does not repeat
	// the state-independent checks (size, script, standard witness
	// signatures: the same for the same bytes at any height) of a block's
	// transaction whose pooled copy has the same witnesses; the checks
	// that depend on the state before the block still run (see
	// verifyPooled). It must be safe for concurrent use and must not call
	// into the chain.
	Pooled func(h util.Uint256) (*transaction.Transaction, bool)
	// OnFatal, when set, is called once when the chain stops for good
	// (ErrBroken: a block failed after reaching the write cache). The node
	// should then stop and exit non-zero; a restart recovers. It runs under
	// the chain's block lock: it must not call into the chain.
	OnFatal func(err error)

	// executor replaces the interop-based execution in tests of the
	// persistence machinery.
	executor executor
	// noBlockLog adds blocks without the block log (the benchmark of its
	// cost).
	noBlockLog bool
	// jumpHook, when set, runs before each state jump stage; an error
	// stops the jump there (tests of its resumption).
	jumpHook func(stage byte) error
}

// Chain is the blockchain: it verifies, executes and persists blocks and
// answers questions about them. AddBlock calls are serialised; reads are
// safe from any goroutine.
type Chain struct {
	cfg   Config
	proto *config.ProtocolConfiguration
	log   *zap.Logger
	store storage.Store
	cache *storage.MemCachedStore
	rec   *recorder
	dao   *dao.DAO // over rec: the block layers are its privates
	exec  executor
	hv    headerVerifier
	// metrics are the Prometheus collectors (metrics.go).
	metrics *metrics
	// sigs remembers successful signature checks of the witness fast path
	// (Restore fills it ahead of the blocks, see startPreverify).
	sigs  *keys.SigCache
	bloom *bloomfilter.Filter
	subs  *notifier

	// addMu serialises AddBlock; trie is only touched under it.
	addMu sync.Mutex
	trie  *mpt.Trie

	height atomic.Uint32
	// adding is the block AddBlock is adding (nil between blocks).
	adding atomic.Pointer[addingBlock]
	// tipGen counts the changes of the committed state's tip (bumped after
	// height); poolLimits caches the limits read for one generation
	// (limits.go).
	tipGen     atomic.Uint64
	poolLimits atomic.Pointer[genLimits]
	mu         struct {
		sync.RWMutex
		headers   []util.Uint256 // hash of every block by index
		tip       *block.Header
		stateRoot util.Uint256
		// ahead are the hashes of the headers above the current block
		// (headers.go), top the highest of them (nil when none).
		ahead []util.Uint256
		top   *block.Header
	}
	// sync is the state synchronisation module (statesync_module.go);
	// syncing is set while a sync point is stored: AddBlock refuses blocks.
	sync    *StateSync
	syncing atomic.Bool
	closed  atomic.Bool
	// lastPersist is when the write cache was last handed to the store
	// (under addMu).
	lastPersist time.Time
	// cacheKeys, when positive, replaces maxUnpersistedKeys (a restore's
	// RestoreOptions.CacheKeys; under addMu).
	cacheKeys int
	// stopPersist ends persistLoop (closed by stopLoop, once); loopDone is
	// closed when persistLoop has returned.
	stopPersist chan struct{}
	loopDone    chan struct{}
	stopOnce    sync.Once
	// broken is set (under addMu) when a block failed after reaching the
	// write cache; every later AddBlock returns it.
	broken error
	// logged lists (under addMu) the blocks in the write cache that have a
	// block log record; unlogged is set when a block without one (genesis,
	// Restore) was added since the cache was last written synchronously.
	logged   []uint32
	unlogged bool
	health   health
	// recent keeps the newest logged block's serialization for
	// AppendBlockBytes (recent.go).
	recent recentBlocks
}

// Open opens the chain in cfg.Store: a new store receives the genesis
// block, an existing one resumes at its last persisted block (after
// checking that it holds the same network).
func Open(cfg Config) (*Chain, error) {
	if cfg.Store == nil {
		return nil, fmt.Errorf("%w: no store", ErrBadConfig)
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.PersistInterval == 0 {
		cfg.PersistInterval = DefaultPersistInterval
	}
	if cfg.StorageRetry <= 0 {
		cfg.StorageRetry = DefaultStorageRetry
	}
	if cfg.BloomCapacity <= 0 {
		cfg.BloomCapacity = DefaultBloomCapacity
	}
	if cfg.Registerer == nil {
		cfg.Registerer = prometheus.DefaultRegisterer
	}
	m, err := newMetrics(cfg.Registerer)
	if err != nil {
		return nil, err
	}
	c := &Chain{cfg: cfg, proto: &cfg.Protocol, log: cfg.Log, store: cfg.Store, subs: newNotifier(), metrics: m}
	c.exec = cfg.executor
	if c.exec == nil {
		if cfg.Natives == nil {
			return nil, fmt.Errorf("%w: no native contracts", ErrBadConfig)
		}
		c.exec = newInteropExecutor(c)
		cfg.Natives.useHeaders(c)
	}
	c.sigs = keys.NewSigCache(sigCacheSize)
	c.hv = headerVerifier{magic: uint32(c.proto.Magic), validatorsAt: c.proto.ValidatorsCountAt,
		vm: c.defaultWitnessVM(cfg.WitnessVM), sigs: c.sigs, stateRootInHeader: c.proto.StateRootInHeader}
	bloom, err := bloomfilter.NewOptimal(uint64(cfg.BloomCapacity), 0.01)
	if err != nil {
		return nil, fmt.Errorf("chain: bloom filter: %w", err)
	}
	c.bloom = bloom
	c.cache = storage.NewMemCachedStore(cfg.Store)
	c.rec = &recorder{Store: c.cache, track: cfg.OnStorageChanges != nil}
	c.dao = dao.New(c.rec)
	c.dao.SetStateRootInHeader(c.proto.StateRootInHeader)
	if err := c.init(); err != nil {
		if c.broken != nil {
			return nil, errors.Join(err, c.cache.Abandon())
		}
		return nil, errors.Join(err, c.cache.Close())
	}
	if err := c.openStateSync(); err != nil {
		return nil, errors.Join(err, c.cache.Close())
	}
	c.mu.Lock()
	c.metrics.loaded(c.mu.tip, c.headerHeightLocked())
	c.mu.Unlock()
	c.stopPersist, c.loopDone = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(c.loopDone)
		c.persistLoop(c.stopPersist, c.loopTick())
	}()
	return c, nil
}

// trieMode is the MPT layout the ledger settings ask for.
func (c *Chain) trieMode() mpt.Mode {
	switch {
	case c.cfg.Ledger.KeepOnlyLatestState:
		return mpt.ModeLatest
	case c.cfg.Ledger.RemoveUntraceableBlocks:
		return mpt.ModeGC
	}
	return mpt.ModeAll
}

func (c *Chain) openTrie(root util.Uint256) (*mpt.Trie, error) {
	t, err := mpt.New(root, mpt.Config{Store: c.cache, Prefix: byte(storage.DataMPT), Mode: c.trieMode(),
		IsNotFound: func(err error) bool { return errors.Is(err, storage.ErrKeyNotFound) }})
	if err != nil {
		return nil, fmt.Errorf("chain: state trie: %w", err)
	}
	return t, nil
}

// init creates the genesis state or loads the persisted one.
func (c *Chain) init() error {
	g, err := GenesisBlock(c.proto)
	if err != nil {
		return err
	}
	if err := c.checkVersion(); err != nil {
		return err
	}
	_, height, err := c.dao.GetCurrentBlock()
	switch {
	case dao.IsNotFound(err):
		if c.trie, err = c.openTrie(util.Uint256{}); err != nil {
			return err
		}
		if err := c.putVersion(); err != nil {
			return err
		}
		if err := c.addBlock(g, addMode{log: logNone}); err != nil {
			return fmt.Errorf("chain: genesis: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("chain: current block: %w", err)
	}
	resumed, err := c.resumeReset()
	if err != nil {
		return err
	}
	jumped, err := c.resumeJump()
	if err != nil {
		return err
	}
	if resumed || jumped {
		if _, height, err = c.dao.GetCurrentBlock(); err != nil {
			return fmt.Errorf("chain: current block: %w", err)
		}
	}
	if err := c.load(g, height); err != nil {
		return err
	}
	return c.replayLog()
}

// load restores the in-memory state of a persisted chain at height.
func (c *Chain) load(g *block.Block, height uint32) error {
	hashes, err := c.loadHeaderHashes(height)
	if err != nil {
		return err
	}
	if hashes[0] != g.Hash() {
		return fmt.Errorf("%w: the database holds genesis %s, the configuration makes %s",
			ErrBadConfig, hashes[0].String(), g.Hash().String())
	}
	tip, err := c.dao.GetTrimmedBlock(hashes[height])
	if err != nil {
		return fmt.Errorf("chain: block %d: %w", height, err)
	}
	sr, err := getStateRoot(c.cache, height)
	if err != nil {
		return err
	}
	if c.trie, err = c.openTrie(sr.Root); err != nil {
		return err
	}
	if err := c.fillBloom(); err != nil {
		return err
	}
	ahead, top, err := c.loadAhead(hashes)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.mu.headers = hashes
	c.mu.ahead, c.mu.top = ahead, top
	c.mu.tip = &tip.Header
	c.mu.stateRoot = sr.Root
	c.height.Store(height)
	c.tipGen.Add(1)
	c.mu.Unlock()
	c.log.Info("chain loaded", zap.Uint32("height", height), zap.Stringer("hash", hashes[height]),
		zap.Stringer("stateroot", sr.Root))
	return nil
}

// loadHeaderHashes reads the stored batches of header hashes and walks back
// from the current block for the rest.
func (c *Chain) loadHeaderHashes(height uint32) ([]util.Uint256, error) {
	hashes := make([]util.Uint256, 0, height+1)
	for uint32(len(hashes))+headerBatch <= height+1 {
		batch, err := c.dao.GetHeaderHashes(uint32(len(hashes)))
		if err != nil {
			return nil, fmt.Errorf("chain: header hashes at %d: %w", len(hashes), err)
		}
		if len(batch) != headerBatch {
			return nil, fmt.Errorf("chain: header hashes at %d: %d in batch", len(hashes), len(batch))
		}
		hashes = append(hashes, batch...)
	}
	tail := make([]util.Uint256, height+1-uint32(len(hashes)))
	h, _, err := c.dao.GetCurrentBlock()
	if err != nil {
		return nil, fmt.Errorf("chain: current block: %w", err)
	}
	for i := len(tail) - 1; i >= 0; i-- {
		tail[i] = h
		b, err := c.dao.GetTrimmedBlock(h)
		if err != nil {
			return nil, fmt.Errorf("chain: block %s: %w", h.String(), err)
		}
		h = b.PrevHash
	}
	return append(hashes, tail...), nil
}

// BlockHeight returns the index of the last added block.
func (c *Chain) BlockHeight() uint32 { return c.height.Load() }

// Config returns the protocol configuration.
func (c *Chain) Config() *config.ProtocolConfiguration { return c.proto }

// stopLoop ends persistLoop and waits for it: a storage retry it is
// running (outside addMu) finishes before the store is closed.
func (c *Chain) stopLoop() {
	c.stopOnce.Do(func() { close(c.stopPersist) })
	<-c.loopDone
}

// Close waits for pending writes, writes what is cached and closes the
// store. The chain must not be used afterwards.
func (c *Chain) Close() error {
	c.stopLoop()
	c.addMu.Lock()
	defer c.addMu.Unlock()
	if c.closed.Swap(true) {
		return nil
	}
	c.subs.closeAll()
	var err error
	if c.broken == nil {
		err = errors.Join(c.persistBloom(), c.trimLog(), c.cache.Close())
	} else {
		// The live layer holds part of a block: keep it off the disk, the
		// block log replays what it held.
		err = c.cache.Abandon()
	}
	if err != nil {
		return fmt.Errorf("chain: close: %w", err)
	}
	return nil
}
