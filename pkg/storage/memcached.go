package storage

import (
	"errors"
	"fmt"
	"sync"
)

// DefaultMaxPending is the number of frozen layers that may wait for the
// background flush before Persist applies back-pressure.
const DefaultMaxPending = 2

// MemCachedStore is a write-back cache over any Store. Writes go to an
// in-memory layer; reads look at that layer, then at the layers being
// persisted (newest first), then at the lower store. Seek merges all of
// them in key order and honours deletions.
//
// Persist freezes the current layer, starts a fresh one and writes the
// frozen layer to the lower store with PutChangeSet in a background
// goroutine; readers and writers only wait for the two map swaps, never
// for the disk. The frozen layer stays readable until the lower store has
// it. A failed background write keeps its layer readable and pending, is
// reported by the next Persist, PersistSync, WaitPersist or Close, and is
// retried by the next Persist or PersistSync.
//
// MemCachedStore is safe for concurrent use. For per-transaction scratch
// state on top of it, use a Snapshot.
type MemCachedStore struct {
	lower Store

	// mu guards the fields below. Lock order: a MemCachedStore's mu is
	// never held while calling into lower, except in PersistSync, whose
	// lower never calls back up.
	mu sync.RWMutex
	// idle is signalled, with mu held, when a flush step ends.
	idle *sync.Cond

	mem        *layer   // live layer
	pending    []*layer // frozen layers, oldest first
	flushing   bool     // the flush goroutine is running
	flushErr   error    // last failed flush; pending keeps its data
	closed     bool
	maxPending int
}

var _ Store = (*MemCachedStore)(nil)

// NewMemCachedStore returns a MemCachedStore over lower. Close closes lower.
func NewMemCachedStore(lower Store) *MemCachedStore {
	s := &MemCachedStore{lower: lower, mem: new(layer), maxPending: DefaultMaxPending}
	s.idle = sync.NewCond(&s.mu)
	return s
}

// Get implements Store. The returned slice may be the cached one: do not
// modify it.
func (s *MemCachedStore) Get(key []byte) ([]byte, error) {
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return nil, ErrClosed
	}
	v, st := s.mem.lookup(key)
	for i := len(s.pending) - 1; st == absent && i >= 0; i-- {
		v, st = s.pending[i].lookup(key)
	}
	s.mu.RUnlock()
	switch st {
	case present:
		return v, nil
	case deleted:
		return nil, ErrKeyNotFound
	}
	return s.lower.Get(key)
}

// Put implements Store; value is kept, not copied.
func (s *MemCachedStore) Put(key, value []byte) error {
	if len(key) == 0 {
		return ErrEmptyKey
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.mem.put(string(key), value)
	return nil
}

// Delete implements Store.
func (s *MemCachedStore) Delete(key []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.mem.del(string(key))
	return nil
}

// PutChangeSet implements Store by merging the changeset into the live
// layer (this is how a Snapshot commits). Values are kept, the maps not.
func (s *MemCachedStore) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	if err := checkKeys(puts); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.mem.merge(puts, dels)
	return nil
}

// Seek implements Store. The cached layers in range are captured under the
// read lock, then merged with the lower store's Seek without any lock held,
// so fn may read (not write) the store. Changes made after the call starts
// may or may not be seen.
func (s *MemCachedStore) Seek(rng SeekRange, fn func(k, v []byte) bool) error {
	lo, hi := boundsOf(rng)
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return ErrClosed
	}
	ents := s.mem.collect(nil, lo, hi, 0)
	for i := len(s.pending) - 1; i >= 0; i-- {
		ents = s.pending[i].collect(ents, lo, hi, len(s.pending)-i)
	}
	s.mu.RUnlock()
	return mergeSeek(s.lower, rng, sortEntries(ents, rng.Backwards), fn)
}

// Len returns the number of keys changed in the cache and not yet
// persisted (live and pending layers; a key may be counted twice).
func (s *MemCachedStore) Len() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := s.mem.len()
	for _, l := range s.pending {
		n += l.len()
	}
	return n
}

// Persist freezes the live layer and writes it to the lower store in the
// background. It returns the number of keys frozen. It waits only when
// DefaultMaxPending frozen layers are already queued (back-pressure on a
// disk slower than the writers). If an earlier background write failed,
// Persist returns that error (wrapped), freezes nothing and restarts the
// flush, which retries the failed layer.
func (s *MemCachedStore) Persist() (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrClosed
	}
	if err := s.takeFlushErrLocked(); err != nil {
		return 0, err
	}
	for len(s.pending) >= s.maxPending && s.flushErr == nil && !s.closed {
		s.idle.Wait()
	}
	if s.closed {
		return 0, ErrClosed
	}
	if err := s.takeFlushErrLocked(); err != nil {
		return 0, err
	}
	n := s.mem.len()
	if n != 0 {
		s.pending = append(s.pending, s.mem)
		s.mem = new(layer)
	}
	s.startFlushLocked()
	return n, nil
}

// takeFlushErrLocked returns a pending flush error and clears it, restarting
// the flush so the failed layer is retried. REQUIRES: s.mu held.
func (s *MemCachedStore) takeFlushErrLocked() error {
	err := s.flushErr
	if err == nil {
		return nil
	}
	s.flushErr = nil
	s.startFlushLocked()
	return fmt.Errorf("storage: background persist failed: %w", err)
}

// startFlushLocked starts the flush goroutine if there is work and it is
// not running. REQUIRES: s.mu held.
func (s *MemCachedStore) startFlushLocked() {
	if s.flushing || len(s.pending) == 0 || s.flushErr != nil {
		return
	}
	s.flushing = true
	go s.flushLoop()
}

// flushLoop writes the pending layers to the lower store, oldest first,
// until none is left or a write fails. A layer is dropped from pending only
// once the lower store holds it, so readers always find its data.
func (s *MemCachedStore) flushLoop() {
	s.mu.Lock()
	for len(s.pending) != 0 && s.flushErr == nil {
		l := s.pending[0]
		s.mu.Unlock()
		err := s.lower.PutChangeSet(l.puts, l.dels)
		s.mu.Lock()
		if err != nil {
			s.flushErr = err
		} else {
			s.pending[0] = nil
			s.pending = s.pending[1:]
		}
		s.idle.Broadcast()
	}
	s.flushing = false
	s.idle.Broadcast()
	s.mu.Unlock()
}

// WaitPersist waits until the background flush has stopped and returns its
// error, if any (the error stays pending for the next Persist).
func (s *MemCachedStore) WaitPersist() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.waitIdleLocked()
	if s.flushErr != nil {
		return fmt.Errorf("storage: background persist failed: %w", s.flushErr)
	}
	return nil
}

// waitIdleLocked waits for the flush goroutine to stop. REQUIRES: s.mu held.
func (s *MemCachedStore) waitIdleLocked() {
	for s.flushing {
		s.idle.Wait()
	}
}

// PersistSync writes every pending layer and the live layer to the lower
// store before returning, holding the write lock throughout: concurrent
// readers and writers wait for the disk. It is the simple, blocking
// variant, meant for shutdown and for comparison with Persist. It returns
// the number of keys written from the live layer.
func (s *MemCachedStore) PersistSync() (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrClosed
	}
	return s.persistSyncLocked()
}

// persistSyncLocked implements PersistSync. REQUIRES: s.mu held.
func (s *MemCachedStore) persistSyncLocked() (int, error) {
	s.waitIdleLocked()
	s.flushErr = nil // retried below
	for len(s.pending) != 0 {
		l := s.pending[0]
		if err := s.lower.PutChangeSet(l.puts, l.dels); err != nil {
			return 0, fmt.Errorf("storage: persist: %w", err)
		}
		s.pending[0] = nil
		s.pending = s.pending[1:]
	}
	n := s.mem.len()
	if n == 0 {
		return 0, nil
	}
	if err := s.lower.PutChangeSet(s.mem.puts, s.mem.dels); err != nil {
		return 0, fmt.Errorf("storage: persist: %w", err)
	}
	s.mem = new(layer)
	return n, nil
}

// Close writes everything still cached to the lower store, then closes the
// lower store. If the final write fails, the lower store is still closed
// and both errors are returned; the unwritten changes are lost.
func (s *MemCachedStore) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	_, perr := s.persistSyncLocked()
	s.closed = true
	s.mem, s.pending = new(layer), nil
	s.idle.Broadcast() // wake Persist calls waiting for room
	return errors.Join(perr, s.lower.Close())
}

// Abandon closes the store without writing the live layer: for a cache
// whose live layer holds changes that must not reach the disk (part of an
// unfinished unit of work). The frozen layers, complete units handed to
// Persist, are still written first. The lower store is closed either way.
func (s *MemCachedStore) Abandon() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	s.waitIdleLocked()
	var perr error
	for len(s.pending) != 0 && perr == nil {
		if perr = s.lower.PutChangeSet(s.pending[0].puts, s.pending[0].dels); perr == nil {
			s.pending = s.pending[1:]
		}
	}
	if perr != nil {
		perr = fmt.Errorf("storage: persist: %w", perr)
	}
	s.closed = true
	s.mem, s.pending = new(layer), nil
	s.idle.Broadcast()
	return errors.Join(perr, s.lower.Close())
}
