// Package leveldb is the LevelDB backend of pkg/storage, built on
// github.com/syndtr/goleveldb. Keys are stored as given (no bucket or
// extra prefix), in bytewise order, so the layout is the one described in
// docs/storage-format.md and the one neo-go writes.
//
// A change set from PutChangeSet that fits the memtable is one goleveldb
// batch, a single journal record; a larger one is written straight to
// level-0 tables by a goleveldb transaction, whose commit adds them all
// to the manifest at once. Either way, after a crash the whole change set
// is visible or none of it is. PutSync goes to a side file first and
// reaches LevelDB with the next change set (synclog.go). Use it through
// storage.New; the type does not leak goleveldb types.
package leveldb

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"unsafe"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/n3d-io/n3d/pkg/storage/internal/synclog"
	"github.com/syndtr/goleveldb/leveldb"
	lerrors "github.com/syndtr/goleveldb/leveldb/errors"
	"github.com/syndtr/goleveldb/leveldb/filter"
	"github.com/syndtr/goleveldb/leveldb/iterator"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"
)

// BackendName is recorded in the format marker of LevelDB databases.
const BackendName = "leveldb"

// ErrNoPath is returned by Open when DataDirectoryPath is empty.
var ErrNoPath = errors.New("storage/leveldb: empty DataDirectoryPath")

// Options configures a LevelDB store. The YAML names are those of neo-go's
// ApplicationConfiguration.DBConfiguration.LevelDBOptions.
type Options struct {
	DataDirectoryPath string `yaml:"DataDirectoryPath"`
	ReadOnly          bool   `yaml:"ReadOnly"`
	// WriteBuffer is the memtable size in bytes (0: DefaultWriteBuffer).
	// It is not in neo-go's YAML: a batch job that prefers memory to
	// speed (`db restore`) sets it.
	WriteBuffer int `yaml:"-"`
	// L0Trigger is the number of level-0 tables that starts a
	// compaction (0: DefaultL0Trigger); writes slow down at twice and stop
	// at three times as many. Not in neo-go's YAML: `db restore`, which
	// prefers memory to speed, sets goleveldb's 4.
	L0Trigger int `yaml:"-"`
	// BlockCache is the size in bytes of goleveldb's cache of
	// uncompressed table blocks (0: DefaultBlockCache). Not in neo-go's
	// YAML.
	BlockCache int `yaml:"-"`
}

// DefaultBlockCache is a node's block cache: a quarter of goleveldb's
// (and neo-go's) 8 MiB. The node's reads of recent state are answered
// above LevelDB (the write cache, the chain's caches and transaction
// filter), and a block missing here is one pread from the OS's page cache
// and a snappy decode away; the cache's blocks, and the pooled buffers
// that follow them, are live heap that the collector's goal multiplies.
// In a noisy A/B of loaded single nodes (neo-bench, 500k transfers, 27 Nov
// 2026) it took ~10 MB off the mean RSS at the same TPS
// (docs/benchmarks-tps.md, 27 Nov figures).
const DefaultBlockCache = 2 * opt.MiB

// DefaultWriteBuffer is the memtable size of a node: goleveldb's default
// and neo-go's. goleveldb allocates the memtable whole and keeps two (the
// active one and the one being flushed, or a spare), live heap that the
// GC's goal multiplies. A loaded node writes a second of blocks at a time
// (~16 MB of keys and values at 13k TPS): PutChangeSet writes such a set to tables one
// memtable at a time (putTables) rather than as one batch into a
// memtable grown to its size, which took the node's heap peak from ~105
// to ~74 MB (docs/benchmarks-tps.md, 27 Nov, LevelDB change sets). The
// transaction waits for the memtable's flush first; that stalled the
// block log's synchronous writes and cost 30-40% of the TPS while they
// went through LevelDB, but they go to the side file now (synclog.go).
const DefaultWriteBuffer = 4 * opt.MiB

// DefaultL0Trigger is a node's level-0 compaction trigger (goleveldb's
// default is 4, with writes slowed at 8 and stopped at 12). Most of our keys
// are hashes (transactions, application logs, MPT nodes), spread over
// the whole key space, so every level-0 table overlaps every level-1
// table and each level-0 compaction rewrites all of level 1 (up to its
// 100 MiB target) to merge a few MiB: the compaction bytes of a growing
// database go as its size squared over the level-0 data merged per
// compaction. Waiting for 16 flushed memtables instead of 4 merges four
// times as much per rewrite (a 500k-transfer neo-bench load: 1.2 GB of
// compaction writes at 4, ~0.6 at 8, ~0.25-0.35 at 16). The price is
// more level-0 tables a read may look in (each a bloom-filter probe for a
// key it does not hold); the chain's own transaction filter and the write
// cache answer most of a loaded node's reads before LevelDB. The write
// triggers keep their ratios to it: goleveldb delays each write by 1 ms
// from 32 level-0 tables and stops writes at 48, 16 and 32 flushes past
// a due compaction (a loaded node flushes a memtable every second or
// two), and the block log's synchronous writes no longer go through
// LevelDB (synclog.go) (docs/benchmarks-storage.md, LevelDB compaction).
const DefaultL0Trigger = 16

// Store is a LevelDB-backed storage.Store. It is safe for concurrent use.
//
// Every operation runs inside a gate (gate.go) that RecoverWrites closes
// only while no operation runs, so it can replace the goleveldb handle
// under nobody's feet; operations started meanwhile wait for it (the fast
// path is one atomic compare-and-swap and one add).
type Store struct {
	gate
	// handleMu orders Close and the handle replacement of RecoverWrites.
	handleMu sync.Mutex
	closed   bool
	db       *leveldb.DB // replaced by RecoverWrites, inside the gate
	readOnly bool
	path     string
	opts     *opt.Options

	// The side file of PutSync (synclog.go); nil when read-only.
	log   *synclog.Log
	logID []byte
	// foldMu orders change sets, so folds of the side file commit in the
	// order of their generations.
	foldMu sync.Mutex
	// pending are the side file's unfolded records a read-only store
	// found at open (Get and Seek show them).
	pending map[string][]byte
}

// Open opens (creating it unless read-only) the LevelDB database in
// o.DataDirectoryPath and checks its format marker.
func Open(o Options) (*Store, error) {
	if o.DataDirectoryPath == "" {
		return nil, ErrNoPath
	}
	if fi, err := os.Stat(o.DataDirectoryPath); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%w: %s is a file, not a LevelDB directory (a BoltDB database?)",
			kv.ErrWrongBackend, o.DataDirectoryPath)
	}
	opts := &opt.Options{
		Filter:              filter.NewBloomFilter(10),
		ReadOnly:            o.ReadOnly,
		ErrorIfMissing:      o.ReadOnly,
		WriteBuffer:         DefaultWriteBuffer,
		BlockCacheCapacity:  DefaultBlockCache,
		CompactionTableSize: 8 * opt.MiB,
		// Sets larger than the memtable are written by PutChangeSet
		// itself (putTables), never by goleveldb's own large batch path.
		DisableLargeBatchTransaction: true,
	}
	if o.WriteBuffer > 0 {
		opts.WriteBuffer = o.WriteBuffer
	}
	if o.BlockCache > 0 {
		opts.BlockCacheCapacity = o.BlockCache
	}
	l0 := DefaultL0Trigger
	if o.L0Trigger > 0 {
		l0 = o.L0Trigger
	}
	opts.CompactionL0Trigger, opts.WriteL0SlowdownTrigger, opts.WriteL0PauseTrigger = l0, 2*l0, 3*l0
	db, err := leveldb.OpenFile(o.DataDirectoryPath, opts)
	if err != nil {
		return nil, fmt.Errorf("storage/leveldb: open %s: %w", o.DataDirectoryPath, mapErr(err))
	}
	s := &Store{db: db, readOnly: o.ReadOnly, path: o.DataDirectoryPath, opts: opts}
	if err := kv.CheckMarker(s, BackendName, o.ReadOnly); err != nil {
		return nil, errors.Join(fmt.Errorf("storage/leveldb: %s: %w", o.DataDirectoryPath, err), mapErr(db.Close()))
	}
	if err := s.openSynclog(); err != nil {
		return nil, errors.Join(err, mapErr(db.Close()))
	}
	return s, nil
}

// mapErr translates goleveldb errors into the storage sentinels.
func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, leveldb.ErrNotFound):
		return kv.ErrKeyNotFound
	case errors.Is(err, leveldb.ErrClosed):
		return kv.ErrClosed
	case errors.Is(err, leveldb.ErrReadOnly):
		return kv.ErrReadOnly
	case lerrors.IsCorrupted(err):
		return fmt.Errorf("%w: %w", kv.ErrCorrupted, err)
	}
	return err
}

// Get returns the value of key or storage.ErrKeyNotFound. The returned
// slice belongs to the caller.
func (s *Store) Get(key []byte) ([]byte, error) {
	if s.log != nil {
		if v, ok := s.log.Get(key); ok {
			return append([]byte{}, v...), nil
		}
	}
	if v, ok := s.pending[string(key)]; ok {
		return append([]byte{}, v...), nil
	}
	if len(key) != 0 && isFoldKey(key) {
		return nil, kv.ErrKeyNotFound
	}
	s.enter()
	defer s.exit()
	v, err := s.db.Get(key, nil)
	if err != nil {
		return nil, mapErr(err)
	}
	return v, nil
}

// Put stores value under key.
func (s *Store) Put(key, value []byte) error {
	if len(key) == 0 {
		return kv.ErrEmptyKey
	}
	if err := s.foldFirst(key); err != nil {
		return err
	}
	s.enter()
	defer s.exit()
	return mapErr(s.db.Put(key, value, nil))
}

// Delete removes key; deleting an absent key is not an error.
func (s *Store) Delete(key []byte) error {
	if err := s.foldFirst(key); err != nil {
		return err
	}
	s.enter()
	defer s.exit()
	return mapErr(s.db.Delete(key, nil))
}

// PutChangeSet atomically deletes dels and then stores puts (a key in both
// ends up stored). Neither the maps nor the values are retained. The
// set also folds the side file's records written before the call
// (synclog.go); when it does, it is written synced.
//
// A set that fits the memtable is one batch; a larger one goes to tables
// (putTables). Keys are written in order: LevelDB inserts them into a
// memtable, a skip list, and a sorted insertion finds each key's place
// next to the previous one's, in cache, where random order (hash keys,
// such as MPT nodes) misses the cache at every level: sorting first costs
// less than a quarter of what it saves (a 60,000-key change set: memtable
// inserts 1.9 s → 0.47 s for 8 sets, the sort 0.2-0.3 s). In a
// transaction sorted keys also make each table cover its own key range.
func (s *Store) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	if s.readOnly {
		return kv.ErrReadOnly
	}
	size := 0
	keys := make([]string, 0, len(puts))
	for k, v := range puts {
		if len(k) == 0 {
			return kv.ErrEmptyKey
		}
		size += len(k) + len(v) + 16
		keys = append(keys, k)
	}
	slices.Sort(keys)
	delKeys := make([]string, 0, len(dels))
	for k := range dels {
		size += len(k) + 8
		delKeys = append(delKeys, k)
	}
	slices.Sort(delKeys)
	if size > s.opts.WriteBuffer {
		return s.putTables(keys, delKeys, puts, dels)
	}
	b := leveldb.MakeBatch(size)
	for _, k := range delKeys {
		b.Delete(view(k))
	}
	for _, k := range keys {
		b.Put(view(k), puts[k])
	}
	s.foldMu.Lock()
	defer s.foldMu.Unlock()
	var (
		wo     *opt.WriteOptions
		gen    uint64
		folded bool
	)
	if s.log != nil {
		if gen, folded = s.sealInto(b, puts, dels); folded {
			wo = &opt.WriteOptions{Sync: true}
		}
	}
	if b.Len() == 0 {
		return nil
	}
	s.enter()
	err := mapErr(s.db.Write(b, wo))
	s.exit()
	if err != nil || !folded {
		return err
	}
	return s.log.Folded(gen)
}

// view is the bytes of s without a copy, for Batch.Put and Batch.Delete,
// which copy what they are given and never write to it.
func view(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// Seek calls fn for each key in rng, in ascending (or, with
// rng.Backwards, descending) order, until fn returns false. k and v are
// valid only during the call. Iteration runs over a consistent snapshot.
func (s *Store) Seek(rng kv.SeekRange, fn func(k, v []byte) bool) error {
	lo, hi := kv.Bounds(rng)
	if s.log != nil && s.log.Overlaps(lo, hi) {
		// Rare (the block log is read at Open, after its fold): commit
		// the records first so the walk finds them in LevelDB.
		if err := s.PutChangeSet(nil, nil); err != nil {
			return err
		}
	}
	pend := s.pendingIn(lo, hi)
	if rng.Backwards {
		slices.Reverse(pend)
	}
	s.enter()
	defer s.exit()
	it := s.db.NewIterator(&util.Range{Start: lo, Limit: hi}, nil)
	s.walk(it, pend, rng.Backwards, fn)
	err := it.Error()
	it.Release()
	return mapErr(err)
}

// walk hands fn the iterator's entries merged with the read-only store's
// pending records (in the walk's order; a pending record hides the stored
// value of its key), without foldKey, until fn returns false.
func (s *Store) walk(it iterator.Iterator, pend []string, back bool, fn func(k, v []byte) bool) {
	step := it.Next
	ok := it.First()
	if back {
		step = it.Prev
		ok = it.Last()
	}
	for ok || len(pend) != 0 {
		switch {
		case len(pend) != 0 && (!ok || (pend[0] < string(it.Key())) != back && pend[0] != string(it.Key())):
			if !fn([]byte(pend[0]), s.pending[pend[0]]) {
				return
			}
			pend = pend[1:]
		case len(pend) != 0 && pend[0] == string(it.Key()):
			if !fn([]byte(pend[0]), s.pending[pend[0]]) {
				return
			}
			pend = pend[1:]
			ok = step()
		default:
			if !isFoldKey(it.Key()) && !fn(it.Key(), it.Value()) {
				return
			}
			ok = step()
		}
	}
}

// Close folds the side file's records into the database and closes it.
func (s *Store) Close() error {
	var err error
	if s.log != nil && s.log.Pending() {
		err = s.PutChangeSet(nil, nil)
	}
	s.handleMu.Lock()
	defer s.handleMu.Unlock()
	if s.closed {
		return kv.ErrClosed
	}
	s.closed = true
	if s.log != nil {
		err = errors.Join(err, s.log.Close())
	}
	return errors.Join(err, mapErr(s.db.Close()))
}

// PutSync stores value under key and waits until the write is on stable
// storage, for records that must survive a power loss, not only a crash
// of the process. The record goes to the side file (synclog.go) and
// reaches LevelDB with the next PutChangeSet; value is kept until then:
// do not modify it.
func (s *Store) PutSync(key, value []byte) error {
	if len(key) == 0 {
		return kv.ErrEmptyKey
	}
	if s.log == nil {
		return kv.ErrReadOnly
	}
	err := s.log.Put(key, value)
	if errors.Is(err, synclog.ErrClosed) {
		return kv.ErrClosed
	}
	return err
}

// RecoverWrites makes the store take writes again after a failed one (a
// full disk): goleveldb's journal keeps failing every write after its
// first failure until the database is reopened. It closes and reopens the
// database once no operation runs (operations meanwhile wait); the
// journal replay drops the torn record of the failed write, which was
// never acknowledged. If the read-write open fails (the disk still full),
// the database is opened read-only, so reads go on and writes fail with
// ErrReadOnly until the next RecoverWrites.
func (s *Store) RecoverWrites() error {
	if s.readOnly {
		return kv.ErrReadOnly
	}
	var err error
	s.exclusive(func() {
		s.handleMu.Lock()
		defer s.handleMu.Unlock()
		if s.closed {
			err = kv.ErrClosed
			return
		}
		_ = s.db.Close() // reports the journal's error: the reason we are here
		db, oerr := leveldb.OpenFile(s.path, s.opts)
		if oerr == nil {
			s.db = db
			return
		}
		ro := *s.opts
		ro.ReadOnly = true
		db, rerr := leveldb.OpenFile(s.path, &ro)
		if rerr != nil {
			// Keep a closed handle: operations fail with ErrClosed.
			err = fmt.Errorf("storage/leveldb: reopening %s: %w", s.path, errors.Join(mapErr(oerr), mapErr(rerr)))
			return
		}
		s.db = db
		err = fmt.Errorf("storage/leveldb: reopening %s read-write: %w", s.path, mapErr(oerr))
	})
	return err
}

// putTables writes a change set larger than the memtable straight to
// level-0 tables through a goleveldb transaction, key by key: no batch
// holds the whole set and no memtable grows to its size (each table is
// one memtable's worth). The commit adds the tables to the manifest at
// once, so after a crash either all of them are part of the database or
// none is; tables and manifest are synced, so a fold of the side file
// rides along as it does with a synced batch.
func (s *Store) putTables(keys, delKeys []string, puts map[string][]byte, dels map[string]struct{}) error {
	s.foldMu.Lock()
	defer s.foldMu.Unlock()
	s.enter()
	defer s.exit()
	tr, err := s.db.OpenTransaction()
	if err != nil {
		return fmt.Errorf("storage/leveldb: change set: %w", mapErr(err))
	}
	put := func(k string, v []byte) error { return tr.Put(view(k), v, nil) }
	for _, k := range delKeys {
		if err = tr.Delete(view(k), nil); err != nil {
			break
		}
	}
	for i := 0; err == nil && i < len(keys); i++ {
		err = put(keys[i], puts[keys[i]])
	}
	var (
		gen    uint64
		folded bool
	)
	if err == nil && s.log != nil {
		gen, folded, err = s.sealEach(puts, dels, put)
	}
	if err == nil {
		err = tr.Commit()
	}
	if err != nil {
		tr.Discard()
		return fmt.Errorf("storage/leveldb: change set: %w", mapErr(err))
	}
	if !folded {
		return nil
	}
	return s.log.Folded(gen)
}
