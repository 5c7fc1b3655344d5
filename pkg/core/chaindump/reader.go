package chaindump

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/n3d-io/n3d/pkg/core/block"
)

// Format is the layout of a dump.
type Format int

// Dump formats.
const (
	// Plain has no start index: u32 count, then records.
	Plain Format = iota
	// Incremental starts with the index of its first block.
	Incremental
)

// String returns "plain" or "incremental".
func (f Format) String() string {
	if f == Incremental {
		return "incremental"
	}
	return "plain"
}

// DefaultMaxRecordSize bounds a block record: the reference's maximum P2P
// payload (32 MiB), which no valid block exceeds.
const DefaultMaxRecordSize = 0x02000000

// Sentinel errors.
var (
	ErrTruncated     = errors.New("chaindump: truncated dump")
	ErrRecordSize    = errors.New("chaindump: invalid block record size")
	ErrInvalidBlock  = errors.New("chaindump: invalid block")
	ErrCountMismatch = errors.New("chaindump: block count does not match header")
	ErrBadHeader     = errors.New("chaindump: invalid dump header")
)

// Reader reads a dump one block at a time. It is not safe for concurrent
// use.
type Reader struct {
	r       *bufio.Reader
	format  Format
	start   uint32
	count   uint32
	next    uint32 // records read so far
	offset  int64  // byte offset of the next record
	maxSize uint32
	buf     []byte
	// stateRoot: blocks carry the previous state root (StateRootInHeader).
	stateRoot bool
}

// NewReader reads the dump header from r and detects the format.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	d := &Reader{r: br, maxSize: DefaultMaxRecordSize}
	hdr, err := br.Peek(12)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: %w", ErrBadHeader, err)
	}
	le := binary.LittleEndian
	switch {
	case len(hdr) < 4:
		return nil, fmt.Errorf("%w: %d bytes", ErrBadHeader, len(hdr))
	case len(hdr) < 8:
		// Only a plain dump of nothing is that short.
		d.format, d.count = Plain, le.Uint32(hdr)
	case len(hdr) == 12 && le.Uint32(hdr[8:]) == 0:
		// The third u32 is the first block's version field.
		d.format, d.count = Plain, le.Uint32(hdr)
	default:
		d.format, d.start, d.count = Incremental, le.Uint32(hdr), le.Uint32(hdr[4:])
	}
	d.offset = 4
	if d.format == Incremental {
		d.offset = 8
	}
	if _, err := br.Discard(int(d.offset)); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBadHeader, err)
	}
	return d, nil
}

// SetMaxRecordSize changes the bound of a block record's size.
func (d *Reader) SetMaxRecordSize(n uint32) { d.maxSize = n }

// Format is the detected layout.
func (d *Reader) Format() Format { return d.format }

// Start is the index of the first block of an incremental dump, 0 for a
// plain one (whose first block may still be a later one: check
// the blocks' own indexes).
func (d *Reader) Start() uint32 { return d.start }

// Count is the number of blocks the header announces.
func (d *Reader) Count() uint32 { return d.count }

// Remaining is the number of records not read yet.
func (d *Reader) Remaining() uint32 { return d.count - d.next }

// position describes where the next record is, for error messages.
func (d *Reader) position() string {
	if d.format == Incremental {
		return fmt.Sprintf("record %d (block index %d) at offset %d", d.next, d.start+d.next, d.offset)
	}
	return fmt.Sprintf("record %d at offset %d", d.next, d.offset)
}

// Next returns the raw bytes of the next block. The slice is only valid
// until the next call. It returns io.EOF after Count records.
func (d *Reader) Next() ([]byte, error) {
	if d.next >= d.count {
		return nil, io.EOF
	}
	var sz [4]byte
	if _, err := io.ReadFull(d.r, sz[:]); err != nil {
		return nil, fmt.Errorf("%w: %s: size: %w", ErrTruncated, d.position(), noEOF(err))
	}
	size := binary.LittleEndian.Uint32(sz[:])
	if size == 0 || size > d.maxSize {
		return nil, fmt.Errorf("%w: %s: %d bytes (max %d)", ErrRecordSize, d.position(), size, d.maxSize)
	}
	if uint32(cap(d.buf)) < size {
		d.buf = make([]byte, size)
	}
	d.buf = d.buf[:size]
	if n, err := io.ReadFull(d.r, d.buf); err != nil {
		return nil, fmt.Errorf("%w: %s: %d of %d block bytes: %w", ErrTruncated, d.position(), n, size, noEOF(err))
	}
	d.next++
	d.offset += 4 + int64(size)
	return d.buf, nil
}

// SetStateRootInHeader makes NextBlock decode blocks of a network with
// StateRootInHeader.
func (d *Reader) SetStateRootInHeader(on bool) { d.stateRoot = on }

// NextBlock reads and decodes the next block. raw is its bytes in a fresh
// buffer the block's scripts alias (so neither may be modified; it stays
// valid after later calls). It returns io.EOF after Count blocks.
func (d *Reader) NextBlock() (b *block.Block, raw []byte, err error) {
	pos := d.position()
	shared, err := d.Next()
	if err != nil {
		return nil, nil, err
	}
	raw = bytes.Clone(shared)
	b, err = block.NewBlockFromBytesSR(raw, d.stateRoot)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %s: %w", ErrInvalidBlock, pos, err)
	}
	return b, raw, nil
}

// Skip reads past n records without decoding them.
func (d *Reader) Skip(n uint32) error {
	for range n {
		if _, err := d.Next(); err != nil {
			if errors.Is(err, io.EOF) {
				return fmt.Errorf("%w: cannot skip %d of %d records", ErrCountMismatch, n, d.count)
			}
			return err
		}
	}
	return nil
}

// noEOF turns a bare EOF into ErrUnexpectedEOF: inside a record, the end
// of input is always unexpected.
func noEOF(err error) error {
	if errors.Is(err, io.EOF) {
		return io.ErrUnexpectedEOF
	}
	return err
}
