// Package synclog is a side file that makes single durable writes
// (Store.PutSync: the chain's block log) cheap for a backend whose own
// durable write is expensive or contended: the record is appended to the
// file, fdatasync'd and kept in memory, where the backend's reads find it;
// the backend folds the records into its next change set (dropping those
// the change set deletes or rewrites) together with the generation folded,
// and records of generations up to the folded one are ignored wherever
// they are read. A backend that opens finds the records a crash left above
// its folded generation with Open and folds them before Start empties the
// file.
//
// File: a header (magic, then 16 bytes naming the database, so a log left
// beside a replaced database is ignored), then records: u32 LE key length,
// u32 LE value length, u64 LE generation, key, value, u32 LE CRC-32C of
// everything before it in the record. A torn record at the end (a crash
// during an append, never acknowledged) ends the log.
//
// The LevelDB backend uses it (pkg/storage/leveldb, synclog.go); the BoltDB
// backend has the same format in its own synclog.go.
package synclog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
)

const (
	magic = "n3dsynclog1\n"
	// IDLen is the length of the database id in the header.
	IDLen   = 16
	hdrLen  = len(magic) + IDLen
	recHead = 16
	// maxRecord bounds a record read back (a block is at most a few MB;
	// this only rejects garbage lengths).
	maxRecord = 1 << 30
	// rewriteAt: after a fold the file is emptied when nothing is left to
	// fold, or rewritten with what is left once it is this large.
	rewriteAt = 64 << 20
)

// ErrClosed is returned by Put after Close.
var ErrClosed = errors.New("synclog: closed")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

type logged struct {
	val []byte
	gen uint64
}

// Log is an open side file and the records not folded yet. It is safe for
// concurrent use.
type Log struct {
	path string
	id   []byte

	// mu serializes appends, seals, cleanups and rewrites; it is held
	// across an append's fdatasync. REQUIRES for the fields below.
	mu   sync.Mutex
	f    *os.File
	size int64
	gen  uint64 // generation of the records appended now

	// omu guards over; readers take it shared and never wait for a disk
	// write.
	omu  sync.RWMutex
	over map[string]logged
}

// AppendRecord appends the encoded record to dst.
func AppendRecord(dst []byte, gen uint64, key, val []byte) []byte {
	start := len(dst)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(key)))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(val)))
	dst = binary.LittleEndian.AppendUint64(dst, gen)
	dst = append(dst, key...)
	dst = append(dst, val...)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], castagnoli))
}

// ReadRecords returns the records of raw (after the header) with a
// generation above folded, the later one of a key winning, and the
// highest generation seen (folded if none). It stops at the first record
// that is short or fails its checksum. Values alias raw.
func ReadRecords(raw []byte, folded uint64) (map[string][]byte, uint64) {
	recs := make(map[string][]byte)
	top := folded
	for len(raw) >= recHead+4 {
		kl := binary.LittleEndian.Uint32(raw)
		vl := binary.LittleEndian.Uint32(raw[4:])
		if kl == 0 || uint64(kl)+uint64(vl) > maxRecord ||
			uint64(len(raw)) < recHead+uint64(kl)+uint64(vl)+4 {
			break
		}
		n := recHead + int(kl) + int(vl)
		if crc32.Checksum(raw[:n], castagnoli) != binary.LittleEndian.Uint32(raw[n:]) {
			break
		}
		if gen := binary.LittleEndian.Uint64(raw[8:]); gen > folded {
			recs[string(raw[recHead:recHead+int(kl)])] = raw[recHead+int(kl) : n : n]
			top = max(top, gen)
		}
		raw = raw[n+4:]
	}
	return recs, top
}

// Read returns the records of the log at path written for the database
// id with a generation above folded, and the highest generation seen. A
// missing file, or one of another database, holds none.
func Read(path string, id []byte, folded uint64) (map[string][]byte, uint64, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, folded, nil
		}
		return nil, 0, fmt.Errorf("synclog: %w", err)
	}
	if len(raw) < hdrLen || string(raw[:len(magic)]) != magic || string(raw[len(magic):hdrLen]) != string(id) {
		return nil, folded, nil
	}
	recs, top := ReadRecords(raw[hdrLen:], folded)
	return recs, top, nil
}

// Start opens (creating it) the log at path for the database id, empties
// it and appends from generation top+1. The records of the file must have
// been folded first (Read).
func Start(path string, id []byte, top uint64) (*Log, error) {
	if len(id) != IDLen {
		return nil, fmt.Errorf("synclog: id of %d bytes, want %d", len(id), IDLen)
	}
	l := &Log{path: path, id: id, gen: top + 1, over: make(map[string]logged)}
	var err error
	if l.f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600); err != nil {
		return nil, fmt.Errorf("synclog: %w", err)
	}
	if err := l.reset(); err != nil {
		return nil, errors.Join(err, l.f.Close())
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return nil, errors.Join(err, l.f.Close())
	}
	return l, nil
}

// reset empties the file down to its header and syncs it. REQUIRES: mu
// held (or l not shared yet).
func (l *Log) reset() error {
	if err := l.f.Truncate(0); err != nil {
		return fmt.Errorf("synclog: %w", err)
	}
	hdr := append([]byte(magic), l.id...)
	if _, err := l.f.WriteAt(hdr, 0); err != nil {
		return fmt.Errorf("synclog: %w", err)
	}
	if err := l.f.Sync(); err != nil {
		return fmt.Errorf("synclog: %w", err)
	}
	l.size = int64(len(hdr))
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("synclog: %w", err)
	}
	return errors.Join(d.Sync(), d.Close())
}

// Put appends key's record durably and makes it visible to Get. value is
// kept, not copied, until the record is folded: the caller must not
// modify it (the chain's block log hands over a block's fresh encoding,
// so a block is held once, not twice). A failed append is cut off again
// (it was never acknowledged).
func (l *Log) Put(key, value []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return ErrClosed
	}
	n, err := l.append(key, value)
	if err == nil {
		err = fdatasync(l.f)
	}
	if err != nil {
		return errors.Join(fmt.Errorf("synclog: %w", err), l.f.Truncate(l.size))
	}
	l.size += n
	if value == nil {
		value = []byte{} // a stored empty value, as read back from the file
	}
	l.omu.Lock()
	l.over[string(key)] = logged{val: value[:len(value):len(value)], gen: l.gen}
	l.omu.Unlock()
	return nil
}

// append writes key's record at the end of the file, without copying
// value: the head (lengths, generation, key), the value and the checksum
// go out in three writes, which a torn append leaves as a record that
// fails its length or checksum, like a torn single write. It returns the
// record's length. REQUIRES: mu held.
func (l *Log) append(key, value []byte) (int64, error) {
	head := make([]byte, 0, recHead+len(key)+4)
	head = binary.LittleEndian.AppendUint32(head, uint32(len(key)))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(value)))
	head = binary.LittleEndian.AppendUint64(head, l.gen)
	head = append(head, key...)
	sum := crc32.Update(crc32.Checksum(head, castagnoli), castagnoli, value)
	tail := binary.LittleEndian.AppendUint32(head[len(head):], sum)
	off := l.size
	for _, part := range [][]byte{head, value, tail} {
		if _, err := l.f.WriteAt(part, off); err != nil {
			return 0, err
		}
		off += int64(len(part))
	}
	return off - l.size, nil
}

// Get returns the logged value of key, if any (not a copy: read only).
func (l *Log) Get(key []byte) ([]byte, bool) {
	l.omu.RLock()
	e, ok := l.over[string(key)]
	l.omu.RUnlock()
	return e.val, ok
}

// Pending reports whether any record is waiting to be folded.
func (l *Log) Pending() bool {
	l.omu.RLock()
	defer l.omu.RUnlock()
	return len(l.over) != 0
}

// Overlaps reports whether a record not folded yet lies in [lo, hi) (hi
// nil: no upper bound).
func (l *Log) Overlaps(lo, hi []byte) bool {
	l.omu.RLock()
	defer l.omu.RUnlock()
	for k := range l.over {
		if k >= string(lo) && (hi == nil || k < string(hi)) {
			return true
		}
	}
	return false
}

// Seal starts a new generation and returns the records of the earlier
// ones (the map is the caller's, the values are not copies) with the
// last of those generations; records appended from now on are not part
// of the fold. It returns nil when nothing is pending. The caller folds
// sealed generations in order (under its own writer lock).
func (l *Log) Seal() (map[string][]byte, uint64) {
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

// Folded forgets the records of generations up to g, committed durably by
// the backend, and empties the file when nothing is left (or rewrites it
// when what is left is small and the file large).
func (l *Log) Folded(g uint64) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.omu.Lock()
	live := 0
	for k, e := range l.over {
		if e.gen <= g {
			delete(l.over, k)
		} else {
			live += len(k) + len(e.val) + recHead + 4
		}
	}
	l.omu.Unlock()
	if l.f == nil {
		return nil
	}
	switch {
	case live == 0:
		return l.reset()
	case l.size >= rewriteAt && int64(live) < l.size/2:
		return l.rewrite()
	}
	return nil
}

// rewrite replaces the file by one holding only the records not folded.
// REQUIRES: mu held.
func (l *Log) rewrite() error {
	buf := append([]byte(magic), l.id...)
	l.omu.RLock()
	for k, e := range l.over {
		buf = AppendRecord(buf, e.gen, []byte(k), e.val)
	}
	l.omu.RUnlock()
	tmp := l.path + ".tmp"
	if err := os.WriteFile(tmp, buf, 0o600); err != nil {
		return fmt.Errorf("synclog: %w", err)
	}
	f, err := os.OpenFile(tmp, os.O_RDWR, 0o600)
	if err != nil {
		return fmt.Errorf("synclog: %w", err)
	}
	if err := errors.Join(f.Sync(), os.Rename(tmp, l.path), syncDir(filepath.Dir(l.path))); err != nil {
		return errors.Join(fmt.Errorf("synclog: %w", err), f.Close())
	}
	old := l.f
	l.f, l.size = f, int64(len(buf))
	return old.Close()
}

// Close closes the file; records not folded stay in it for the next Open.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// Fdatasync flushes f's data and size (fdatasync(2) where known, else
// f.Sync), for the backends' other side files.
func Fdatasync(f *os.File) error { return fdatasync(f) }

// SyncDir makes the entries of the directory dir durable.
func SyncDir(dir string) error { return syncDir(dir) }
