package storage

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Snapshot is a private, unsynchronised change layer over a parent Store,
// typically a MemCachedStore or another Snapshot: the chain runs each
// transaction (and each contract call that may be rolled back) in its own
// Snapshot, then either commits it into the parent or discards it.
//
// Creating one costs one small allocation; its maps are created on first
// write. A Snapshot must be used by one goroutine at a time. Reads fall
// through to the parent; Seek merges the snapshot's changes with the
// parent's Seek.
type Snapshot struct {
	parent Store
	mem    layer
	closed bool
}

var _ Store = (*Snapshot)(nil)

// NewSnapshot returns an empty Snapshot over parent.
func NewSnapshot(parent Store) *Snapshot {
	return &Snapshot{parent: parent}
}

// Get implements Store. The returned slice may be the cached one: do not
// modify it.
func (s *Snapshot) Get(key []byte) ([]byte, error) {
	if s.closed {
		return nil, ErrClosed
	}
	switch v, st := s.mem.lookup(key); st {
	case present:
		return v, nil
	case deleted:
		return nil, ErrKeyNotFound
	}
	return s.parent.Get(key)
}

// Put implements Store; value is kept, not copied.
func (s *Snapshot) Put(key, value []byte) error {
	switch {
	case s.closed:
		return ErrClosed
	case len(key) == 0:
		return ErrEmptyKey
	}
	s.mem.put(string(key), value)
	return nil
}

// Delete implements Store.
func (s *Snapshot) Delete(key []byte) error {
	if s.closed {
		return ErrClosed
	}
	s.mem.del(string(key))
	return nil
}

// PutChangeSet implements Store by merging the changeset into the snapshot
// (this is how a nested Snapshot commits).
func (s *Snapshot) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	if s.closed {
		return ErrClosed
	}
	if err := checkKeys(puts); err != nil {
		return err
	}
	s.mem.merge(puts, dels)
	return nil
}

// Seek implements Store.
func (s *Snapshot) Seek(rng SeekRange, fn func(k, v []byte) bool) error {
	if s.closed {
		return ErrClosed
	}
	lo, hi := boundsOf(rng)
	ents := sortEntries(s.mem.collect(nil, lo, hi, 0), rng.Backwards)
	return mergeSeek(s.parent, rng, ents, fn)
}

// Commit applies the snapshot's changes to the parent in one PutChangeSet
// and empties the snapshot, which can then be reused. On error the changes
// stay in the snapshot.
func (s *Snapshot) Commit() error {
	if s.closed {
		return ErrClosed
	}
	if s.mem.empty() {
		return nil
	}
	if err := s.parent.PutChangeSet(s.mem.puts, s.mem.dels); err != nil {
		return err
	}
	s.Discard()
	return nil
}

// Discard drops the snapshot's changes; the snapshot can be reused.
func (s *Snapshot) Discard() {
	s.mem.reset()
}

// Reset discards the snapshot's changes and puts it over parent, keeping
// its maps' memory: a layer made for every transaction or contract call
// reuses the previous one's instead of growing new maps each time.
func (s *Snapshot) Reset(parent Store) {
	s.mem.reset()
	s.parent = parent
}

// Len returns the number of keys changed in the snapshot.
func (s *Snapshot) Len() int { return s.mem.len() }

// Close implements Store: it discards the changes. It never closes the
// parent, which a Snapshot does not own.
func (s *Snapshot) Close() error {
	if s.closed {
		return ErrClosed
	}
	s.Discard()
	s.closed = true
	return nil
}

// Change is one key a Snapshot changed: its new value, or a deletion.
type Change struct {
	Key     []byte
	Value   []byte // nil for a deletion
	Deleted bool
	// Existed: the key was in the parent store.
	Existed bool
}

// Changes lists the keys s changed, puts before deletions, each by key.
func (s *Snapshot) Changes() ([]Change, error) {
	out := make([]Change, 0, s.mem.len())
	add := func(k string, v []byte, del bool) error {
		_, err := s.parent.Get([]byte(k))
		if err != nil && !errors.Is(err, ErrKeyNotFound) {
			return fmt.Errorf("storage: changes: %w", err)
		}
		out = append(out, Change{Key: []byte(k), Value: v, Deleted: del, Existed: err == nil})
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(s.mem.puts)) {
		if err := add(k, s.mem.puts[k], false); err != nil {
			return nil, err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(s.mem.dels)) {
		if err := add(k, nil, true); err != nil {
			return nil, err
		}
	}
	return out, nil
}
