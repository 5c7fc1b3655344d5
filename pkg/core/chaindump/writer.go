package chaindump

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/n3d-io/n3d/pkg/core/block"
	nio "github.com/n3d-io/n3d/pkg/io"
)

// Writer writes a dump: the header at creation, then exactly count
// records. Close flushes and checks the count. Not safe for concurrent use.
type Writer struct {
	w       *bufio.Writer
	count   uint32
	written uint32
	enc     *nio.BufBinWriter
}

// NewWriter writes the header of a dump of count blocks. start is only
// written in the Incremental format (neo-go's default; it uses Plain only
// for a --non-incremental dump from block 0).
func NewWriter(w io.Writer, format Format, start, count uint32) (*Writer, error) {
	bw := bufio.NewWriterSize(w, 64<<10)
	var hdr [8]byte
	n := 0
	if format == Incremental {
		binary.LittleEndian.PutUint32(hdr[:], start)
		n = 4
	}
	binary.LittleEndian.PutUint32(hdr[n:], count)
	if _, err := bw.Write(hdr[:n+4]); err != nil {
		return nil, fmt.Errorf("chaindump: writing header: %w", err)
	}
	return &Writer{w: bw, count: count, enc: nio.NewBufBinWriter()}, nil
}

// WriteRaw writes one record holding the given block bytes.
func (w *Writer) WriteRaw(raw []byte) error {
	if w.written >= w.count {
		return fmt.Errorf("%w: more than %d blocks", ErrCountMismatch, w.count)
	}
	if len(raw) == 0 || uint64(len(raw)) > DefaultMaxRecordSize {
		return fmt.Errorf("%w: %d bytes", ErrRecordSize, len(raw))
	}
	var sz [4]byte
	binary.LittleEndian.PutUint32(sz[:], uint32(len(raw)))
	if _, err := w.w.Write(sz[:]); err != nil {
		return fmt.Errorf("chaindump: writing record %d: %w", w.written, err)
	}
	if _, err := w.w.Write(raw); err != nil {
		return fmt.Errorf("chaindump: writing record %d: %w", w.written, err)
	}
	w.written++
	return nil
}

// WriteBlock serializes b and writes it as one record.
func (w *Writer) WriteBlock(b *block.Block) error {
	w.enc.Reset()
	b.EncodeBinary(w.enc.BinWriter)
	if w.enc.Err != nil {
		return fmt.Errorf("chaindump: encoding block %d: %w", b.Index, w.enc.Err)
	}
	return w.WriteRaw(w.enc.Bytes())
}

// Close flushes the output and fails if fewer blocks than announced were
// written. It does not close the underlying writer.
func (w *Writer) Close() error {
	if err := w.w.Flush(); err != nil {
		return fmt.Errorf("chaindump: flush: %w", err)
	}
	if w.written != w.count {
		return fmt.Errorf("%w: wrote %d of %d blocks", ErrCountMismatch, w.written, w.count)
	}
	return nil
}
