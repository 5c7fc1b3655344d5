package storage

import (
	"sync"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
)

// MemoryStore is a Store kept in a Go map; it is the "inmemory" database
// type and the reference model of the tests. It is safe for concurrent use.
// Small stores are sorted on each Seek; large ones keep a sorted key index
// (see layer), so a Seek costs O(log n + keys in range) once built.
type MemoryStore struct {
	mu     sync.RWMutex
	l      layer // only puts is used; guarded by mu (its index by idxMu)
	closed bool  // guarded by mu
}

var _ Store = (*MemoryStore)(nil)

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore() *MemoryStore {
	return &MemoryStore{l: layer{puts: make(map[string][]byte)}}
}

// Get implements Store. The returned slice is shared: do not modify it.
func (s *MemoryStore) Get(key []byte) ([]byte, error) {
	s.mu.RLock()
	v, ok := s.l.puts[string(key)]
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
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.l.put(string(key), value)
	return nil
}

// Delete implements Store.
func (s *MemoryStore) Delete(key []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.l.remove(string(key))
	return nil
}

// PutChangeSet implements Store; values are kept, not copied.
func (s *MemoryStore) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	if err := checkKeys(puts); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for k := range dels {
		s.l.remove(k)
	}
	for k, v := range puts {
		s.l.put(k, v)
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
	ents := s.l.collect(nil, lo, hi, 0)
	s.mu.RUnlock()
	var kbuf []byte
	for _, e := range sortEntries(ents, rng.Backwards) {
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
	s.l = layer{}
	return nil
}

// Len returns the number of keys stored.
func (s *MemoryStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.l.puts)
}
