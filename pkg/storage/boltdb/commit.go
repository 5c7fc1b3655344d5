package boltdb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unsafe"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/n3d-io/n3d/pkg/storage/internal/synclog"
	bolt "go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"
)

// A change set larger than one range commits range by range through the
// redo file (redo.go): bbolt's transient heap grows with the leaf pages a
// transaction touches, so a range bounds it. Each range is a normal synced
// bbolt transaction; smaller ranges cost more commits (two fdatasyncs and
// the free list each).
const (
	defRangeEntries = 4096
	defRangeBytes   = 4 << 20
)

// PutChangeSet atomically deletes dels and then stores puts (a key in both
// ends up stored). The maps are not retained. The change set also folds
// the sync log's records written before the call (those it deletes or
// rewrites are dropped). Keys are written in sorted order, which keeps
// bbolt's page splits local: in one transaction when the change set is
// small, else in key ranges after a redo record (redo.go) that Open
// replays if a crash cuts the ranges short. Readers may see a range
// committed before the next; the write cache above keeps the whole change
// set readable until this returns.
func (s *Store) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	// Checked before any range commits: a change set bbolt refuses must
	// leave nothing behind (nor a redo record that could never replay).
	for k, v := range puts {
		switch {
		case len(k) == 0:
			return kv.ErrEmptyKey
		case len(k) > bolt.MaxKeySize:
			return berrors.ErrKeyTooLarge
		case int64(len(v)) > bolt.MaxValueSize:
			return berrors.ErrValueTooLarge
		}
	}
	if s.log != nil {
		s.fold.Lock()
		defer s.fold.Unlock()
	}
	s.wmu.Lock()
	defer s.wmu.Unlock()
	if err := s.finishRedo(); err != nil {
		return err
	}
	var (
		sealed map[string][]byte
		gen    uint64
	)
	if s.log != nil {
		// Sealed under wmu and fold, so folds commit in the order of
		// their generations.
		sealed, gen = s.log.Seal()
	}
	ents := mergeEntries(puts, dels, sealed)
	if err := s.commitEntries(ents, gen); err != nil {
		return err
	}
	if sealed != nil {
		return s.log.Folded(gen)
	}
	return nil
}

// mergeEntries returns the final state of every key the change set and
// the sealed sync log records touch, in key order.
func mergeEntries(puts map[string][]byte, dels map[string]struct{}, sealed map[string][]byte) []redoEntry {
	ents := make([]redoEntry, 0, len(puts)+len(dels)+len(sealed))
	for k, v := range puts {
		ents = append(ents, redoEntry{key: k, val: v})
	}
	for k := range dels {
		// A key bbolt cannot hold is not there to delete.
		if _, ok := puts[k]; !ok && len(k) != 0 && len(k) <= bolt.MaxKeySize {
			ents = append(ents, redoEntry{key: k, del: true})
		}
	}
	for k, v := range sealed {
		_, put := puts[k]
		_, del := dels[k]
		if !put && !del {
			ents = append(ents, redoEntry{key: k, val: v})
		}
	}
	slices.SortFunc(ents, func(a, b redoEntry) int { return strings.Compare(a.key, b.key) })
	return ents
}

// rangeLimits are the entries and bytes of one range.
func (s *Store) rangeLimits() (int, int) {
	n, b := s.rangeEntries, s.rangeBytes
	if n == 0 {
		n = defRangeEntries
	}
	if b == 0 {
		b = defRangeBytes
	}
	return n, b
}

// nextRange returns the length of the range that starts ents.
func (s *Store) nextRange(ents []redoEntry) int {
	maxN, maxB := s.rangeLimits()
	size := 0
	for i, e := range ents {
		size += len(e.key) + len(e.val)
		if i+1 >= maxN || size >= maxB {
			return i + 1
		}
	}
	return len(ents)
}

// commitEntries commits ents and the folded sync log generation fold (0:
// none). REQUIRES: wmu held.
func (s *Store) commitEntries(ents []redoEntry, fold uint64) error {
	if s.nextRange(ents) == len(ents) || s.redoF == nil {
		return mapErr(s.db.Update(func(tx *bolt.Tx) error {
			return s.apply(tx, ents, fold, 0)
		}))
	}
	h := redoHeader{gen: s.redoGen + 1, fold: fold}
	s.redoPending = true // from here the file may hold a complete record
	if err := s.writeRedo(ents, h); err != nil {
		return fmt.Errorf("storage/boltdb: redo record: %w", err)
	}
	s.redoGen = h.gen
	if err := s.step(0); err != nil {
		return err
	}
	for i := 1; len(ents) != 0; i++ {
		n := s.nextRange(ents)
		last := n == len(ents)
		err := mapErr(s.db.Update(func(tx *bolt.Tx) error {
			if last {
				return s.apply(tx, ents[:n], h.fold, h.gen)
			}
			return s.apply(tx, ents[:n], 0, 0)
		}))
		if err != nil {
			return err
		}
		ents = ents[n:]
		if err := s.step(i); err != nil {
			return err
		}
	}
	s.redoPending = false
	return nil
}

// step calls the test hook after the redo write (0) and each range.
func (s *Store) step(i int) error {
	if s.afterStep == nil {
		return nil
	}
	return s.afterStep(i)
}

// writeRedo streams ents to the redo file as record h and syncs it.
func (s *Store) writeRedo(ents []redoEntry, h redoHeader) error {
	if err := s.redoW.begin(s.redoF, s.id, h); err != nil {
		return err
	}
	for _, e := range ents {
		if err := s.redoW.add(e); err != nil {
			return err
		}
	}
	return s.redoW.finish()
}

// apply writes ents in tx, then the folded sync log generation fold and
// the completed redo generation redo (each when not 0).
func (s *Store) apply(tx *bolt.Tx, ents []redoEntry, fold, redo uint64) error {
	b := tx.Bucket(Bucket)
	if s.fillPercent != 0 {
		b.FillPercent = s.fillPercent
	}
	for _, e := range ents {
		// bbolt copies the key it keeps, so the map's own bytes do.
		k := unsafe.Slice(unsafe.StringData(e.key), len(e.key))
		var err error
		if e.del {
			err = b.Delete(k)
		} else {
			err = b.Put(k, e.val)
		}
		if err != nil {
			return err
		}
	}
	if fold != 0 {
		if err := tx.Bucket(synclogBucket).Put(foldedKey, binary.BigEndian.AppendUint64(nil, fold)); err != nil {
			return err
		}
	}
	if redo != 0 {
		return tx.Bucket(synclogBucket).Put(redoKey, binary.BigEndian.AppendUint64(nil, redo))
	}
	return nil
}

// finishRedo completes the record of a change set whose ranges failed
// part way (an I/O error, not a crash), before any other write could be
// overwritten by its replay at the next Open. REQUIRES: wmu held.
func (s *Store) finishRedo() error {
	if !s.redoPending {
		return nil
	}
	fold, err := s.replayRedo()
	if err != nil {
		return err
	}
	s.redoPending = false
	if fold != 0 && s.log != nil {
		return s.log.Folded(fold)
	}
	return nil
}

// redoDone reads the generation of the last completed redo record.
func (s *Store) redoDone() (uint64, error) {
	var done uint64
	err := s.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(synclogBucket); b != nil {
			if v := b.Get(redoKey); len(v) == 8 {
				done = binary.BigEndian.Uint64(v)
			}
		}
		return nil
	})
	return done, mapErr(err)
}

// pendingRedo returns the header of the complete record in the redo file
// that has not committed completely, if any.
// It also moves the next record's generation above both.
func (s *Store) pendingRedo(f *os.File) (redoHeader, bool, error) {
	done, err := s.redoDone()
	if err != nil {
		return redoHeader{}, false, err
	}
	s.redoGen = max(s.redoGen, done)
	fi, err := f.Stat()
	if err != nil {
		return redoHeader{}, false, err
	}
	h, ok, err := readRedoHeader(f, fi.Size(), s.id)
	if err != nil || !ok {
		return h, false, err
	}
	s.redoGen = max(s.redoGen, h.gen)
	return h, h.gen > done, nil
}

// replayRedo commits the record of the redo file if it is complete and
// not committed yet, range by range, and returns the sync log generation
// it folded (0: none or nothing replayed).
func (s *Store) replayRedo() (uint64, error) {
	h, pending, err := s.pendingRedo(s.redoF)
	if err != nil || !pending {
		return 0, s.wrapRedo(err)
	}
	fi, err := s.redoF.Stat()
	if err != nil {
		return 0, s.wrapRedo(err)
	}
	var (
		batch []redoEntry
		size  int
	)
	maxN, maxB := s.rangeLimits()
	flush := func(last bool) error {
		return mapErr(s.db.Update(func(tx *bolt.Tx) error {
			if last {
				return s.apply(tx, batch, h.fold, h.gen)
			}
			return s.apply(tx, batch, 0, 0)
		}))
	}
	// The ranges of the original commit (nextRange), though they need not
	// be: any split replays the same final values.
	err = readRedoEntries(s.redoF, fi.Size(), func(e redoEntry) error {
		batch = append(batch, e)
		size += len(e.key) + len(e.val)
		if len(batch) >= maxN || size >= maxB {
			if err := flush(false); err != nil {
				return err
			}
			batch, size = batch[:0], 0
		}
		return nil
	})
	if err == nil {
		err = flush(true)
	}
	if err != nil {
		return 0, s.wrapRedo(err)
	}
	return h.fold, nil
}

func (s *Store) wrapRedo(err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("storage/boltdb: replaying %s: %w", s.redoF.Name(), err)
}

// openRedo opens (creating it) the redo file of the database at dbPath
// with the id id and replays its record if a crash cut its ranges short.
// It returns the sync log generation folded by the replay (0: none).
func (s *Store) openRedo(dbPath string, id []byte) (uint64, error) {
	path := dbPath + redoSuffix
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, fmt.Errorf("redo file: %w", err)
	}
	if errors.Is(statErr, os.ErrNotExist) {
		if err := synclog.SyncDir(filepath.Dir(path)); err != nil {
			return 0, errors.Join(err, f.Close())
		}
	}
	s.redoF, s.id = f, id
	fold, err := s.replayRedo()
	if err != nil {
		s.redoF = nil
		return 0, errors.Join(err, f.Close())
	}
	return fold, nil
}

// checkRedoReadOnly refuses a read-only open of a database whose last
// change set was cut short by a crash: only a read-write open completes it.
func (s *Store) checkRedoReadOnly(dbPath string) error {
	var id []byte
	if err := s.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(synclogBucket); b != nil {
			id = slices.Clone(b.Get(idKey))
		}
		return nil
	}); err != nil || len(id) != synclog.IDLen {
		return mapErr(err)
	}
	f, err := os.Open(dbPath + redoSuffix)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	defer f.Close()
	s.id = id
	_, pending, err := s.pendingRedo(f)
	if err != nil {
		return err
	}
	if pending {
		return fmt.Errorf("%s holds a change set cut short by a crash: open the database read-write once to complete it",
			dbPath+redoSuffix)
	}
	return nil
}
