package boltdb

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/storage/internal/synclog"
	bolt "go.etcd.io/bbolt"
)

// The sync log makes PutSync durable without waiting for bbolt's single
// writer. A node writes each block's record with PutSync (the chain's
// block log) while the write cache's flush of the previous second holds
// bbolt's writer for a commit of a few hundred milliseconds: through bbolt
// the block waited for that commit and then paid one of its own (two
// fdatasyncs, the record's overflow pages allocated, written and freed a
// second later). Instead PutSync appends the record to a side file,
// FilePath+".synclog", fdatasyncs it and keeps the value in memory, where
// Get finds it. The next PutChangeSet folds the logged records into its
// own bbolt transaction, so a record that the change set deletes (the
// block log's records are deleted in the change set that persists their
// blocks) never reaches a bbolt page.
//
// Every record carries the generation of the log it was written in; a
// PutChangeSet that folds records of generations up to g writes g under
// foldedKey in the bucket synclogBucket in the same transaction, and
// records of generations up to the folded one are ignored wherever they
// are read. A change set holds Store.fold from its seal to the bookkeeping
// after its commit, so the next one never seals records it just folded. Open folds the records above it (a crash or power loss
// between a PutSync and the next commit), then empties the file. The file
// starts with a header naming the database (idKey in synclogBucket), so a
// log left beside a replaced database file is ignored.
//
// The file and its records are pkg/storage/internal/synclog's, shared
// with the LevelDB backend; what is BoltDB's own is where the folded
// generation and the database id live: the bucket below.

// synclogBucket is the bucket of the sync log's bookkeeping, beside the
// DB bucket that holds the data.
var synclogBucket = []byte("n3d-synclog")

var (
	foldedKey = []byte("folded") // u64 BE: the last generation folded
	idKey     = []byte("id")     // 16 random bytes, also in the log's header
)

const synclogSuffix = ".synclog"

// foldInto writes recs and the folded generation gen in tx.
func foldInto(tx *bolt.Tx, recs map[string][]byte, gen uint64) error {
	b := tx.Bucket(Bucket)
	for k, v := range recs {
		if err := b.Put([]byte(k), v); err != nil {
			return err
		}
	}
	return tx.Bucket(synclogBucket).Put(foldedKey, binary.BigEndian.AppendUint64(nil, gen))
}

// openSynclog opens (creating it) the sync log of s, folds the records it
// holds above the folded generation into bbolt and empties it.
func (s *Store) openSynclog(dbPath string) error {
	var (
		folded uint64
		id     []byte
	)
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(synclogBucket)
		if err != nil {
			return err
		}
		if v := b.Get(foldedKey); len(v) == 8 {
			folded = binary.BigEndian.Uint64(v)
		}
		if id = bytes.Clone(b.Get(idKey)); len(id) != synclog.IDLen {
			id = make([]byte, synclog.IDLen)
			if _, err := rand.Read(id); err != nil {
				return err
			}
			return b.Put(idKey, id)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sync log: %w", mapErr(err))
	}
	fold, err := s.openRedo(dbPath, id)
	if err != nil {
		return err
	}
	folded = max(folded, fold)
	path := dbPath + synclogSuffix
	recs, top, err := synclog.Read(path, id, folded)
	if err != nil {
		return err
	}
	if len(recs) != 0 {
		if err := s.db.Update(func(tx *bolt.Tx) error { return foldInto(tx, recs, top) }); err != nil {
			return fmt.Errorf("sync log: folding %d records: %w", len(recs), mapErr(err))
		}
	}
	if s.log, err = synclog.Start(path, id, top); err != nil {
		return err
	}
	return nil
}
