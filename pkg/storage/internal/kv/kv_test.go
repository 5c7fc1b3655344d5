package kv

import (
	"bytes"
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMarkerRoundTrip(t *testing.T) {
	for _, m := range []Marker{
		{Version: FormatVersion, Backend: "leveldb"},
		{Version: 0xffff, Backend: "b"},
		{Version: 1, Backend: string(bytes.Repeat([]byte{'x'}, MaxBackendLen))},
	} {
		got, err := DecodeMarker(m.Bytes())
		require.NoError(t, err)
		require.Equal(t, m, got)
	}
	require.Panics(t, func() { _ = Marker{Version: 1, Backend: string(make([]byte, MaxBackendLen+1))}.Bytes() })
}

func TestDecodeMarkerErrors(t *testing.T) {
	good := Marker{Version: 1, Backend: "boltdb"}.Bytes()
	mutate := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for name, b := range map[string][]byte{
		"empty":     nil,
		"short":     good[:6],
		"magic":     mutate(func(b []byte) []byte { b[0] = 'N'; return b }),
		"version 0": mutate(func(b []byte) []byte { binary.LittleEndian.PutUint16(b[4:], 0); return b }),
		"name 0":    mutate(func(b []byte) []byte { b[6] = 0; return b[:7] }),
		"name big":  mutate(func(b []byte) []byte { b[6] = MaxBackendLen + 1; return b }),
		"truncated": good[:len(good)-1],
		"trailing":  append(bytes.Clone(good), 0),
	} {
		_, err := DecodeMarker(b)
		require.ErrorIs(t, err, ErrBadMarker, name)
	}
}

func FuzzDecodeMarker(f *testing.F) {
	f.Add(Marker{Version: 1, Backend: "leveldb"}.Bytes())
	f.Add([]byte("n3dS"))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeMarker(b)
		if err != nil {
			require.ErrorIs(t, err, ErrBadMarker)
			return
		}
		require.Equal(t, b, m.Bytes(), "a decodable marker re-encodes to the same bytes")
	})
}

func TestBoundsAndSuccessor(t *testing.T) {
	require.Nil(t, Successor(nil))
	require.Nil(t, Successor([]byte{0xff, 0xff}))
	require.Equal(t, []byte{0x01, 0x03}, Successor([]byte{0x01, 0x02, 0xff}))
	lo, hi := Bounds(SeekRange{})
	require.NotNil(t, lo)
	require.Empty(t, lo)
	require.Nil(t, hi)
	lo, hi = Bounds(SeekRange{Prefix: []byte{1}, Start: []byte{2}})
	require.Equal(t, []byte{1, 2}, lo)
	require.Equal(t, []byte{2}, hi)
	lo, hi = Bounds(SeekRange{Prefix: []byte{1}, Start: []byte{2}, Backwards: true})
	require.Equal(t, []byte{1}, lo)
	require.Equal(t, []byte{1, 3}, hi)
	require.True(t, InRange("\x01\x02", lo, hi))
	require.False(t, InRange("\x01\x03", lo, hi))
	require.True(t, InRangeBytes([]byte{1}, lo, hi))
	require.False(t, InRangeBytes([]byte{0}, lo, hi))
}

// mapStore is a minimal MarkerStore with injectable failures.
type mapStore struct {
	m                       map[string][]byte
	getErr, seekErr, putErr error
}

func (s *mapStore) Get(k []byte) ([]byte, error) {
	if s.getErr != nil {
		return nil, s.getErr
	}
	v, ok := s.m[string(k)]
	if !ok {
		return nil, ErrKeyNotFound
	}
	return v, nil
}

func (s *mapStore) Put(k, v []byte) error {
	if s.putErr != nil {
		return s.putErr
	}
	s.m[string(k)] = v
	return nil
}

func (s *mapStore) Seek(_ SeekRange, fn func(k, v []byte) bool) error {
	if s.seekErr != nil {
		return s.seekErr
	}
	for k, v := range s.m {
		if !fn([]byte(k), v) {
			break
		}
	}
	return nil
}

func TestCheckMarker(t *testing.T) {
	boom := errors.New("boom")
	s := &mapStore{m: map[string][]byte{}}
	require.NoError(t, CheckMarker(s, "x", true), "empty read-only store: nothing to check")
	require.Empty(t, s.m)
	require.NoError(t, CheckMarker(s, "x", false))
	require.Equal(t, Marker{Version: FormatVersion, Backend: "x"}.Bytes(), s.m[string(MarkerKey)])
	require.NoError(t, CheckMarker(s, "x", false), "reopen")
	require.ErrorIs(t, CheckMarker(s, "y", false), ErrWrongBackend)

	s.m[string(MarkerKey)] = Marker{Version: FormatVersion + 1, Backend: "x"}.Bytes()
	require.ErrorIs(t, CheckMarker(s, "x", false), ErrNewerFormat)
	s.m[string(MarkerKey)] = []byte("junk")
	require.ErrorIs(t, CheckMarker(s, "x", false), ErrBadMarker)

	s = &mapStore{m: map[string][]byte{"\x70data": {1}}}
	require.ErrorIs(t, CheckMarker(s, "x", false), ErrNoMarker)

	for name, s := range map[string]*mapStore{
		"get":  {m: map[string][]byte{}, getErr: boom},
		"seek": {m: map[string][]byte{}, seekErr: boom},
		"put":  {m: map[string][]byte{}, putErr: boom},
	} {
		require.ErrorIs(t, CheckMarker(s, "x", false), boom, name)
	}
}
