package io

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// MaxArraySize is the reference's default bound for var-length items
// (0x1000000 bytes or elements).
const MaxArraySize = 0x1000000

// Sentinel errors of the codec.
var (
	// ErrTooLarge is returned when a length prefix exceeds the caller's bound.
	ErrTooLarge = errors.New("io: length exceeds limit")
	// ErrNegativeLimit is returned when a negative bound is passed.
	ErrNegativeLimit = errors.New("io: negative limit")
)

// Decodable is implemented by types that read themselves from a BinReader.
type Decodable interface {
	DecodeBinary(r *BinReader)
}

// BinReader decodes Neo binary data. The first error is kept in Err and
// turns every later read into a no-op returning zero values.
type BinReader struct {
	r   io.Reader
	src []byte        // the whole input when reading from a buffer, else nil
	br  *bytes.Reader // r when reading from a buffer (&rd), else nil
	rd  bytes.Reader
	buf [8]byte
	Err error
}

// NewBinReaderFromIO makes a BinReader reading from ior.
func NewBinReaderFromIO(ior io.Reader) *BinReader {
	return &BinReader{r: ior}
}

// NewBinReaderFromBuf makes a BinReader reading from b.
func NewBinReaderFromBuf(b []byte) *BinReader {
	r := &BinReader{src: b}
	r.rd.Reset(b)
	r.r, r.br = &r.rd, &r.rd
	return r
}

// Len returns the number of unread bytes when the reader wraps a buffer, or
// -1 when the length is unknown.
func (r *BinReader) Len() int {
	if r.br != nil {
		return r.br.Len()
	}
	if br, ok := r.r.(*bytes.Reader); ok {
		return br.Len()
	}
	return -1
}

func (r *BinReader) fill(n int) []byte {
	if r.Err != nil {
		return nil
	}
	b := r.buf[:n]
	if err := r.readFull(b); err != nil {
		r.Err = err
		return nil
	}
	return b
}

// readFull is io.ReadFull(r.r, b), without the interface calls when
// reading from a buffer (the primitives of every decoder run through it).
func (r *BinReader) readFull(b []byte) error {
	if r.br == nil {
		_, err := io.ReadFull(r.r, b)
		return err
	}
	if len(b) == 0 {
		return nil
	}
	switch k, _ := r.br.Read(b); {
	case k == len(b):
		return nil
	case k == 0:
		return io.EOF
	default:
		return io.ErrUnexpectedEOF
	}
}

// ReadU8 reads one byte.
func (r *BinReader) ReadU8() uint8 {
	b := r.fill(1)
	if b == nil {
		return 0
	}
	return b[0]
}

// ErrBadBool is returned for a boolean byte other than 0 or 1.
var ErrBadBool = errors.New("io: boolean byte is neither 0 nor 1")

// ReadBool reads a strict boolean: 0 is false, 1 is true, anything else is
// an error, as in the reference's reader.
func (r *BinReader) ReadBool() bool {
	switch b := r.ReadU8(); b {
	case 0:
		return false
	case 1:
		return true
	default:
		r.setErr(fmt.Errorf("%w: 0x%02x", ErrBadBool, b))
		return false
	}
}

// ReadU16LE reads a little-endian uint16.
func (r *BinReader) ReadU16LE() uint16 {
	b := r.fill(2)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint16(b)
}

// ReadU16BE reads a big-endian uint16.
func (r *BinReader) ReadU16BE() uint16 {
	b := r.fill(2)
	if b == nil {
		return 0
	}
	return binary.BigEndian.Uint16(b)
}

// ReadU32LE reads a little-endian uint32.
func (r *BinReader) ReadU32LE() uint32 {
	b := r.fill(4)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint32(b)
}

// ReadU64LE reads a little-endian uint64.
func (r *BinReader) ReadU64LE() uint64 {
	b := r.fill(8)
	if b == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(b)
}

// ReadBytes fills dst completely from the input.
func (r *BinReader) ReadBytes(dst []byte) {
	if r.Err != nil {
		return
	}
	if err := r.readFull(dst); err != nil {
		r.Err = err
	}
}

// ReadVarUint reads a var-int: one byte below 0xfd, or 0xfd/0xfe/0xff
// followed by a 2/4/8-byte little-endian value.
func (r *BinReader) ReadVarUint() uint64 {
	switch b := r.ReadU8(); b {
	case 0xfd:
		return uint64(r.ReadU16LE())
	case 0xfe:
		return uint64(r.ReadU32LE())
	case 0xff:
		return r.ReadU64LE()
	default:
		return uint64(b)
	}
}

// ReadVarLen reads a var-int length and checks it against max.
func (r *BinReader) ReadVarLen(max int) int {
	if max < 0 {
		r.setErr(ErrNegativeLimit)
		return 0
	}
	n := r.ReadVarUint()
	if r.Err != nil {
		return 0
	}
	if n > uint64(max) {
		r.setErr(fmt.Errorf("%w: %d > %d", ErrTooLarge, n, max))
		return 0
	}
	return int(n)
}

// ReadVarBytes reads a var-int length followed by that many bytes; the
// length may not exceed max.
func (r *BinReader) ReadVarBytes(max int) []byte {
	n := r.ReadVarLen(max)
	if r.Err != nil {
		return nil
	}
	if l := r.Len(); l >= 0 && n > l {
		r.setErr(io.ErrUnexpectedEOF)
		return nil
	}
	b := make([]byte, n)
	r.ReadBytes(b)
	if r.Err != nil {
		return nil
	}
	return b
}

// ReadVarBytesNoCopy is ReadVarBytes that, for a reader made with
// NewBinReaderFromBuf, returns a sub-slice of the input instead of a copy.
// The caller must then not modify the input while the result is in use.
func (r *BinReader) ReadVarBytesNoCopy(max int) []byte {
	br := r.br
	if br == nil {
		return r.ReadVarBytes(max)
	}
	n := r.ReadVarLen(max)
	if r.Err != nil {
		return nil
	}
	if n > br.Len() {
		r.setErr(io.ErrUnexpectedEOF)
		return nil
	}
	pos := len(r.src) - br.Len()
	if _, err := br.Seek(int64(n), io.SeekCurrent); err != nil {
		r.setErr(err)
		return nil
	}
	return r.src[pos : pos+n : pos+n]
}

// ReadString reads a var-length string of at most max bytes.
func (r *BinReader) ReadString(max int) string {
	return string(r.ReadVarBytes(max))
}

func (r *BinReader) setErr(err error) {
	if r.Err == nil {
		r.Err = err
	}
}

// ReadArray reads a var-int count (at most max) followed by that many
// elements decoded with their DecodeBinary method.
func ReadArray[T any, P interface {
	*T
	Decodable
}](r *BinReader, max int) []T {
	n := r.ReadVarLen(max)
	if r.Err != nil {
		return nil
	}
	// Each element is at least one byte: never pre-allocate beyond the input.
	if l := r.Len(); l >= 0 && n > l {
		r.setErr(io.ErrUnexpectedEOF)
		return nil
	}
	arr := make([]T, n)
	for i := range arr {
		P(&arr[i]).DecodeBinary(r)
		if r.Err != nil {
			return nil
		}
	}
	return arr
}
