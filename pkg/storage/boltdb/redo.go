package boltdb

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/n3d-io/n3d/pkg/storage/internal/synclog"
	bolt "go.etcd.io/bbolt"
)

// The redo file lets a large change set commit as several bbolt
// transactions (commit.go) and still be all-or-nothing after a crash.
// bbolt keeps a node and a fresh dirty page for every leaf page a
// transaction touches until it commits, ~2.3 KB per random key: one
// transaction for a second of blocks held some 40 MB of heap at its
// commit (docs/benchmarks-storage.md). Before its first range the change
// set is streamed to FilePath+".redo" and fdatasync'd; the ranges commit
// in key order, the last one also writing the record's generation under
// redoKey (synclogBucket); Open replays a complete record whose generation
// is above it (final values: replaying twice is harmless).
//
// File: a header (magic, the database id as in the sync log, the record's
// generation u64 LE, the sync log generation the change set folds u64 LE,
// 0 for none, CRC-32C u32 LE of the header), then one entry per key in
// ascending key order: kind (redoPut or redoDel), u32 LE key length, u32 LE
// value length (0 for a delete), key, value, CRC-32C u32 LE of the entry;
// then a trailer: redoEnd, u64 LE entry count, CRC-32C u32 LE of all the
// entries' bytes, CRC-32C u32 LE of the trailer's first 13 bytes. The
// entries are fdatasync'd before the trailer is written (and synced), so a
// valid trailer means the entries reached the disk: a file without one is
// a torn write (no range committed yet) and is ignored, while an entry
// that fails to decode below a valid trailer is corruption.

const (
	redoMagic   = "n3dboltredo\n"
	redoSuffix  = ".redo"
	redoHdrLen  = len(redoMagic) + synclog.IDLen + 8 + 8 + 4
	redoEntHead = 1 + 4 + 4
	redoTrlLen  = 1 + 8 + 4 + 4

	redoPut byte = 1
	redoDel byte = 2
	redoEnd byte = 0xff

	// maxRedoKey and maxRedoValue bound an entry read back: bbolt's own
	// limits, which PutChangeSet checks before writing a record.
	maxRedoKey   = bolt.MaxKeySize
	maxRedoValue = bolt.MaxValueSize
)

// redoKey in synclogBucket holds the generation (u64 BE) of the last redo
// record whose change set committed completely.
var redoKey = []byte("redo")

var redoCRC = crc32.MakeTable(crc32.Castagnoli)

// errRedoCorrupt marks a complete redo record that fails to decode.
var errRedoCorrupt = fmt.Errorf("%w: redo record", kv.ErrCorrupted)

// redoHeader is what a redo record's header says.
type redoHeader struct {
	gen  uint64 // the record's generation
	fold uint64 // the sync log generation folded with it (0: none)
}

// redoEntry is one key of a change set: its final value, or its deletion.
type redoEntry struct {
	key string
	val []byte
	del bool
}

// redoWriter streams one record into the redo file through a small
// buffer.
type redoWriter struct {
	f     *os.File
	bw    *bufio.Writer
	sum   uint32 // CRC-32C of the entries so far
	count uint64
	buf   []byte
}

// begin empties f and writes the header of record h.
func (w *redoWriter) begin(f *os.File, id []byte, h redoHeader) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	w.f, w.sum, w.count = f, 0, 0
	if w.bw == nil {
		w.bw = bufio.NewWriterSize(f, 64<<10)
	} else {
		w.bw.Reset(f)
	}
	hdr := appendRedoHeader(w.buf[:0], id, h)
	w.buf = hdr
	_, err := w.bw.Write(hdr)
	return err
}

// add writes one entry.
func (w *redoWriter) add(e redoEntry) error {
	head := w.buf[:0]
	kind := redoPut
	if e.del {
		kind = redoDel
	}
	head = append(head, kind)
	head = binary.LittleEndian.AppendUint32(head, uint32(len(e.key)))
	head = binary.LittleEndian.AppendUint32(head, uint32(len(e.val)))
	head = append(head, e.key...)
	sum := crc32.Update(crc32.Checksum(head, redoCRC), redoCRC, e.val)
	w.buf = head
	tail := binary.LittleEndian.AppendUint32(head[len(head):], sum)
	for _, part := range [][]byte{head, e.val, tail} {
		if _, err := w.bw.Write(part); err != nil {
			return err
		}
		w.sum = crc32.Update(w.sum, redoCRC, part)
	}
	w.count++
	return nil
}

// finish syncs the entries, then writes and syncs the trailer.
func (w *redoWriter) finish() error {
	if err := w.bw.Flush(); err != nil {
		return err
	}
	if err := synclog.Fdatasync(w.f); err != nil {
		return err
	}
	if _, err := w.f.Write(appendRedoTrailer(w.buf[:0], w.count, w.sum)); err != nil {
		return err
	}
	return synclog.Fdatasync(w.f)
}

func appendRedoHeader(dst, id []byte, h redoHeader) []byte {
	start := len(dst)
	dst = append(dst, redoMagic...)
	dst = append(dst, id...)
	dst = binary.LittleEndian.AppendUint64(dst, h.gen)
	dst = binary.LittleEndian.AppendUint64(dst, h.fold)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], redoCRC))
}

func appendRedoTrailer(dst []byte, count uint64, sum uint32) []byte {
	start := len(dst)
	dst = append(dst, redoEnd)
	dst = binary.LittleEndian.AppendUint64(dst, count)
	dst = binary.LittleEndian.AppendUint32(dst, sum)
	return binary.LittleEndian.AppendUint32(dst, crc32.Checksum(dst[start:], redoCRC))
}

// readRedoHeader decodes the header of the record in r (size bytes) for
// the database id. ok is false when there is no complete record of this
// database: a short or foreign file, or a torn write (no valid trailer).
func readRedoHeader(r io.ReaderAt, size int64, id []byte) (h redoHeader, ok bool, err error) {
	if size < int64(redoHdrLen+redoTrlLen) {
		return h, false, nil
	}
	var hdr [redoHdrLen]byte
	if _, err := r.ReadAt(hdr[:], 0); err != nil {
		return h, false, err
	}
	n := redoHdrLen - 4
	if string(hdr[:len(redoMagic)]) != redoMagic || string(hdr[len(redoMagic):len(redoMagic)+len(id)]) != string(id) ||
		crc32.Checksum(hdr[:n], redoCRC) != binary.LittleEndian.Uint32(hdr[n:]) {
		return h, false, nil
	}
	var trl [redoTrlLen]byte
	if _, err := r.ReadAt(trl[:], size-redoTrlLen); err != nil {
		return h, false, err
	}
	if trl[0] != redoEnd || crc32.Checksum(trl[:redoTrlLen-4], redoCRC) != binary.LittleEndian.Uint32(trl[redoTrlLen-4:]) {
		return h, false, nil
	}
	off := len(redoMagic) + synclog.IDLen
	h.gen = binary.LittleEndian.Uint64(hdr[off:])
	h.fold = binary.LittleEndian.Uint64(hdr[off+8:])
	return h, true, nil
}

// readRedoEntries streams the entries of the complete record in r (size
// bytes, its header and trailer checked by readRedoHeader) to fn in file
// order. Every entry is bounded by what is left of the file; one that
// fails to decode, or entries that disagree with the trailer, are
// errRedoCorrupt. The entries' slices are fresh.
func readRedoEntries(r io.ReaderAt, size int64, fn func(redoEntry) error) error {
	var trl [redoTrlLen]byte
	if _, err := r.ReadAt(trl[:], size-redoTrlLen); err != nil {
		return err
	}
	wantCount := binary.LittleEndian.Uint64(trl[1:])
	wantSum := binary.LittleEndian.Uint32(trl[9:])
	left := size - redoTrlLen - int64(redoHdrLen)
	br := bufio.NewReaderSize(io.NewSectionReader(r, int64(redoHdrLen), left), 64<<10)
	var (
		sum   uint32
		count uint64
		head  [redoEntHead]byte
		tail  [4]byte
	)
	for left > 0 {
		if left < redoEntHead+4 {
			return fmt.Errorf("%w: entry %d: %d bytes left", errRedoCorrupt, count, left)
		}
		if _, err := io.ReadFull(br, head[:]); err != nil {
			return err
		}
		kind := head[0]
		kl := binary.LittleEndian.Uint32(head[1:])
		vl := binary.LittleEndian.Uint32(head[5:])
		if (kind != redoPut && kind != redoDel) || kl == 0 || kl > maxRedoKey || vl > maxRedoValue ||
			(kind == redoDel && vl != 0) || int64(redoEntHead)+int64(kl)+int64(vl)+4 > left {
			return fmt.Errorf("%w: entry %d: bad head", errRedoCorrupt, count)
		}
		body := make([]byte, int(kl)+int(vl))
		if _, err := io.ReadFull(br, body); err != nil {
			return err
		}
		if _, err := io.ReadFull(br, tail[:]); err != nil {
			return err
		}
		esum := crc32.Update(crc32.Checksum(head[:], redoCRC), redoCRC, body)
		if esum != binary.LittleEndian.Uint32(tail[:]) {
			return fmt.Errorf("%w: entry %d: checksum", errRedoCorrupt, count)
		}
		sum = crc32.Update(crc32.Update(crc32.Update(sum, redoCRC, head[:]), redoCRC, body), redoCRC, tail[:])
		left -= int64(redoEntHead) + int64(len(body)) + 4
		count++
		e := redoEntry{key: string(body[:kl]), del: kind == redoDel}
		if !e.del {
			e.val = body[kl:len(body):len(body)]
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	if count != wantCount || sum != wantSum {
		return fmt.Errorf("%w: %d entries, trailer says %d", errRedoCorrupt, count, wantCount)
	}
	return nil
}
