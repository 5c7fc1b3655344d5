// Package storagetest holds test helpers for code built on pkg/storage.
// FaultStore wraps any store and injects failures or holds writes, so the
// chain, the MPT or the cache can be tested against a disk that fails or is
// slow. It depends only on the Store method set, so pkg/storage's own
// tests use it too.
package storagetest

import (
	"sync"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
)

// Store is the method set of storage.Store (declared here to avoid an
// import cycle with pkg/storage's tests); every storage.Store satisfies it
// and a *FaultStore satisfies storage.Store.
type Store interface {
	Get(key []byte) ([]byte, error)
	Put(key, value []byte) error
	Delete(key []byte) error
	Seek(rng kv.SeekRange, fn func(k, v []byte) bool) error
	PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error
	Close() error
}

// FaultStore forwards to Inner unless a fault is set. It is safe for
// concurrent use.
type FaultStore struct {
	Inner Store
	// LeaveOpen makes Close a no-op, so a test can inspect Inner after the
	// code under test closed its store.
	LeaveOpen bool

	mu      sync.Mutex
	getErr  error
	seekErr error
	putErr  error
	kvErr   error         // Put and Delete
	gate    chan struct{} // non-nil: PutChangeSet waits until it is closed
	started chan struct{} // receives a value as each PutChangeSet starts
	calls   int
}

// NewFaultStore wraps inner.
func NewFaultStore(inner Store) *FaultStore {
	return &FaultStore{Inner: inner, started: make(chan struct{}, 64)}
}

// FailGet makes Get return err (nil: forward again).
func (f *FaultStore) FailGet(err error) { f.set(func() { f.getErr = err }) }

// FailSeek makes Seek return err (nil: forward again).
func (f *FaultStore) FailSeek(err error) { f.set(func() { f.seekErr = err }) }

// FailPutChangeSet makes PutChangeSet return err without applying anything
// (nil: forward again).
func (f *FaultStore) FailPutChangeSet(err error) { f.set(func() { f.putErr = err }) }

// FailWrites makes every write (PutChangeSet, Put, PutSync, Delete) return
// err without applying anything (nil: forward again): a full disk.
func (f *FaultStore) FailWrites(err error) {
	f.set(func() { f.putErr, f.kvErr = err, err })
}

// Hold makes every later PutChangeSet block until the returned release
// function is called (once).
func (f *FaultStore) Hold() (release func()) {
	gate := make(chan struct{})
	f.set(func() { f.gate = gate })
	return func() {
		f.set(func() { f.gate = nil })
		close(gate)
	}
}

// Started receives a value each time a PutChangeSet call begins (buffered;
// values are dropped when nobody drains it).
func (f *FaultStore) Started() <-chan struct{} { return f.started }

// PutChangeSetCalls reports how many PutChangeSet calls began.
func (f *FaultStore) PutChangeSetCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func (f *FaultStore) set(fn func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	fn()
}

// Get implements storage.Store.
func (f *FaultStore) Get(key []byte) ([]byte, error) {
	f.mu.Lock()
	err := f.getErr
	f.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return f.Inner.Get(key)
}

func (f *FaultStore) writeErr() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.kvErr
}

// Put implements storage.Store, honouring FailWrites.
func (f *FaultStore) Put(key, value []byte) error {
	if err := f.writeErr(); err != nil {
		return err
	}
	return f.Inner.Put(key, value)
}

// PutSync implements storage.SyncPutter, honouring FailWrites: it is
// Inner's PutSync when Inner has one, Put otherwise.
func (f *FaultStore) PutSync(key, value []byte) error {
	if err := f.writeErr(); err != nil {
		return err
	}
	if sp, ok := f.Inner.(interface{ PutSync(k, v []byte) error }); ok {
		return sp.PutSync(key, value)
	}
	return f.Inner.Put(key, value)
}

// RecoverWrites implements storage.WriteRecoverer: it forwards to Inner
// when Inner has the method, honouring FailWrites.
func (f *FaultStore) RecoverWrites() error {
	if err := f.writeErr(); err != nil {
		return err
	}
	if r, ok := f.Inner.(interface{ RecoverWrites() error }); ok {
		return r.RecoverWrites()
	}
	return nil
}

// Delete implements storage.Store, honouring FailWrites.
func (f *FaultStore) Delete(key []byte) error {
	if err := f.writeErr(); err != nil {
		return err
	}
	return f.Inner.Delete(key)
}

// Seek implements storage.Store.
func (f *FaultStore) Seek(rng kv.SeekRange, fn func(k, v []byte) bool) error {
	f.mu.Lock()
	err := f.seekErr
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.Inner.Seek(rng, fn)
}

// PutChangeSet implements storage.Store, honouring Hold and
// FailPutChangeSet (the failure is decided when the call is released).
func (f *FaultStore) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	f.mu.Lock()
	f.calls++
	gate := f.gate
	f.mu.Unlock()
	select {
	case f.started <- struct{}{}:
	default:
	}
	if gate != nil {
		<-gate
	}
	f.mu.Lock()
	err := f.putErr
	f.mu.Unlock()
	if err != nil {
		return err
	}
	return f.Inner.PutChangeSet(puts, dels)
}

// Close implements storage.Store; see LeaveOpen.
func (f *FaultStore) Close() error {
	if f.LeaveOpen {
		return nil
	}
	return f.Inner.Close()
}
