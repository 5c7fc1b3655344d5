package io

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"
)

type item struct{ a uint32 }

func (i *item) EncodeBinary(w *BinWriter) { w.WriteU32LE(i.a) }
func (i *item) DecodeBinary(r *BinReader) { i.a = r.ReadU32LE() }

func TestRoundTrip(t *testing.T) {
	w := NewBufBinWriter()
	w.WriteU8(7)
	w.WriteBool(true)
	w.WriteU16LE(0x1234)
	w.WriteU16BE(0x1234)
	w.WriteU32LE(0xdeadbeef)
	w.WriteU64LE(1 << 60)
	w.WriteVarBytes([]byte("neo"))
	w.WriteString("n3d")
	WriteArray(w.BinWriter, []*item{{1}, {2}})
	for _, v := range []uint64{0, 0xfc, 0xfd, 0xffff, 0x10000, 0xffffffff, 0x100000000} {
		w.WriteVarUint(v)
	}
	require.NoError(t, w.Err)

	r := NewBinReaderFromBuf(w.Bytes())
	require.Equal(t, uint8(7), r.ReadU8())
	require.True(t, r.ReadBool())
	require.Equal(t, uint16(0x1234), r.ReadU16LE())
	require.Equal(t, uint16(0x1234), r.ReadU16BE())
	require.Equal(t, uint32(0xdeadbeef), r.ReadU32LE())
	require.Equal(t, uint64(1<<60), r.ReadU64LE())
	require.Equal(t, []byte("neo"), r.ReadVarBytes(3))
	require.Equal(t, "n3d", r.ReadString(10))
	require.Equal(t, []item{{1}, {2}}, ReadArray[item](r, 2))
	for _, v := range []uint64{0, 0xfc, 0xfd, 0xffff, 0x10000, 0xffffffff, 0x100000000} {
		require.Equal(t, v, r.ReadVarUint())
	}
	require.NoError(t, r.Err)
	require.Equal(t, 0, r.Len())
}

func TestStrictBoolAndNoCopy(t *testing.T) {
	r := NewBinReaderFromBuf([]byte{0, 1, 2})
	require.False(t, r.ReadBool())
	require.True(t, r.ReadBool())
	require.NoError(t, r.Err)
	require.False(t, r.ReadBool())
	require.ErrorIs(t, r.Err, ErrBadBool)

	in := []byte{2, 'a', 'b', 3, 'c'}
	r = NewBinReaderFromBuf(in)
	b := r.ReadVarBytesNoCopy(10)
	require.Equal(t, []byte("ab"), b)
	in[1] = 'z'
	require.Equal(t, []byte("zb"), b, "the result aliases the input")
	require.Nil(t, r.ReadVarBytesNoCopy(10))
	require.ErrorIs(t, r.Err, io.ErrUnexpectedEOF)

	r = NewBinReaderFromIO(bytes.NewBufferString("\x01x"))
	require.Equal(t, []byte("x"), r.ReadVarBytesNoCopy(1))
}

func TestVarUintEncoding(t *testing.T) {
	cases := map[uint64][]byte{
		0xfc:        {0xfc},
		0xfd:        {0xfd, 0xfd, 0x00},
		0x1234:      {0xfd, 0x34, 0x12},
		0x12345678:  {0xfe, 0x78, 0x56, 0x34, 0x12},
		0x100000000: {0xff, 0, 0, 0, 0, 1, 0, 0, 0},
	}
	for v, want := range cases {
		w := NewBufBinWriter()
		w.WriteVarUint(v)
		require.Equal(t, want, w.Bytes())
		require.Equal(t, len(want), GetVarSize(int(v)))
	}
}

func TestLimitsAndStickyError(t *testing.T) {
	w := NewBufBinWriter()
	w.WriteVarBytes(make([]byte, 10))
	r := NewBinReaderFromBuf(w.Bytes())
	require.Nil(t, r.ReadVarBytes(9))
	require.ErrorIs(t, r.Err, ErrTooLarge)
	require.Zero(t, r.ReadU32LE(), "reads after an error return zero")
	require.ErrorIs(t, r.Err, ErrTooLarge, "the first error sticks")

	// A huge length prefix on short input must not allocate it.
	r = NewBinReaderFromBuf([]byte{0xfe, 0xff, 0xff, 0xff, 0x00, 1, 2})
	require.Nil(t, r.ReadVarBytes(MaxArraySize))
	require.ErrorIs(t, r.Err, io.ErrUnexpectedEOF)

	r = NewBinReaderFromBuf([]byte{0xfe, 0xff, 0xff, 0xff, 0x00})
	require.Nil(t, ReadArray[item](r, MaxArraySize))
	require.Error(t, r.Err)

	r = NewBinReaderFromBuf([]byte{1})
	r.ReadVarLen(-1)
	require.ErrorIs(t, r.Err, ErrNegativeLimit)

	r = NewBinReaderFromIO(iotest.OneByteReader(bytes.NewReader([]byte{1, 2})))
	require.Equal(t, -1, r.Len())
	r.ReadU32LE()
	require.ErrorIs(t, r.Err, io.ErrUnexpectedEOF)
}

type failWriter struct{}

var errWrite = errors.New("boom")

func (failWriter) Write([]byte) (int, error) { return 0, errWrite }

func TestWriterStickyError(t *testing.T) {
	w := NewBinWriterFromIO(failWriter{})
	w.WriteU8(1)
	w.WriteString("x")
	WriteArray(w, []*item{{1}})
	require.ErrorIs(t, w.Err, errWrite)
	bw := NewBufBinWriter()
	bw.Err = errWrite
	require.Nil(t, bw.Bytes())
	bw.Reset()
	require.NoError(t, bw.Err)
	require.Equal(t, 0, bw.Len())
}

func FuzzVarBytes(f *testing.F) {
	f.Add([]byte{3, 'a', 'b', 'c'})
	f.Add([]byte{0xfd, 0x01, 0x00, 'x'})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewBinReaderFromBuf(data)
		b := r.ReadVarBytes(MaxArraySize)
		if r.Err != nil {
			return
		}
		w := NewBufBinWriter()
		w.WriteVarBytes(b)
		// Var-ints are not required to be canonical on input, so compare
		// the decoded payload rather than the bytes.
		r2 := NewBinReaderFromBuf(w.Bytes())
		require.Equal(t, b, r2.ReadVarBytes(MaxArraySize))
		require.NoError(t, r2.Err)
	})
}
