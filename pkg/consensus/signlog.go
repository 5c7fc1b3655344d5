package consensus

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
)

// SignLog is where a validator records the consensus messages it signs,
// durably, before they leave the node: its own PrepareRequest,
// PrepareResponse, ChangeView and Commit payloads, and the payloads of
// other validators they rest on (the proposal it answered, the change
// views that brought it to the view). After a restart the service reads
// the entries of the height it resumes and neither signs a message that
// conflicts with them nor proposes a different block (see
// docs/consensus.md, "Consensus state on disk"). The reference DBFTPlugin
// keeps its consensus context on disk the same way (RecoveryLogs).
type SignLog interface {
	// Append records entries of height h. When it returns nil they are on
	// stable storage; on an error the service sends nothing.
	Append(h uint32, entries ...LogEntry) error
	// Entries returns the entries recorded for height h, oldest first. The
	// slice and the data are not modified by the caller.
	Entries(h uint32) []LogEntry
	// Prune forgets the heights below h.
	Prune(h uint32) error
}

// LogEntry is one payload of a SignLog.
type LogEntry struct {
	// Own is set for a payload this node signed.
	Own bool
	// Data is the extensible payload, encoded with its witness.
	Data []byte
}

// The sign log file: an 8-byte magic, then records appended one after
// the other, each fsynced before Append returns.
//
//	"n3dsign1"
//	record: u32 LE n | u32 LE CRC-32C of body | body (n bytes)
//	body:   u32 LE height | u8 flags (bit 0: own) | payload (n-5 bytes)
//
// A record cut short or with a bad checksum ends the log (a write the
// crash interrupted, never acknowledged): Open truncates it away.
const (
	signLogMagic     = "n3dsign1"
	signLogHeader    = 8
	signLogRecHeader = 8
	signLogBodyFixed = 5
	// maxSignLogEntry bounds a record: a PrepareRequest of 65535 hashes is
	// about 2 MiB.
	maxSignLogEntry = 4 << 20
	// signLogSlack is how many bytes of pruned records the file may hold
	// before Prune rewrites it, at least: it may hold as many as it keeps
	// (see Prune).
	signLogSlack = 64 << 10
)

var (
	castagnoli = crc32.MakeTable(crc32.Castagnoli)

	errSignLogFormat = errors.New("consensus: not a sign log")
	errSignLogRecord = errors.New("consensus: bad sign log record")
	errSignLogBroken = errors.New("consensus: sign log unusable after a failed write")
)

// FileSignLog is a SignLog in one append-only file. It is safe for
// concurrent use. Only where each record lies is kept in memory: the
// payloads (a PrepareRequest of a full block is a few hundred KiB, and
// signLogKeep heights are kept) are read back from the file by Entries,
// which the service calls once per height it enters, and which finds
// nothing to read for a height it has not signed at yet.
type FileSignLog struct {
	path string

	mu struct {
		sync.Mutex
		f       *os.File
		size    int64 // bytes of valid records, the file's length
		live    int64 // bytes of the records of kept heights
		heights map[uint32][]signLogLoc
		sizes   map[uint32]int64 // bytes on disk per height
		broken  error            // set when a failed write could not be undone or a record not read back
	}
}

// signLogLoc is where a record of a kept height lies in the file.
type signLogLoc struct {
	off int64  // of the record header
	n   uint32 // body length
}

var _ SignLog = (*FileSignLog)(nil)

// OpenSignLog opens (or creates) the sign log at path, reads its records
// and drops a torn last record.
func OpenSignLog(path string) (*FileSignLog, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("consensus: sign log: %w", err)
	}
	l := &FileSignLog{path: path}
	l.mu.f = f
	if err := l.load(); err != nil {
		return nil, errors.Join(err, f.Close())
	}
	return l, nil
}

// load reads the file into memory, writing the magic into an empty file
// and truncating what follows the last whole record.
func (l *FileSignLog) load() error {
	f := l.mu.f
	st, err := f.Stat()
	if err != nil {
		return fmt.Errorf("consensus: sign log: %w", err)
	}
	if st.Size() < signLogHeader {
		if err := f.Truncate(0); err != nil {
			return fmt.Errorf("consensus: sign log: %w", err)
		}
		if _, err := f.WriteAt([]byte(signLogMagic), 0); err != nil {
			return fmt.Errorf("consensus: sign log: %w", err)
		}
		if err := syncFileAndDir(f, l.path); err != nil {
			return err
		}
		l.reset(signLogHeader)
		return nil
	}
	recs, end, err := readSignLog(bufio.NewReader(io.NewSectionReader(f, 0, st.Size())))
	if err != nil {
		return fmt.Errorf("consensus: sign log %s: %w", l.path, err)
	}
	if end < st.Size() {
		if err := f.Truncate(end); err != nil {
			return fmt.Errorf("consensus: sign log: dropping a torn record: %w", err)
		}
		if err := f.Sync(); err != nil {
			return fmt.Errorf("consensus: sign log: %w", err)
		}
	}
	l.reset(end)
	off := int64(signLogHeader)
	for _, r := range recs {
		n := uint32(signLogBodyFixed + len(r.entry.Data))
		l.add(r.height, signLogLoc{off: off, n: n})
		off += signLogRecHeader + int64(n)
	}
	return nil
}

func (l *FileSignLog) reset(size int64) {
	l.mu.size, l.mu.live = size, 0
	l.mu.heights = map[uint32][]signLogLoc{}
	l.mu.sizes = map[uint32]int64{}
}

func (l *FileSignLog) add(h uint32, loc signLogLoc) {
	n := signLogRecHeader + int64(loc.n)
	l.mu.heights[h] = append(l.mu.heights[h], loc)
	l.mu.sizes[h] += n
	l.mu.live += n
}

type signLogRecord struct {
	height uint32
	entry  LogEntry
}

// readSignLog decodes a sign log: the records and the offset just past
// the last whole one. Only a bad magic is an error: a bad record ends
// the log.
func readSignLog(r io.Reader) ([]signLogRecord, int64, error) {
	var magic [signLogHeader]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil || string(magic[:]) != signLogMagic {
		return nil, 0, errSignLogFormat
	}
	var recs []signLogRecord
	end := int64(signLogHeader)
	for {
		rec, n, err := readSignLogRecord(r)
		if err != nil {
			return recs, end, nil
		}
		recs = append(recs, rec)
		end += n
	}
}

func readSignLogRecord(r io.Reader) (signLogRecord, int64, error) {
	var hdr [signLogRecHeader]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return signLogRecord{}, 0, err
	}
	n := binary.LittleEndian.Uint32(hdr[0:])
	if n < signLogBodyFixed || n > maxSignLogEntry+signLogBodyFixed {
		return signLogRecord{}, 0, fmt.Errorf("%w: length %d", errSignLogRecord, n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		return signLogRecord{}, 0, err
	}
	if crc32.Checksum(body, castagnoli) != binary.LittleEndian.Uint32(hdr[4:]) {
		return signLogRecord{}, 0, fmt.Errorf("%w: checksum", errSignLogRecord)
	}
	return signLogRecord{height: binary.LittleEndian.Uint32(body),
		entry: LogEntry{Own: body[4]&1 != 0, Data: body[signLogBodyFixed:]}}, int64(signLogRecHeader) + int64(n), nil
}

func appendSignLogRecord(buf []byte, h uint32, e LogEntry) []byte {
	n := signLogBodyFixed + len(e.Data)
	start := len(buf)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(n))
	buf = binary.LittleEndian.AppendUint32(buf, 0) // CRC, below
	buf = binary.LittleEndian.AppendUint32(buf, h)
	var flags byte
	if e.Own {
		flags |= 1
	}
	buf = append(buf, flags)
	buf = append(buf, e.Data...)
	binary.LittleEndian.PutUint32(buf[start+4:], crc32.Checksum(buf[start+signLogRecHeader:], castagnoli))
	return buf
}

// Append implements SignLog: one write and one fsync for all entries.
func (l *FileSignLog) Append(h uint32, entries ...LogEntry) error {
	if len(entries) == 0 {
		return nil
	}
	var buf []byte
	for _, e := range entries {
		if len(e.Data) > maxSignLogEntry {
			return fmt.Errorf("%w: %d bytes", errSignLogRecord, len(e.Data))
		}
		buf = appendSignLogRecord(buf, h, e)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.broken != nil {
		return l.mu.broken
	}
	if l.mu.f == nil {
		return fmt.Errorf("consensus: sign log: %w", os.ErrClosed)
	}
	if _, err := l.mu.f.WriteAt(buf, l.mu.size); err != nil {
		return l.undoLocked(fmt.Errorf("consensus: sign log write: %w", err))
	}
	if err := l.mu.f.Sync(); err != nil {
		return l.undoLocked(fmt.Errorf("consensus: sign log sync: %w", err))
	}
	off := l.mu.size
	l.mu.size += int64(len(buf))
	for _, e := range entries {
		n := uint32(signLogBodyFixed + len(e.Data))
		l.add(h, signLogLoc{off: off, n: n})
		off += signLogRecHeader + int64(n)
	}
	return nil
}

// undoLocked cuts a failed write off the file, or marks the log broken.
func (l *FileSignLog) undoLocked(err error) error {
	if terr := l.mu.f.Truncate(l.mu.size); terr != nil {
		l.mu.broken = fmt.Errorf("%w: %w", errSignLogBroken, terr)
		return errors.Join(err, l.mu.broken)
	}
	return err
}

// Entries implements SignLog, reading the records of h back from the
// file. A record that cannot be read back as it was written (an I/O
// error, a file changed behind the node's back) breaks the log: what the
// node signed at h is then unknown, so it must sign nothing more, and
// every later Append fails.
func (l *FileSignLog) Entries(h uint32) []LogEntry {
	l.mu.Lock()
	defer l.mu.Unlock()
	locs := l.mu.heights[h]
	if len(locs) == 0 {
		return nil
	}
	if l.mu.f == nil {
		return nil
	}
	out := make([]LogEntry, 0, len(locs))
	for _, loc := range locs {
		e, err := l.readLocked(h, loc)
		if err != nil {
			if l.mu.broken == nil {
				l.mu.broken = fmt.Errorf("%w: %w", errSignLogBroken, err)
			}
			return nil
		}
		out = append(out, e)
	}
	return out
}

// readLocked reads the record at loc back and checks that it is the
// record of height h written there.
// REQUIRES: l.mu held, l.mu.f open.
func (l *FileSignLog) readLocked(h uint32, loc signLogLoc) (LogEntry, error) {
	rec, _, err := readSignLogRecord(io.NewSectionReader(l.mu.f, loc.off, signLogRecHeader+int64(loc.n)))
	if err != nil {
		return LogEntry{}, fmt.Errorf("consensus: sign log: reading the record at %d: %w", loc.off, err)
	}
	if rec.height != h {
		return LogEntry{}, fmt.Errorf("%w: record at %d is of height %d, not %d", errSignLogRecord, loc.off, rec.height, h)
	}
	return rec.entry, nil
}

// Prune implements SignLog. The file is rewritten (to a temporary file,
// then renamed over it) once the pruned records exceed both signLogSlack
// and the kept ones: a validator of full blocks (a proposal of a few
// hundred KiB a height) so rewrites its signLogKeep heights about every
// signLogKeep heights, not at every height.
func (l *FileSignLog) Prune(h uint32) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, n := range l.mu.sizes {
		if k < h {
			delete(l.mu.heights, k)
			delete(l.mu.sizes, k)
			l.mu.live -= n
		}
	}
	if l.mu.f == nil || l.mu.broken != nil || l.mu.size-signLogHeader-l.mu.live <= max(signLogSlack, l.mu.live) {
		return nil
	}
	return l.rewriteLocked()
}

// rewriteLocked writes the records of the kept heights to a new file
// that replaces the log. A record that cannot be read back fails the
// rewrite and breaks the log (see Entries).
// REQUIRES: l.mu held, l.mu.f open.
func (l *FileSignLog) rewriteLocked() error {
	buf := make([]byte, 0, signLogHeader+l.mu.live)
	buf = append(buf, signLogMagic...)
	hs := make([]uint32, 0, len(l.mu.heights))
	for k := range l.mu.heights {
		hs = append(hs, k)
	}
	slices.Sort(hs)
	moved := make(map[uint32][]signLogLoc, len(hs))
	for _, k := range hs {
		for _, loc := range l.mu.heights[k] {
			e, err := l.readLocked(k, loc)
			if err != nil {
				l.mu.broken = fmt.Errorf("%w: %w", errSignLogBroken, err)
				return l.mu.broken
			}
			moved[k] = append(moved[k], signLogLoc{off: int64(len(buf)), n: loc.n})
			buf = appendSignLogRecord(buf, k, e)
		}
	}
	tmp := l.path + ".tmp"
	if err := writeFileSync(tmp, buf); err != nil {
		return err
	}
	if err := os.Rename(tmp, l.path); err != nil {
		return fmt.Errorf("consensus: sign log: %w", err)
	}
	f, err := os.OpenFile(l.path, os.O_RDWR, 0)
	if err != nil {
		l.mu.broken = fmt.Errorf("%w: %w", errSignLogBroken, err)
		return l.mu.broken
	}
	old := l.mu.f
	l.mu.f, l.mu.size, l.mu.heights = f, int64(len(buf)), moved
	return errors.Join(syncDir(l.path), old.Close())
}

// Close closes the file; later Appends fail.
func (l *FileSignLog) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.mu.f == nil {
		return nil
	}
	err := l.mu.f.Close()
	l.mu.f = nil
	return err
}

func writeFileSync(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("consensus: sign log: %w", err)
	}
	_, err = io.Copy(f, bytes.NewReader(data))
	if err == nil {
		err = f.Sync()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return fmt.Errorf("consensus: sign log: %w", err)
	}
	return nil
}

func syncFileAndDir(f *os.File, path string) error {
	if err := f.Sync(); err != nil {
		return fmt.Errorf("consensus: sign log: %w", err)
	}
	return syncDir(path)
}

// syncDir makes a created or renamed file's directory entry durable.
func syncDir(path string) error {
	d, err := os.Open(filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("consensus: sign log directory: %w", err)
	}
	err = d.Sync()
	if err = errors.Join(err, d.Close()); err != nil {
		return fmt.Errorf("consensus: sign log directory: %w", err)
	}
	return nil
}
