package storage

import (
	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
)

// Store is a sorted key-value store. Implementations: MemoryStore, the
// LevelDB and BoltDB backends (see New), MemCachedStore and Snapshot.
//
// Keys are compared bytewise. Ownership of slices:
//   - Get returns a slice the caller may keep but must not modify (caches
//     hand out their own copy).
//   - Put and PutChangeSet may keep the value slices passed in (not the
//     maps): do not modify a value after handing it over.
//   - Seek passes k and v valid only during the callback; copy what you keep.
type Store interface {
	// Get returns the value stored under key, or ErrKeyNotFound.
	Get(key []byte) ([]byte, error)
	// Put stores value under key. An empty key fails with ErrEmptyKey.
	Put(key, value []byte) error
	// Delete removes key. Deleting an absent key is not an error.
	Delete(key []byte) error
	// Seek calls fn for every key in rng, in ascending order (descending
	// if rng.Backwards), until fn returns false. fn must not write to the
	// store it is iterating. The error is the one the backend met while
	// iterating; stopping early is not an error.
	Seek(rng SeekRange, fn func(k, v []byte) bool) error
	// PutChangeSet atomically removes the keys in dels and stores puts; a
	// key present in both ends up stored. After a crash either the whole
	// changeset is visible or none of it is.
	PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error
	// Close releases the store. Every later call fails with ErrClosed.
	Close() error
}

// SeekRange selects the keys visited by Seek.
//
// Forward (Backwards == false) visits, in ascending order, every key that
// starts with Prefix and is not less than Prefix+Start.
//
// Backward visits, in descending order, every key that starts with Prefix
// and is not greater than Prefix+Start, plus the keys that start with
// Prefix+Start; with an empty Start that is the whole prefix in reverse.
// This is the C# DataCache.Find and neo-go semantics.
//
// An empty Prefix and Start select every key.
type SeekRange = kv.SeekRange

// Sentinel errors, shared with the backends.
var (
	// ErrKeyNotFound is returned by Get when the key is absent.
	ErrKeyNotFound = kv.ErrKeyNotFound
	// ErrEmptyKey is returned when a write uses a zero-length key.
	ErrEmptyKey = kv.ErrEmptyKey
	// ErrClosed is returned by any operation on a closed store.
	ErrClosed = kv.ErrClosed
	// ErrReadOnly is returned by writes to a store opened read-only.
	ErrReadOnly = kv.ErrReadOnly
	// ErrCorrupted marks damage detected in the database files.
	ErrCorrupted = kv.ErrCorrupted
	// ErrBadMarker is returned when the format marker is malformed.
	ErrBadMarker = kv.ErrBadMarker
	// ErrNewerFormat is returned when the database was written by a newer
	// storage format than this binary understands.
	ErrNewerFormat = kv.ErrNewerFormat
	// ErrWrongBackend is returned when the database was written by another
	// backend type.
	ErrWrongBackend = kv.ErrWrongBackend
	// ErrNoMarker is returned when a non-empty database has no n3d format
	// marker (for example a neo-go database).
	ErrNoMarker = kv.ErrNoMarker
)

// FormatVersion is the storage format version written into new databases
// and the newest one this binary opens.
const FormatVersion = kv.FormatVersion
