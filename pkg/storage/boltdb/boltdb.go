// Package boltdb is the BoltDB backend of pkg/storage, built on
// go.etcd.io/bbolt. All keys live in one bucket named "DB", as in neo-go,
// in bytewise order; the key layout is the one of docs/storage-format.md.
//
// A small PutChangeSet runs in one bbolt read-write transaction, which
// commits by switching the meta page; a large one commits in key ranges
// after writing a redo record that Open replays (redo.go, commit.go), so
// bbolt's transient heap is that of one range. After a crash either the
// whole changeset is visible or none of it is. One writer at a time: a
// Put or Delete waits for a PutChangeSet being committed (on a loaded disk the
// write cache's flush of one second of blocks takes seconds, see
// docs/benchmarks-storage.md); reads never wait for it, and neither does
// PutSync, which appends to a side log folded into the next PutChangeSet
// (synclog.go). The bucket "n3d-synclog" holds that log's bookkeeping.
//
// Seek reads in chunks, each in its own short read transaction, and calls
// the callback outside any transaction, so a callback may use the store
// (or a cache above it) freely while another goroutine writes.
package boltdb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/n3d-io/n3d/pkg/storage/internal/synclog"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// BackendName is recorded in the format marker of BoltDB databases.
const BackendName = "boltdb"

// Bucket is the bucket holding every key (the same name as neo-go's).
var Bucket = []byte("DB")

// ErrNoPath is returned by Open when FilePath is empty.
var ErrNoPath = errors.New("storage/boltdb: empty FilePath")

// ErrNoBucket is returned when a read-only database lacks the DB bucket.
var ErrNoBucket = errors.New("storage/boltdb: bucket \"DB\" missing")

// openTimeout bounds the wait for the file lock held by another process.
const openTimeout = time.Second

// Seek chunking: at most this many entries or bytes are copied out of one
// read transaction before the callbacks run.
const (
	seekChunkEntries = 512
	seekChunkBytes   = 256 << 10
)

// Options configures a BoltDB store. The YAML names are those of neo-go's
// ApplicationConfiguration.DBConfiguration.BoltDBOptions.
type Options struct {
	FilePath string `yaml:"FilePath"`
	ReadOnly bool   `yaml:"ReadOnly"`
}

// Store is a BoltDB-backed storage.Store. It is safe for concurrent use.
type Store struct {
	db     *bolt.DB
	closed atomic.Bool
	// fillPercent, when set (benchmarks), replaces bbolt's default fill
	// of the pages PutChangeSet splits.
	fillPercent float64
	// log holds PutSync's records until a commit folds them (nil when
	// read-only); see synclog.go.
	log *synclog.Log
	// fold serializes change sets from the sync log's seal to its folded
	// bookkeeping after the commit. bbolt's writer lock ends with the
	// commit: without this, a change set could seal (and write back) the
	// records an earlier one had just committed, deleted, and not yet
	// forgotten, bringing deleted records back.
	fold sync.Mutex
	// wmu serializes the writers (PutChangeSet, Put, Delete) from a
	// change set's first range to its last, so no write lands between
	// ranges that replaying the change set's redo record would undo.
	wmu sync.Mutex
	// The redo file (redo.go, commit.go); REQUIRES wmu for the fields
	// below but redoF and id, set at open.
	redoF       *os.File
	id          []byte // the database id (sync log and redo headers)
	redoW       redoWriter
	redoGen     uint64 // generation of the last redo record written or committed
	redoPending bool   // the redo file may hold a record not committed completely
	// rangeEntries and rangeBytes (tests) replace the range limits.
	rangeEntries, rangeBytes int
	// afterStep (tests) runs after the redo write (0) and each range
	// (1, 2, ...); an error ends the change set there, as a crash would.
	afterStep func(step int) error
}

// initialMmapSize is the address space mapped at open (not memory, not
// file size). bbolt otherwise maps the file at twice its size from 32 KiB
// up, and each remap waits for the readers and re-copies every node the
// writing transaction holds: a restore remaps some fifteen times on its way
// to 1 GiB. Mapping 1 GiB at once cut a 2000-block restore's CPU time by
// about 15% and its allocations by a quarter (BenchmarkRestoreGenerated,
// alternating runs). Beyond 1 GiB bbolt grows the map 1 GiB at a time.
const initialMmapSize = 1 << 30

// Open opens (creating it and its directory unless read-only) the BoltDB
// file o.FilePath and checks its format marker.
func Open(o Options) (*Store, error) {
	if o.FilePath == "" {
		return nil, ErrNoPath
	}
	if fi, err := os.Stat(o.FilePath); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%w: %s is a directory, not a BoltDB file (a LevelDB database?)",
			kv.ErrWrongBackend, o.FilePath)
	}
	if !o.ReadOnly {
		if err := os.MkdirAll(filepath.Dir(o.FilePath), 0o755); err != nil {
			return nil, fmt.Errorf("storage/boltdb: creating directory: %w", err)
		}
	}
	return openWith(o, boltOptions(o))
}

// openWith is Open with the given bbolt options (benchmarks vary them).
func openWith(o Options, opts *bolt.Options) (*Store, error) {
	db, err := bolt.Open(o.FilePath, 0o600, opts)
	if err != nil {
		return nil, fmt.Errorf("storage/boltdb: open %s: %w", o.FilePath, mapErr(err))
	}
	s := &Store{db: db}
	if err := s.init(o.ReadOnly); err != nil {
		return nil, errors.Join(fmt.Errorf("storage/boltdb: %s: %w", o.FilePath, err), mapErr(db.Close()))
	}
	if o.ReadOnly {
		err = s.checkRedoReadOnly(o.FilePath)
	} else {
		err = s.openSynclog(o.FilePath)
	}
	if err != nil {
		if s.redoF != nil {
			err = errors.Join(err, s.redoF.Close())
		}
		return nil, errors.Join(fmt.Errorf("storage/boltdb: %s: %w", o.FilePath, err), mapErr(db.Close()))
	}
	return s, nil
}

// boltOptions are the bbolt options Open uses for o.
//
// NoStatistics: bbolt otherwise counts every transaction under a mutex
// and merges each read transaction's counters into the database's when it
// ends; nothing here reads them (DB.Stats), and without them a Get costs
// 5–13% less CPU (BenchmarkGet, medians of alternating runs: 4.9 → 4.7 µs,
// 6.4 → 5.6 µs), which the verification of every incoming transaction
// pays several times.
//
// The free-page list is bbolt's hash map (FreelistMapType): the array
// list moves its tail on every allocation. It is synced at each commit
// (NoFreelistSync false, as neo-go): skipping it saved little of a
// commit's writes (BenchmarkNodeCycle) and would make every Open scan the
// whole file.
func boltOptions(o Options) *bolt.Options {
	return &bolt.Options{
		Timeout:         openTimeout,
		ReadOnly:        o.ReadOnly,
		FreelistType:    bolt.FreelistMapType,
		InitialMmapSize: initialMmapSize,
		NoStatistics:    true,
	}
}

func (s *Store) init(readOnly bool) error {
	var err error
	if readOnly {
		err = s.db.View(func(tx *bolt.Tx) error {
			if tx.Bucket(Bucket) == nil {
				return ErrNoBucket
			}
			return nil
		})
	} else {
		err = s.db.Update(func(tx *bolt.Tx) error {
			_, err := tx.CreateBucketIfNotExists(Bucket)
			return err
		})
	}
	if err != nil {
		return mapErr(err)
	}
	return kv.CheckMarker(s, BackendName, readOnly)
}

// mapErr translates bbolt errors into the storage sentinels.
func mapErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, berrors.ErrDatabaseNotOpen):
		return kv.ErrClosed
	case errors.Is(err, berrors.ErrDatabaseReadOnly), errors.Is(err, berrors.ErrTxNotWritable):
		return kv.ErrReadOnly
	case errors.Is(err, berrors.ErrKeyRequired):
		return kv.ErrEmptyKey
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrChecksum),
		errors.Is(err, berrors.ErrVersionMismatch):
		return fmt.Errorf("%w: %w", kv.ErrCorrupted, err)
	}
	return err
}

// Get returns a copy of the value of key or storage.ErrKeyNotFound.
func (s *Store) Get(key []byte) ([]byte, error) {
	if s.log != nil {
		if v, ok := s.log.Get(key); ok {
			return append([]byte{}, v...), nil
		}
	}
	var val []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		b := tx.Bucket(Bucket)
		v := b.Get(key)
		if v == nil {
			// A zero-length value may come back as nil: ask the cursor.
			k, _ := b.Cursor().Seek(key)
			if k == nil || !bytes.Equal(k, key) {
				return kv.ErrKeyNotFound
			}
		}
		val = append([]byte{}, v...)
		return nil
	})
	return val, mapErr(err)
}

// Put stores value under key in its own transaction.
func (s *Store) Put(key, value []byte) error {
	if len(key) == 0 {
		return kv.ErrEmptyKey
	}
	if err := s.foldFirst(key); err != nil {
		return err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.finishRedo(); err != nil {
		return err
	}
	return mapErr(s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(Bucket).Put(key, value)
	}))
}

// foldFirst commits the sync log's records first when key has one, so a
// Put or Delete of it lands after the logged value, not under it.
func (s *Store) foldFirst(key []byte) error {
	if s.log == nil {
		return nil
	}
	if _, ok := s.log.Get(key); !ok {
		return nil
	}
	return s.PutChangeSet(nil, nil)
}

// Delete removes key; deleting an absent key is not an error.
func (s *Store) Delete(key []byte) error {
	if err := s.foldFirst(key); err != nil {
		return err
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.finishRedo(); err != nil {
		return err
	}
	return mapErr(s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(Bucket).Delete(key)
	}))
}

// Close folds the sync log's records into the file and closes it.
func (s *Store) Close() error {
	if s.closed.Load() {
		return kv.ErrClosed
	}
	var err error
	if s.log != nil && s.log.Pending() {
		err = s.PutChangeSet(nil, nil)
	}
	if s.closed.Swap(true) {
		return kv.ErrClosed
	}
	if s.log != nil {
		err = errors.Join(err, s.log.Close())
	}
	if s.redoF != nil {
		err = errors.Join(err, s.redoF.Close())
	}
	return errors.Join(err, mapErr(s.db.Close()))
}

// PutSync stores value under key and returns once it is on stable
// storage, without waiting for a commit in progress: the record goes to
// the sync log (synclog.go) and reaches the bbolt file with the next
// PutChangeSet. value is kept until then: do not modify it. A read-only
// store refuses it like Put.
func (s *Store) PutSync(key, value []byte) error {
	if len(key) == 0 {
		return kv.ErrEmptyKey
	}
	if s.log == nil || s.closed.Load() {
		return s.Put(key, value)
	}
	err := s.log.Put(key, value)
	if errors.Is(err, synclog.ErrClosed) {
		return kv.ErrClosed
	}
	return err
}
