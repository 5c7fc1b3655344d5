package io

import (
	"bytes"
	"encoding/binary"
	"io"
)

// Encodable is implemented by types that write themselves to a BinWriter.
type Encodable interface {
	EncodeBinary(w *BinWriter)
}

// Serializable is implemented by types that both encode and decode.
type Serializable interface {
	Encodable
	Decodable
}

// BinWriter encodes Neo binary data. The first error is kept in Err and
// turns every later write into a no-op.
type BinWriter struct {
	w   io.Writer
	buf [9]byte
	Err error
}

// NewBinWriterFromIO makes a BinWriter writing to iow.
func NewBinWriterFromIO(iow io.Writer) *BinWriter {
	return &BinWriter{w: iow}
}

func (w *BinWriter) write(b []byte) {
	if w.Err != nil {
		return
	}
	_, w.Err = w.w.Write(b)
}

// WriteU8 writes one byte.
func (w *BinWriter) WriteU8(v uint8) {
	w.buf[0] = v
	w.write(w.buf[:1])
}

// WriteBool writes 1 for true and 0 for false.
func (w *BinWriter) WriteBool(v bool) {
	var b uint8
	if v {
		b = 1
	}
	w.WriteU8(b)
}

// WriteU16LE writes a little-endian uint16.
func (w *BinWriter) WriteU16LE(v uint16) {
	binary.LittleEndian.PutUint16(w.buf[:2], v)
	w.write(w.buf[:2])
}

// WriteU16BE writes a big-endian uint16.
func (w *BinWriter) WriteU16BE(v uint16) {
	binary.BigEndian.PutUint16(w.buf[:2], v)
	w.write(w.buf[:2])
}

// WriteU32LE writes a little-endian uint32.
func (w *BinWriter) WriteU32LE(v uint32) {
	binary.LittleEndian.PutUint32(w.buf[:4], v)
	w.write(w.buf[:4])
}

// WriteU64LE writes a little-endian uint64.
func (w *BinWriter) WriteU64LE(v uint64) {
	binary.LittleEndian.PutUint64(w.buf[:8], v)
	w.write(w.buf[:8])
}

// WriteBytes writes b as is, without a length prefix.
func (w *BinWriter) WriteBytes(b []byte) {
	w.write(b)
}

// WriteVarUint writes v as a var-int.
func (w *BinWriter) WriteVarUint(v uint64) {
	n := PutVarUint(w.buf[:], v)
	w.write(w.buf[:n])
}

// WriteVarBytes writes a var-int length followed by b.
func (w *BinWriter) WriteVarBytes(b []byte) {
	w.WriteVarUint(uint64(len(b)))
	w.write(b)
}

// WriteString writes s as var-length bytes.
func (w *BinWriter) WriteString(s string) {
	w.WriteVarUint(uint64(len(s)))
	if w.Err != nil {
		return
	}
	if sw, ok := w.w.(io.StringWriter); ok {
		_, w.Err = sw.WriteString(s)
		return
	}
	w.write([]byte(s))
}

// WriteArray writes a var-int count followed by every element.
func WriteArray[T Encodable](w *BinWriter, arr []T) {
	w.WriteVarUint(uint64(len(arr)))
	for _, e := range arr {
		if w.Err != nil {
			return
		}
		e.EncodeBinary(w)
	}
}

// PutVarUint encodes v as a var-int into b (at least 9 bytes long) and
// returns the number of bytes used.
func PutVarUint(b []byte, v uint64) int {
	switch {
	case v < 0xfd:
		b[0] = byte(v)
		return 1
	case v <= 0xffff:
		b[0] = 0xfd
		binary.LittleEndian.PutUint16(b[1:], uint16(v))
		return 3
	case v <= 0xffffffff:
		b[0] = 0xfe
		binary.LittleEndian.PutUint32(b[1:], uint32(v))
		return 5
	default:
		b[0] = 0xff
		binary.LittleEndian.PutUint64(b[1:], v)
		return 9
	}
}

// GetVarSize returns the encoded size of n as a var-int.
func GetVarSize(n int) int {
	switch {
	case n < 0xfd:
		return 1
	case n <= 0xffff:
		return 3
	case uint64(n) <= 0xffffffff:
		return 5
	default:
		return 9
	}
}

// BufBinWriter is a BinWriter over an in-memory buffer.
type BufBinWriter struct {
	*BinWriter
	buf *bytes.Buffer
}

// NewBufBinWriter makes an empty BufBinWriter.
func NewBufBinWriter() *BufBinWriter {
	b := new(bytes.Buffer)
	return &BufBinWriter{BinWriter: NewBinWriterFromIO(b), buf: b}
}

// Grow makes room for n more bytes, so that writing a value of a known
// size does not reallocate the buffer as it fills.
func (bw *BufBinWriter) Grow(n int) {
	bw.buf.Grow(n)
}

// Len returns the number of bytes written so far.
func (bw *BufBinWriter) Len() int {
	return bw.buf.Len()
}

// Bytes returns the written bytes, or nil if an error occurred. The slice
// aliases the internal buffer until the next Reset.
func (bw *BufBinWriter) Bytes() []byte {
	if bw.Err != nil {
		return nil
	}
	return bw.buf.Bytes()
}

// Reset empties the buffer and clears the error.
func (bw *BufBinWriter) Reset() {
	bw.Err = nil
	bw.buf.Reset()
}
