// Package kv holds the pieces shared by pkg/storage and its backends
// (pkg/storage/leveldb, pkg/storage/boltdb) without an import cycle: the
// seek range and its bounds, the sentinel errors and the format marker.
// pkg/storage re-exports everything a caller needs; nothing outside
// pkg/storage should import this package.
package kv

import (
	"bytes"
	"errors"
)

// Sentinel errors. pkg/storage re-exports them under the same names.
var (
	// ErrKeyNotFound is returned by Get when the key is absent.
	ErrKeyNotFound = errors.New("storage: key not found")
	// ErrEmptyKey is returned when a write uses a zero-length key, which
	// not every backend can store (BoltDB cannot).
	ErrEmptyKey = errors.New("storage: empty key")
	// ErrClosed is returned by any operation on a closed store.
	ErrClosed = errors.New("storage: store is closed")
	// ErrReadOnly is returned by writes to a store opened read-only.
	ErrReadOnly = errors.New("storage: store is read-only")
	// ErrCorrupted marks damage detected in the database files.
	ErrCorrupted = errors.New("storage: database corrupted")
	// ErrBadMarker is returned when the format marker cannot be decoded.
	ErrBadMarker = errors.New("storage: malformed format marker")
	// ErrNewerFormat is returned when the database was written by a newer
	// storage format version than this binary understands.
	ErrNewerFormat = errors.New("storage: database written by a newer storage format")
	// ErrWrongBackend is returned when the database was written by another
	// backend (for example a BoltDB file opened as LevelDB).
	ErrWrongBackend = errors.New("storage: database written by another backend")
	// ErrNoMarker is returned when a non-empty database has no format
	// marker, i.e. it was not created by n3d.
	ErrNoMarker = errors.New("storage: database has data but no n3d format marker")
)

// SeekRange selects the keys visited by Seek.
//
// Forward (Backwards == false) visits, in ascending order, every key that
// starts with Prefix and is not less than Prefix+Start.
//
// Backward visits, in descending order, every key that starts with Prefix
// and is not greater than Prefix+Start, together with the keys that start
// with Prefix+Start (so with an empty Start it is the whole prefix in
// reverse). This is the neo-go and C# DataCache.Find semantics.
//
// Both directions therefore cover a half-open interval [lo, hi), see
// Bounds. An empty Prefix and Start select every key.
type SeekRange struct {
	Prefix    []byte
	Start     []byte
	Backwards bool
}

// Bounds returns the half-open key interval [lo, hi) that rng covers. A nil
// hi means "no upper bound". lo is never nil.
func Bounds(rng SeekRange) (lo, hi []byte) {
	full := make([]byte, 0, len(rng.Prefix)+len(rng.Start))
	full = append(append(full, rng.Prefix...), rng.Start...)
	if rng.Backwards {
		return append([]byte{}, rng.Prefix...), Successor(full)
	}
	return full, Successor(rng.Prefix)
}

// Successor returns the smallest key that is greater than every key having
// prefix p, or nil when there is none (p is empty or all 0xff).
func Successor(p []byte) []byte {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] != 0xff {
			s := make([]byte, i+1)
			copy(s, p)
			s[i]++
			return s
		}
	}
	return nil
}

// InRange reports whether key lies in [lo, hi) (hi nil = unbounded).
func InRange(key string, lo, hi []byte) bool {
	return key >= string(lo) && (hi == nil || key < string(hi))
}

// InRangeBytes is InRange for a byte-slice key.
func InRangeBytes(key, lo, hi []byte) bool {
	return bytes.Compare(key, lo) >= 0 && (hi == nil || bytes.Compare(key, hi) < 0)
}
