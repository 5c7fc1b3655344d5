package leveldb

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/n3d-io/n3d/pkg/storage/internal/synclog"
	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
)

// PutSync goes to a side file, not to LevelDB (pkg/storage/internal/
// synclog): the chain's block log writes each block durably (~250 bytes a
// transaction) and deletes it a second later in the change set that
// persists the block's state. Through LevelDB the record filled the
// memtable along with the state (a third of the bytes a loaded node
// flushed to level 0), so level-0 tables came a third more often and
// with them the compactions that rewrite level 1; and its fsync flushed
// the journal's unsynced change set too. In the side file the record is
// fdatasync'd alone and kept in memory (Get finds it); the next
// PutChangeSet folds it into its batch unless the batch deletes or
// rewrites it (a node's block log records never reach LevelDB), and
// writes that batch with a journal sync, since the side file is emptied
// after it.
//
// Bookkeeping, in the same batch: foldKey holds the log's id (also in the
// file's header) and the last generation folded; Open folds the records
// above it (a crash between a PutSync and the next change set). foldKey
// is the store's own: Get and Seek do not show it.
var foldKey = []byte("\xf1\x00n3d-synclog")

// synclogName is the side file, inside the LevelDB directory (goleveldb
// ignores names it does not know).
const synclogName = "n3d.synclog"

func isFoldKey(k []byte) bool {
	return len(k) == len(foldKey) && k[0] == kv.MarkerPrefix && bytes.Equal(k, foldKey)
}

func foldValue(id []byte, gen uint64) []byte {
	return binary.BigEndian.AppendUint64(append([]byte{}, id...), gen)
}

// readFoldKey returns the log's id and folded generation (nil id: none
// recorded yet).
func (s *Store) readFoldKey() ([]byte, uint64, error) {
	v, err := s.db.Get(foldKey, nil)
	switch {
	case errors.Is(err, leveldb.ErrNotFound):
		return nil, 0, nil
	case err != nil:
		return nil, 0, fmt.Errorf("storage/leveldb: sync log: %w", mapErr(err))
	case len(v) != synclog.IDLen+8:
		return nil, 0, fmt.Errorf("storage/leveldb: sync log: %w: bookkeeping record of %d bytes",
			kv.ErrCorrupted, len(v))
	}
	return v[:synclog.IDLen], binary.BigEndian.Uint64(v[synclog.IDLen:]), nil
}

// openSynclog folds the records a crash left in the side file and starts
// it empty. A read-only store only loads them (pending, for Get and Seek).
func (s *Store) openSynclog() error {
	id, folded, err := s.readFoldKey()
	if err != nil {
		return err
	}
	path := filepath.Join(s.path, synclogName)
	if s.readOnly {
		if id != nil {
			s.pending, _, err = synclog.Read(path, id, folded)
		}
		return err
	}
	fresh := id == nil
	if fresh {
		id = make([]byte, synclog.IDLen)
		if _, err := rand.Read(id); err != nil {
			return fmt.Errorf("storage/leveldb: sync log: %w", err)
		}
	}
	recs, top, err := synclog.Read(path, id, folded)
	if err != nil {
		return fmt.Errorf("storage/leveldb: %w", err)
	}
	if fresh || len(recs) != 0 {
		b := new(leveldb.Batch)
		for k, v := range recs {
			b.Put([]byte(k), v)
		}
		b.Put(foldKey, foldValue(id, top))
		if err := s.db.Write(b, &opt.WriteOptions{Sync: true}); err != nil {
			return fmt.Errorf("storage/leveldb: sync log: folding %d records: %w", len(recs), mapErr(err))
		}
	}
	if s.log, err = synclog.Start(path, id, top); err != nil {
		return fmt.Errorf("storage/leveldb: %w", err)
	}
	s.logID = id
	return nil
}

// foldFirst commits the side file's records first when key has one, so a
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

// sealInto adds to b the sealed side file records that the change set
// does not delete or rewrite, and the generation folded.
func (s *Store) sealInto(b *leveldb.Batch, puts map[string][]byte, dels map[string]struct{}) (uint64, bool) {
	gen, folded, _ := s.sealEach(puts, dels, func(k string, v []byte) error {
		b.Put(view(k), v)
		return nil
	})
	return gen, folded
}

// sealEach seals the side file's records and hands put, in key order,
// those the change set (puts, dels) does not override, then the fold
// marker of their generation; folded is false when there was nothing
// to seal.
func (s *Store) sealEach(puts map[string][]byte, dels map[string]struct{},
	put func(k string, v []byte) error) (gen uint64, folded bool, err error) {
	sealed, gen := s.log.Seal()
	if sealed == nil {
		return 0, false, nil
	}
	keys := make([]string, 0, len(sealed))
	for k := range sealed {
		_, p := puts[k]
		_, d := dels[k]
		if !p && !d {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if err := put(k, sealed[k]); err != nil {
			return gen, true, err
		}
	}
	return gen, true, put(string(foldKey), foldValue(s.logID, gen))
}

// pendingIn returns the read-only store's unfolded records in [lo, hi),
// sorted.
func (s *Store) pendingIn(lo, hi []byte) []string {
	var keys []string
	for k := range s.pending {
		if k >= string(lo) && (hi == nil || k < string(hi)) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	return keys
}
