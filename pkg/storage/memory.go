package storage

import (
	"slices"
	"strings"
	"sync"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
)

// MemoryStore is a Store kept in a Go map; it is the "inmemory" database
// type and the reference model of the tests. It is safe for concurrent use.
// Seek sorts the matching keys on each call, so it costs O(n log n) in the
// number of keys in range plus O(n) over the whole map.
type MemoryStore struct {
	mu     sync.RWMutex
	m      map[string][]byte // guarded by mu
	closed bool              // guarded by mu
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{m: make(map[string][]byte)}
}

// Get implements Store. The returned slice is shared: do not modify it.
func (s *MemoryStore) Get(key []byte) ([]byte, error) {
	s.mu.RLock()
	v, ok := s.m[string(key)]
	closed := s.closed
	s.mu.RUnlock()
	switch {
	case closed:
		return nil, ErrClosed
	case !ok:
		return nil, ErrKeyNotFound
	}
	return v, nil
}

// Put implements Store; value is kept, not copied.
func (s *MemoryStore) Put(key, value []byte) error {
	if len(key) == 0 {
		return ErrEmptyKey
	}
	if value == nil {
		value = []byte{}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.m[string(key)] = value
	return nil
}

// Delete implements Store.
func (s *MemoryStore) Delete(key []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	delete(s.m, string(key))
	return nil
}

// PutChangeSet implements Store; values are kept, not copied.
func (s *MemoryStore) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	for k := range puts {
		if len(k) == 0 {
			return ErrEmptyKey
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for k := range dels {
		delete(s.m, k)
	}
	for k, v := range puts {
		if v == nil {
			v = []byte{}
		}
		s.m[k] = v
	}
	return nil
}

// Seek implements Store. The matching entries are collected under the
// read lock and fn runs without it, so fn may use the store.
func (s *MemoryStore) Seek(rng SeekRange, fn func(k, v []byte) bool) error {
	lo, hi := kv.Bounds(rng)
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return ErrClosed
	}
	var ents []entry
	for k, v := range s.m {
		if kv.InRange(k, lo, hi) {
			ents = append(ents, entry{key: k, val: v})
		}
	}
	s.mu.RUnlock()
	slices.SortFunc(ents, func(a, b entry) int { return strings.Compare(a.key, b.key) })
	if rng.Backwards {
		slices.Reverse(ents)
	}
	var kbuf []byte
	for _, e := range ents {
		kbuf = append(kbuf[:0], e.key...)
		if !fn(kbuf, e.val) {
			break
		}
	}
	return nil
}

// Close implements Store; the contents are dropped.
func (s *MemoryStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.closed = true
	s.m = nil
	return nil
}

// Len returns the number of keys stored.
func (s *MemoryStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.m)
}
