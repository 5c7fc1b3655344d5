package kv

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Format marker: one key under the system prefix range, written when an
// empty database is created and checked each time it is opened, so a
// database is never silently read by the wrong backend or by an older
// binary that does not understand its layout.
const (
	// MarkerPrefix is the key prefix of the format marker
	// (storage.SYSStorageFormat). neo-go does not use it.
	MarkerPrefix byte = 0xf1
	// FormatVersion is the storage format version this code writes and
	// the newest one it reads.
	FormatVersion uint16 = 1
	// MaxBackendLen bounds the backend name stored in the marker.
	MaxBackendLen = 32
)

// MarkerKey is the full key of the format marker.
var MarkerKey = []byte{MarkerPrefix}

var markerMagic = [4]byte{'n', '3', 'd', 'S'}

// markerHeaderLen is magic(4) + version(2) + backend name length(1).
const markerHeaderLen = 7

// Marker is the decoded value stored under MarkerKey:
//
//	+---------+------------+----------+-------------------+
//	| "n3dS"  | version    | len (u8) | backend name      |
//	| 4 bytes | u16 LE     | 1 byte   | len bytes (<= 32) |
//	+---------+------------+----------+-------------------+
type Marker struct {
	Version uint16
	Backend string
}

// Bytes encodes m. It panics if the backend name is longer than
// MaxBackendLen, which is a programming error (names are constants).
func (m Marker) Bytes() []byte {
	if len(m.Backend) > MaxBackendLen {
		panic("storage: marker backend name too long")
	}
	b := make([]byte, 0, markerHeaderLen+len(m.Backend))
	b = append(b, markerMagic[:]...)
	b = binary.LittleEndian.AppendUint16(b, m.Version)
	b = append(b, byte(len(m.Backend)))
	return append(b, m.Backend...)
}

// DecodeMarker decodes a marker value; every malformed input yields an
// error wrapping ErrBadMarker.
func DecodeMarker(b []byte) (Marker, error) {
	if len(b) < markerHeaderLen {
		return Marker{}, fmt.Errorf("%w: %d bytes, want at least %d", ErrBadMarker, len(b), markerHeaderLen)
	}
	if [4]byte(b[:4]) != markerMagic {
		return Marker{}, fmt.Errorf("%w: bad magic %x", ErrBadMarker, b[:4])
	}
	m := Marker{Version: binary.LittleEndian.Uint16(b[4:6])}
	if m.Version == 0 {
		return Marker{}, fmt.Errorf("%w: version 0", ErrBadMarker)
	}
	n := int(b[6])
	if n == 0 || n > MaxBackendLen {
		return Marker{}, fmt.Errorf("%w: backend name length %d", ErrBadMarker, n)
	}
	if len(b) != markerHeaderLen+n {
		return Marker{}, fmt.Errorf("%w: %d bytes, want %d", ErrBadMarker, len(b), markerHeaderLen+n)
	}
	m.Backend = string(b[markerHeaderLen:])
	return m, nil
}

// MarkerStore is what CheckMarker needs from a backend.
type MarkerStore interface {
	Get(key []byte) ([]byte, error)
	Put(key, value []byte) error
	Seek(rng SeekRange, fn func(k, v []byte) bool) error
}

// CheckMarker verifies that the database behind s was written by backend
// with a format version this code understands. An empty database gets a
// fresh marker (unless readOnly). A non-empty database without a marker is
// refused with ErrNoMarker.
func CheckMarker(s MarkerStore, backend string, readOnly bool) error {
	v, err := s.Get(MarkerKey)
	switch {
	case err == nil:
		return checkMarkerValue(v, backend)
	case !errors.Is(err, ErrKeyNotFound):
		return fmt.Errorf("storage: reading format marker: %w", err)
	}
	empty := true
	err = s.Seek(SeekRange{}, func(_, _ []byte) bool {
		empty = false
		return false
	})
	if err != nil {
		return fmt.Errorf("storage: checking for existing data: %w", err)
	}
	if !empty {
		return ErrNoMarker
	}
	if readOnly {
		return nil
	}
	if err := s.Put(MarkerKey, Marker{Version: FormatVersion, Backend: backend}.Bytes()); err != nil {
		return fmt.Errorf("storage: writing format marker: %w", err)
	}
	return nil
}

func checkMarkerValue(v []byte, backend string) error {
	m, err := DecodeMarker(v)
	if err != nil {
		return err
	}
	if m.Version > FormatVersion {
		return fmt.Errorf("%w: version %d, this binary reads up to %d", ErrNewerFormat, m.Version, FormatVersion)
	}
	if m.Backend != backend {
		return fmt.Errorf("%w: written by %q, opened as %q", ErrWrongBackend, m.Backend, backend)
	}
	return nil
}
