package boltdb

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
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
// A fold that leaves nothing to fold rewinds the log instead of
// truncating it: the next record overwrites the first one in place. The
// file keeps its size and its blocks, so an append that stays inside them
// changes no metadata and its fdatasync writes the record's own pages
// only. An append that grows the file (or follows a truncation) needs a
// journal commit, which on ext4 (data=ordered) also writes out the blocks
// other files allocated meanwhile: bbolt's commit in progress, tens of MB
// under load. The records left after the new tail are of folded
// generations, so reading skips them; a record cut short at the tail
// fails its checksum, whatever old bytes follow it.
//
// Record: u32 LE key length, u32 LE value length, u64 LE generation, key,
// value, u32 LE CRC-32C of everything before it in the record. A torn
// record at the end (a crash during the append, which was never
// acknowledged) ends the log.

// synclogBucket is the bucket of the sync log's bookkeeping, beside the
// DB bucket that holds the data.
var synclogBucket = []byte("n3d-synclog")

var (
	foldedKey = []byte("folded") // u64 BE: the last generation folded
	idKey     = []byte("id")     // 16 random bytes, also in the log's header
)

const (
	synclogSuffix  = ".synclog"
	synclogMagic   = "n3dsynclog1\n"
	synclogHdrLen  = len(synclogMagic) + 16
	synclogRecHead = 16
	// synclogMaxRecord bounds a record read back (a block is at most
	// a few MB; this only rejects garbage lengths).
	synclogMaxRecord = 1 << 30
	// synclogRewriteAt: after a fold the file is rewound when nothing is
	// left to fold (emptied when it grew past this size), or rewritten
	// with what is left once it is this large.
	synclogRewriteAt = 64 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// logged is a value written by PutSync and not folded into bbolt yet.
type logged struct {
	val []byte
	gen uint64
}

// synclog is the open side file and the records not folded yet.
type synclog struct {
	path string
	id   []byte

	// mu serializes appends, folds' seal and cleanup and rewrites; it is
	// held across an append's fdatasync. REQUIRES for the fields below.
	mu   sync.Mutex
	f    *os.File
	size int64  // where the next record goes
	ext  int64  // the file's size: records of folded generations may lie between size and ext
	gen  uint64 // generation of the records appended now

	// omu guards over, the records not folded yet; readers (Get) take it
	// shared and never wait for a disk write.
	omu  sync.RWMutex
	over map[string]logged
}

// synclogRecord appends the encoded record to dst.
func synclogRecord(dst []byte, gen uint64, key, val []byte) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(key)))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(val)))
	dst = binary.LittleEndian.AppendUint64(dst, gen)
	dst = append(dst, key...)
	dst = append(dst, val...)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// readSynclog returns the records of raw (after the header) with a
// generation above folded, the later one of a key winning, and the
// highest generation seen. It stops at the first record that is short or
// fails its checksum.
func readSynclog(raw []byte, folded uint64) (map[string][]byte, uint64) {
	recs := make(map[string][]byte)
	top := folded
	for len(raw) >= synclogRecHead+4 {
		kl := binary.LittleEndian.Uint32(raw)
		vl := binary.LittleEndian.Uint32(raw[4:])
		if kl == 0 || uint64(kl)+uint64(vl) > synclogMaxRecord ||
			uint64(len(raw)) < synclogRecHead+uint64(kl)+uint64(vl)+4 {
			break
		}
		n := synclogRecHead + int(kl) + int(vl)
		if crc32.Checksum(raw[:n], castagnoli) != binary.LittleEndian.Uint32(raw[n:]) {
			break
		}
		gen := binary.LittleEndian.Uint64(raw[8:])
		if gen > folded {
			recs[string(raw[synclogRecHead:synclogRecHead+int(kl)])] = raw[synclogRecHead+int(kl) : n : n]
			top = max(top, gen)
		}
		raw = raw[n+4:]
	}
	return recs, top
}

// openSynclog opens (creating it) the sync log of s, folds the records it
// holds above the folded generation into bbolt and empties it.
func (s *Store) openSynclog(dbPath string) error {
	l := &synclog{path: dbPath + synclogSuffix, over: make(map[string]logged)}
	var folded uint64
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(synclogBucket)
		if err != nil {
			return err
		}
		if v := b.Get(foldedKey); len(v) == 8 {
			folded = binary.BigEndian.Uint64(v)
		}
		if l.id = bytes.Clone(b.Get(idKey)); len(l.id) != 16 {
			l.id = make([]byte, 16)
			if _, err := rand.Read(l.id); err != nil {
				return err
			}
			return b.Put(idKey, l.id)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("sync log: %w", mapErr(err))
	}
	raw, err := os.ReadFile(l.path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("sync log: %w", err)
	}
	top := folded
	if len(raw) >= synclogHdrLen && string(raw[:len(synclogMagic)]) == synclogMagic &&
		bytes.Equal(raw[len(synclogMagic):synclogHdrLen], l.id) {
		var recs map[string][]byte
		recs, top = readSynclog(raw[synclogHdrLen:], folded)
		if len(recs) != 0 {
			if err := s.db.Update(func(tx *bolt.Tx) error { return foldInto(tx, recs, top) }); err != nil {
				return fmt.Errorf("sync log: folding %d records: %w", len(recs), mapErr(err))
			}
		}
	}
	l.gen = top + 1
	if l.f, err = os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		return fmt.Errorf("sync log: %w", err)
	}
	if err := l.reset(); err != nil {
		return errors.Join(err, l.f.Close())
	}
	if err := syncDir(filepath.Dir(l.path)); err != nil {
		return errors.Join(err, l.f.Close())
	}
	s.log = l
	return nil
}

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

// reset empties the file down to its header and syncs it. REQUIRES: mu
// held (or l not shared yet).
func (l *synclog) reset() error {
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("sync log: %w", err)
	}
	hdr := append([]byte(synclogMagic), l.id...)
	if _, err := l.f.WriteAt(hdr, 0); err != nil {
		return fmt.Errorf("sync log: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("sync log: %w", err)
	}
	l.size = int64(len(hdr))
	l.ext = l.size
	return nil
}

// rewind makes the next record overwrite the first one, keeping the
// file's blocks (see the top of this file); a file grown past
// synclogRewriteAt is emptied instead. Nothing is written: every record
// in the file is of a folded generation. REQUIRES: mu held, no record
// left to fold.
func (l *synclog) rewind() error {
	if l.ext > synclogRewriteAt {
		return l.reset()
	}
	l.size = int64(synclogHdrLen)
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("sync log: %w", err)
	}
	return errors.Join(d.Sync(), d.Close())
}

// put appends key's record durably and makes it visible to get.
func (l *synclog) put(key, value []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return kv.ErrClosed
	}
	rec := synclogRecord(nil, l.gen, key, value)
	if _, err := l.f.WriteAt(rec, l.size); err != nil {
		return errors.Join(fmt.Errorf("sync log: %w", err), l.truncate())
	}
	if err := fdatasync(l.f); err != nil {
		return errors.Join(fmt.Errorf("sync log: %w", err), l.truncate())
	}
	l.size += int64(len(rec))
	l.ext = max(l.ext, l.size)
	val := rec[synclogRecHead+len(key) : len(rec)-4 : len(rec)-4]
	l.omu.Lock()
	l.over[string(key)] = logged{val: val, gen: l.gen}
	l.omu.Unlock()
	return nil
}

// truncate cuts the file after the last acknowledged record (a failed
// append). REQUIRES: mu held.
func (l *synclog) truncate() error {
	if err := l.f.Truncate(l.size); err != nil {
		return err
	}
	l.ext = l.size
	return nil
}

// get returns the logged value of key, if any (not a copy).
func (l *synclog) get(key []byte) ([]byte, bool) {
	l.omu.RLock()
	e, ok := l.over[string(key)]
	l.omu.RUnlock()
	return e.val, ok
}

// has reports whether key has a record not folded yet.
func (l *synclog) has(key []byte) bool {
	_, ok := l.get(key)
	return ok
}

// pending reports whether any record is waiting to be folded.
func (l *synclog) pending() bool {
	l.omu.RLock()
	defer l.omu.RUnlock()
	return len(l.over) != 0
}

// overlaps reports whether a record not folded yet lies in [lo, hi).
func (l *synclog) overlaps(lo, hi []byte) bool {
	l.omu.RLock()
	defer l.omu.RUnlock()
	for k := range l.over {
		if k >= string(lo) && (hi == nil || k < string(hi)) {
			return true
		}
	}
	return false
}

// seal starts a new generation and returns the records of the earlier
// ones with the last of them; records appended from now on are not part
// of the fold.
func (l *synclog) seal() (map[string][]byte, uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.omu.RLock()
	defer l.omu.RUnlock()
	if len(l.over) == 0 {
		return nil, 0
	}
	recs := make(map[string][]byte, len(l.over))
	for k, e := range l.over {
		recs[k] = e.val
	}
	g := l.gen
	l.gen++
	return recs, g
}

// folded forgets the records of generations up to g, committed to bbolt,
// and rewinds the file when nothing is left (or rewrites it when what is
// left is small and the file large).
func (l *synclog) folded(g uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.omu.Lock()
	live := 0
	for k, e := range l.over {
		if e.gen <= g {
			delete(l.over, k)
		} else {
			live += len(k) + len(e.val) + synclogRecHead + 4
		}
	}
	l.omu.Unlock()
	if l.f == nil {
		return nil
	}
	switch {
	case live == 0:
		return l.rewind()
	case l.size >= synclogRewriteAt && int64(live) < l.size/2:
		return l.rewrite()
	}
	return nil
}

// rewrite replaces the file by one holding only the records not folded.
// REQUIRES: mu held.
func (l *synclog) rewrite() error {
	buf := append([]byte(synclogMagic), l.id...)
	l.omu.RLock()
	for k, e := range l.over {
		buf = synclogRecord(buf, e.gen, []byte(k), e.val)
	}
	l.omu.RUnlock()
	tmp := l.path + ".tmp"
	if err := os.WriteFile(tmp, buf, 0o600); err != nil {
		return fmt.Errorf("sync log: %w", err)
	}
	f, err := os.OpenFile(tmp, os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("sync log: %w", err)
	}
	if err := errors.Join(f.Sync(), os.Rename(tmp, l.path), syncDir(filepath.Dir(l.path))); err != nil {
		return errors.Join(fmt.Errorf("sync log: %w", err), f.Close())
	}
	old := l.f
	l.f, l.size, l.ext = f, int64(len(buf)), int64(len(buf))
	return old.Close()
}

// close closes the file; records not folded stay in it for the next Open.
func (l *synclog) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
