package chain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// State synchronisation (P2PStateExchangeExtensions, neo-go's statesync
// module): a node that joins late takes the state at a sync point P from
// its peers instead of executing every block. P is the highest multiple of
// StateSyncInterval such that the peers' height is at least P (and, as
// neo-go decides, P is at least two intervals above the local height, or
// the node just executes blocks). In order, the node
//
//  1. gets the headers up to P+1 (AddHeaders): header P+1 carries the
//     state root after block P (StateRootInHeader is required);
//  2. gets the state trie of that root node by node (UnknownMPTNodes,
//     AddMPTNodes), from the peers' getmptdata answers;
//  3. stores, without executing them, the blocks of the traceable window
//     below P (BlockRange, AddBlock): P-MaxTraceableBlocks+1..P, where
//     MaxTraceableBlocks is the value in the state at P;
//  4. jumps: contract storage is rebuilt from the trie leaves, block P
//     becomes the current block, the native caches are reloaded; blocks
//     from P+1 on are then added by Chain.AddBlock as usual.
//
// As in neo-go, the module is active only with RemoveUntraceableBlocks
// too (a node without it keeps every block and executes them all). Every
// step is resumable: the sync point (SYSStateSyncPoint), the last block
// stored (SYSStateSyncCurrentBlockHeight) and, during the jump, its stage
// (SYSStateChangeStage without the reset bit) are persisted; headers and
// trie nodes are found again in the store (mpt.Restorer walks the stored
// part of the trie). While a sync point is stored Chain.AddBlock refuses
// blocks (ErrStateSyncActive).

// Errors of the state synchronisation.
var (
	// ErrStateSync is a state synchronisation that cannot start or go on
	// (an outdated sync point in the database, data that was not asked).
	ErrStateSync = errors.New("chain: state sync")
	// ErrStateSyncActive is a block offered to Chain.AddBlock while a state
	// synchronisation is under way (blocks go to StateSync.AddBlock).
	ErrStateSyncActive = errors.New("chain: state sync in progress")
)

// syncStage is where a state synchronisation is.
type syncStage uint8

const (
	// syncOff: disabled by the configuration, or no synchronisation needed.
	syncOff syncStage = iota
	// syncNone: enabled, Init not called yet.
	syncNone
	syncHeaders // waiting for the headers up to P+1
	syncMPT     // waiting for trie nodes
	syncBlocks  // waiting for the blocks of the window below P
)

var (
	syncPointKey  = storage.SYSStateSyncPoint.Bytes()
	syncBlocksKey = storage.SYSStateSyncCurrentBlockHeight.Bytes()
)

// StateSync is the chain's state synchronisation module (Chain.StateSync).
// Its methods are safe for concurrent use; AddHeaders, AddMPTNodes and
// AddBlock are serialised with the chain's block additions.
type StateSync struct {
	c   *Chain
	log *zap.Logger

	// mu guards the fields below. Lock order: mu, then the chain's addMu.
	mu       sync.Mutex
	stage    syncStage
	point    uint32        // P
	root     util.Uint256  // state root after block P
	restorer *mpt.Restorer // syncMPT only
	stored   uint32        // last block stored below P (syncBlocks)
}

// StateSync returns the chain's state synchronisation module.
func (c *Chain) StateSync() *StateSync { return c.sync }

// newStateSync makes the module of an opened chain.
func newStateSync(c *Chain) *StateSync {
	s := &StateSync{c: c, log: c.log.With(zap.String("module", "statesync")), stage: syncOff}
	if c.proto.P2PStateExchangeExtensions && c.cfg.Ledger.RemoveUntraceableBlocks {
		s.stage = syncNone
	}
	return s
}

// openStateSync makes the module at open and refuses a configuration
// state synchronisation cannot run with.
func (c *Chain) openStateSync() error {
	if c.proto.P2PStateExchangeExtensions && !c.proto.StateRootInHeader {
		return fmt.Errorf("%w: P2PStateExchangeExtensions requires StateRootInHeader", ErrBadConfig)
	}
	_, ok, err := c.syncPointStored()
	if err != nil {
		return err
	}
	c.sync = newStateSync(c)
	if ok && c.sync.stage == syncOff {
		return fmt.Errorf("%w: the database holds an unfinished state sync; it needs P2PStateExchangeExtensions "+
			"and RemoveUntraceableBlocks (or drop the database)", ErrStateSync)
	}
	c.syncing.Store(ok)
	return nil
}

// syncPointStored returns the sync point of an unfinished synchronisation.
func (c *Chain) syncPointStored() (uint32, bool, error) {
	v, err := c.cache.Get(syncPointKey)
	if errors.Is(err, storage.ErrKeyNotFound) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("%w: sync point: %w", ErrStateSync, err)
	}
	if len(v) != 4 {
		return 0, false, fmt.Errorf("%w: sync point record of %d bytes", ErrStateSync, len(v))
	}
	return binary.LittleEndian.Uint32(v), true, nil
}

// Init decides, from the height peers report, whether the state is to be
// synchronised and at which point; it resumes a synchronisation the
// database holds. It is called once (IsInitialized); the network asks
// for headers, trie nodes and blocks afterwards as the Need* methods say.
// An error means the database cannot be synchronised (drop it) or the
// store failed.
func (s *StateSync) Init(peerHeight uint32) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stage != syncNone {
		return fmt.Errorf("%w: already initialised or disabled", ErrStateSync)
	}
	c := s.c
	interval := uint32(c.proto.StateSyncInterval)
	if interval == 0 {
		return fmt.Errorf("%w: StateSyncInterval is 0", ErrBadConfig)
	}
	p := peerHeight / interval * interval
	h := c.BlockHeight()
	old, ok, err := c.syncPointStored()
	if err != nil {
		return err
	}
	switch {
	case !ok && (p < 2*interval || h > p-2*interval):
		// Too low a chain to sync, or the local one is close enough: blocks
		// are executed as usual.
		s.stage = syncOff
		return nil
	case ok && p >= interval && old >= p-interval, ok && p < interval:
		p = old // the stored point is still served by peers: resume
	case ok:
		return fmt.Errorf("%w: the database holds the unfinished sync point %d, peers are at %d: drop the database and start again",
			ErrStateSync, old, peerHeight)
	case h != 0:
		return fmt.Errorf("%w: the chain is at %d, too far below the sync point %d to go on executing blocks and "+
			"past the genesis: drop the database to synchronise the state", ErrStateSync, h, p)
	}
	if !ok {
		if err := s.putPoint(p); err != nil {
			return err
		}
	}
	s.point = p
	s.stage = syncHeaders
	s.log.Info("synchronising the state", zap.Uint32("sync_point", p), zap.Uint32("peer_height", peerHeight),
		zap.Bool("resumed", ok))
	return s.advance()
}

// putPoint records sync point p and stops ordinary block additions. The
// trie nodes of the genesis state are deleted, as neo-go does: the trie
// restored at p must not count references of a state the chain leaves.
func (s *StateSync) putPoint(p uint32) error {
	c := s.c
	c.addMu.Lock()
	defer c.addMu.Unlock()
	var nodes [][]byte
	err := c.cache.Seek(storage.SeekRange{Prefix: storage.DataMPT.Bytes()}, func(k, _ []byte) bool {
		nodes = append(nodes, bytes.Clone(k))
		return true
	})
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStateSync, err)
	}
	for _, k := range nodes {
		if err := c.cache.Delete(k); err != nil {
			return err
		}
	}
	if err := c.cache.Put(syncPointKey, binary.LittleEndian.AppendUint32(nil, p)); err != nil {
		return err
	}
	if err := c.persistCache(true); err != nil {
		return fmt.Errorf("%w: %w", ErrStateSync, err)
	}
	c.syncing.Store(true)
	return nil
}

// advance moves on to the first stage whose data is missing, jumping when
// none is. REQUIRES: s.mu held.
func (s *StateSync) advance() error {
	c := s.c
	if s.stage == syncHeaders {
		if c.HeaderHeight() <= s.point {
			return nil
		}
		hdr, err := c.GetHeaderByIndex(s.point + 1)
		if err != nil {
			return err
		}
		s.root = hdr.PrevStateRoot
		s.stage = syncMPT
		s.log.Info("headers in sync", zap.Uint32("header_height", c.HeaderHeight()),
			zap.Stringer("stateroot", s.root))
	}
	if s.stage == syncMPT {
		if err := s.openRestorer(); err != nil {
			return err
		}
		if s.restorer != nil && !s.restorer.Done() {
			return nil
		}
		s.restorer = nil
		if err := s.startBlocks(); err != nil {
			return err
		}
	}
	if s.stage == syncBlocks && s.stored >= s.point {
		return s.jump()
	}
	return nil
}

// openRestorer makes the trie restorer, which finds the nodes already
// stored. REQUIRES: s.mu held.
func (s *StateSync) openRestorer() error {
	if s.restorer != nil || s.root.IsZero() {
		return nil
	}
	c := s.c
	c.addMu.Lock()
	defer c.addMu.Unlock()
	r, err := mpt.NewRestorer(s.root, c.trieConfig(), nil)
	if err != nil {
		return fmt.Errorf("%w: trie %s: %w", ErrStateSync, s.root.String(), err)
	}
	s.restorer = r
	s.log.Info("state trie sync", zap.Stringer("root", s.root), zap.Int("missing", r.Pending()))
	return nil
}

// startBlocks finds the blocks of the window still to store. REQUIRES:
// s.mu held.
func (s *StateSync) startBlocks() error {
	c := s.c
	c.addMu.Lock()
	mtb, err := c.traceableAt(s.root, s.point)
	if err == nil {
		_, err = c.cache.PersistSync()
	}
	c.addMu.Unlock()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrStateSync, err)
	}
	stored := uint32(0)
	if s.point > mtb {
		stored = s.point - mtb
	}
	v, err := c.cache.Get(syncBlocksKey)
	switch {
	case err == nil && len(v) == 4:
		stored = max(stored, binary.LittleEndian.Uint32(v))
	case err != nil && !errors.Is(err, storage.ErrKeyNotFound):
		return fmt.Errorf("%w: %w", ErrStateSync, err)
	}
	s.stored = max(stored, c.BlockHeight())
	s.stage = syncBlocks
	s.log.Info("state trie in sync, storing the blocks below the sync point", zap.Uint32("from", s.stored+1),
		zap.Uint32("to", s.point), zap.Uint32("max_traceable_blocks", mtb))
	return nil
}

// IsActive reports whether the module is on and has not finished: before
// Init (which may turn it off) and while it gathers headers, trie nodes or
// blocks for a state jump. Blocks from peers then go to AddBlock (when
// NeedBlocks), not to Chain.AddBlock. As neo-go's IsActive.
func (s *StateSync) IsActive() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stage != syncOff
}

// BlockHeight is the height block requests continue from: the last block
// stored below the sync point while NeedBlocks, the chain's height
// otherwise (neo-go's Module.BlockHeight).
func (s *StateSync) BlockHeight() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stage == syncBlocks {
		return s.stored
	}
	return s.c.BlockHeight()
}

// IsInitialized reports whether Init was called (or is not needed: the
// module is disabled).
func (s *StateSync) IsInitialized() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stage != syncNone
}

// SyncPoint returns the sync point P (0 before Init).
func (s *StateSync) SyncPoint() uint32 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.point
}

// NeedHeaders reports whether headers up to SyncPoint()+1 are missing.
func (s *StateSync) NeedHeaders() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stage == syncHeaders
}

// NeedMPTNodes reports whether trie nodes are missing.
func (s *StateSync) NeedMPTNodes() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stage == syncMPT
}

// NeedBlocks reports whether blocks of the window below the sync point
// are missing (BlockRange).
func (s *StateSync) NeedBlocks() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.stage == syncBlocks
}

// BlockRange returns the indexes of the blocks still to store, from..to
// (to is the sync point); ok is false outside the blocks stage.
func (s *StateSync) BlockRange() (from, to uint32, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stage != syncBlocks {
		return 0, 0, false
	}
	return s.stored + 1, s.point, true
}

// HeaderHeight is the chain's HeaderHeight.
func (s *StateSync) HeaderHeight() uint32 { return s.c.HeaderHeight() }

// AddHeaders adds headers to the chain (Chain.AddHeaders) and moves on to
// the trie once the header of SyncPoint()+1 is known. Headers are taken at
// any stage (they are checked as usual).
func (s *StateSync) AddHeaders(hdrs ...*block.Header) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := s.c.AddHeaders(hdrs...)
	if s.stage == syncHeaders && s.c.HeaderHeight() > s.point {
		if aerr := s.advance(); aerr != nil {
			return errors.Join(err, aerr)
		}
	}
	return err
}

// UnknownMPTNodes returns up to limit hashes of trie nodes still missing,
// to be asked from peers (getmptdata).
func (s *StateSync) UnknownMPTNodes(limit int) []util.Uint256 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stage != syncMPT || s.restorer == nil {
		return nil
	}
	return s.restorer.Missing(limit)
}

// MissingMPTNodes returns the number of trie nodes known to be missing
// (more appear as their parents arrive).
func (s *StateSync) MissingMPTNodes() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stage != syncMPT || s.restorer == nil {
		return 0
	}
	return s.restorer.Pending()
}

// AddMPTNodes takes serialised trie nodes (an mptdata payload) in any
// order. Nodes not missing (duplicates, nodes whose parent has not arrived
// yet, nodes of another trie or corrupted in transit: their hash is
// another) are ignored, as neo-go does; an undecodable node, or a node
// that does not fit where its hash is wanted, fails with ErrStateSync. The
// other nodes of the batch are kept either way. The last missing node
// moves the module on to the blocks.
func (s *StateSync) AddMPTNodes(nodes [][]byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stage != syncMPT || s.restorer == nil {
		return fmt.Errorf("%w: trie nodes were not asked for", ErrStateSync)
	}
	var errs []error
	c := s.c
	c.addMu.Lock()
	for _, n := range nodes {
		ok, err := s.restorer.AddNode(n)
		if err != nil {
			errs = append(errs, fmt.Errorf("%w: %w", ErrStateSync, err))
			continue
		}
		if !ok {
			// Not missing: a duplicate, a node below one not arrived yet, or
			// garbage, which is worth an error for the peer that sent it.
			if _, err := mpt.DecodeNode(n); err != nil {
				errs = append(errs, fmt.Errorf("%w: node of %d bytes: %w", ErrStateSync, len(n), err))
			}
		}
	}
	c.addMu.Unlock()
	if s.restorer.Done() {
		if err := s.advance(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// AddBlock stores a block of the window below the sync point without
// executing it: it must be the next one (BlockRange; one already stored
// gives ErrAlreadyExists, one further on ErrBlockIndex) and have the hash
// of the known header at its index; its Merkle root is checked unless
// SkipBlockVerification. Storing block P makes the state jump.
func (s *StateSync) AddBlock(b *block.Block) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stage != syncBlocks {
		return fmt.Errorf("%w: blocks were not asked for", ErrStateSync)
	}
	if b.Index <= s.stored {
		return fmt.Errorf("%w: block %d, stored up to %d", ErrAlreadyExists, b.Index, s.stored)
	}
	if b.Index != s.stored+1 {
		return fmt.Errorf("%w: block %d, expected %d", ErrBlockIndex, b.Index, s.stored+1)
	}
	if err := s.c.storeSyncBlock(b); err != nil {
		return blockError(&b.Header, err)
	}
	s.stored = b.Index
	if s.stored == s.point {
		return s.jump()
	}
	return nil
}

// storeSyncBlock checks b against its header and stores it with its
// transactions, without execution results.
func (c *Chain) storeSyncBlock(b *block.Block) error {
	if b.StateRootEnabled != c.proto.StateRootInHeader {
		return fmt.Errorf("%w: block %t, network %t", ErrHeaderStateRootSetting, b.StateRootEnabled, c.proto.StateRootInHeader)
	}
	if want, ok := c.HeaderHashAt(b.Index); !ok || want != b.Hash() {
		return fmt.Errorf("%w: header %s", ErrHeaderMismatch, want.String())
	}
	if !c.cfg.Ledger.SkipBlockVerification {
		if err := checkBlockLimits(b, c.proto.MaxBlockSize, c.proto.MaxTransactionsPerBlock); err != nil {
			return err
		}
	}
	c.addMu.Lock()
	defer c.addMu.Unlock()
	if err := c.writable(); err != nil {
		return err
	}
	d := c.cacheDAO().Private()
	err := d.StoreAsBlock(b)
	for _, tx := range b.Transactions {
		if err != nil {
			break
		}
		err = d.StoreAsTransaction(tx, b.Index, nil)
	}
	if err == nil {
		err = d.Store().Put(syncBlocksKey, binary.LittleEndian.AppendUint32(nil, b.Index))
	}
	if err != nil {
		return errors.Join(err, d.Discard())
	}
	return d.Persist()
}

// trieConfig is the state trie's configuration over the write cache.
func (c *Chain) trieConfig() mpt.Config {
	return mpt.Config{Store: c.cache, Prefix: byte(storage.DataMPT), Mode: c.trieMode(),
		IsNotFound: func(err error) bool { return errors.Is(err, storage.ErrKeyNotFound) }}
}

// traceableAt returns MaxTraceableBlocks in the state of trie root after
// block p: Policy's value from Echidna on, read from the trie (contract
// storage is rebuilt only at the jump). REQUIRES: addMu held.
func (c *Chain) traceableAt(root util.Uint256, p uint32) (uint32, error) {
	if !c.proto.Enabled(protocol.HFEchidna, p) {
		return c.proto.MaxTraceableBlocks, nil
	}
	n, err := c.ledgerNativeSet()
	if err != nil {
		return 0, err
	}
	t, err := c.openTrie(root)
	if err != nil {
		return 0, err
	}
	id := native.PolicyID
	prefix := binary.LittleEndian.AppendUint32(nil, uint32(id))
	const maxItems = 1 << 16
	kvs, err := t.Find(prefix, nil, maxItems)
	if err != nil {
		return 0, fmt.Errorf("policy storage at %d: %w", p, err)
	}
	if len(kvs) == maxItems {
		return 0, fmt.Errorf("policy storage at %d: more than %d items", p, maxItems)
	}
	mem := storage.NewMemoryStore()
	for _, kv := range kvs {
		if err := mem.Put(append(storage.STStorage.Bytes(), kv.Key...), kv.Value); err != nil {
			return 0, err
		}
	}
	mtb, err := n.MaxTraceableBlocks(dao.New(mem))
	if err != nil {
		return 0, fmt.Errorf("MaxTraceableBlocks at %d: %w", p, err)
	}
	return mtb, nil
}
