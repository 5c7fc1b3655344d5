package chain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/n3d-io/n3d/pkg/storage"
)

// ledgerContractID is the LedgerContract's id: its storage is not part of
// the state trie.
const ledgerContractID int32 = -4

// ChangeState says what a block did to a storage key.
type ChangeState byte

// Storage change kinds, printed as neo-go's dump prints them.
const (
	Added ChangeState = iota + 1
	Changed
	Deleted
)

// String returns "Added", "Changed" or "Deleted".
func (s ChangeState) String() string {
	switch s {
	case Added:
		return "Added"
	case Changed:
		return "Changed"
	case Deleted:
		return "Deleted"
	}
	return fmt.Sprintf("ChangeState(%d)", byte(s))
}

// StorageChange is one contract storage key a block changed. Key is the
// trie key: int32 LE contract id ‖ item key. Value is nil for Deleted.
type StorageChange struct {
	State ChangeState
	Key   []byte
	Value []byte
}

// recorder sits between the block's DAO layer and the chain's write cache:
// it passes everything through and keeps the last change set committed into
// it (a block's whole set of changes, since the block layer commits once).
// It also remembers the contract storage values read through it (clean),
// kept up to date by the change sets: the natives read the same few items
// every block, and once the write cache has gone to the store those reads
// would otherwise reach the database each time.
type recorder struct {
	storage.Store
	mu   sync.Mutex
	puts map[string][]byte
	dels map[string]struct{}
	// old holds, when tracking, whether each changed storage key existed
	// before the change set (for Added/Changed/Deleted).
	track bool
	old   map[string]bool

	cleanMu sync.RWMutex
	clean   map[string][]byte      // storage key → value, nil: absent
	seeks   map[seekKey]seekResult // small storage seeks (seekcache.go)
	gen     uint64                 // change sets applied, under cleanMu
}

// maxCleanItems bounds the clean cache (it is emptied when full).
const maxCleanItems = 1 << 17

// Get implements storage.Store, answering contract storage reads from the
// clean cache when it can. A value read from below is cached only if no
// change set was applied meanwhile (it could be older than the change).
func (r *recorder) Get(key []byte) ([]byte, error) {
	if !isStorageKey(string(key)) {
		return r.Store.Get(key)
	}
	r.cleanMu.RLock()
	v, ok := r.clean[string(key)]
	gen := r.gen
	r.cleanMu.RUnlock()
	if ok {
		if v == nil {
			return nil, storage.ErrKeyNotFound
		}
		return v, nil
	}
	v, err := r.Store.Get(key)
	if err != nil && !errors.Is(err, storage.ErrKeyNotFound) {
		return nil, err
	}
	r.cleanMu.Lock()
	if r.gen == gen {
		if r.clean == nil || len(r.clean) >= maxCleanItems {
			r.clean = make(map[string][]byte)
		}
		r.clean[string(key)] = v // nil when absent
	}
	r.cleanMu.Unlock()
	return v, err
}

// updateClean applies a change set to the clean caches of reads and seeks
// (forgets everything when the change set failed: the store may hold part
// of it).
func (r *recorder) updateClean(puts map[string][]byte, dels map[string]struct{}, failed bool) {
	r.cleanMu.Lock()
	defer r.cleanMu.Unlock()
	r.gen++
	if failed {
		r.clean, r.seeks = nil, nil
		return
	}
	r.forgetSeeksLocked(puts, dels)
	if r.clean == nil {
		return
	}
	for k := range dels {
		if _, ok := r.clean[k]; ok {
			r.clean[k] = nil
		}
	}
	for k, v := range puts {
		if _, ok := r.clean[k]; ok {
			if v == nil {
				v = []byte{}
			}
			r.clean[k] = v
		}
	}
}

var _ storage.Store = (*recorder)(nil)

// PutChangeSet implements storage.Store: it records the change set, then
// applies it to the lower store.
func (r *recorder) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.puts != nil {
		return errors.New("chain: second change set in one block")
	}
	if r.track {
		r.old = make(map[string]bool)
		for _, m := range []map[string]struct{}{keysOf(puts), dels} {
			for k := range m {
				if !isStorageKey(k) {
					continue
				}
				_, err := r.Store.Get([]byte(k))
				switch {
				case err == nil:
					r.old[k] = true
				case !errors.Is(err, storage.ErrKeyNotFound):
					return fmt.Errorf("chain: reading %x: %w", k, err)
				}
			}
		}
	}
	r.puts, r.dels = maps2(puts), maps2(dels)
	err := r.Store.PutChangeSet(puts, dels)
	r.updateClean(puts, dels, err != nil)
	return err
}

// take returns and forgets the recorded change set.
func (r *recorder) take() (map[string][]byte, map[string]struct{}, map[string]bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	p, d, o := r.puts, r.dels, r.old
	r.puts, r.dels, r.old = nil, nil, nil
	return p, d, o
}

func keysOf(m map[string][]byte) map[string]struct{} {
	out := make(map[string]struct{}, len(m))
	for k := range m {
		out[k] = struct{}{}
	}
	return out
}

// maps2 copies a map (the store may reuse the caller's).
func maps2[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// isStorageKey reports whether a database key is a contract storage item
// (STStorage ‖ int32 LE id ‖ key).
func isStorageKey(k string) bool {
	return len(k) >= 5 && k[0] == byte(storage.STStorage)
}

// isTrieKey reports whether a storage key takes part in the state trie.
func isTrieKey(k string) bool {
	return isStorageKey(k) && int32(binary.LittleEndian.Uint32([]byte(k[1:5]))) != ledgerContractID
}

// trieChanges returns the state trie changes of a change set: trie key →
// value, nil for a deletion.
func trieChanges(puts map[string][]byte, dels map[string]struct{}) map[string][]byte {
	out := make(map[string][]byte, len(puts)+len(dels))
	for k := range dels {
		if isTrieKey(k) {
			out[k[1:]] = nil
		}
	}
	for k, v := range puts {
		if isTrieKey(k) {
			if v == nil {
				v = []byte{}
			}
			out[k[1:]] = v
		}
	}
	return out
}

// storageChanges lists the contract storage changes in neo-go's dump form,
// sorted by key: a put is Added or Changed after whether the key existed
// before the block, a deletion of a key that did not exist is left out.
func storageChanges(puts map[string][]byte, dels map[string]struct{}, old map[string]bool) []StorageChange {
	out := make([]StorageChange, 0, len(puts)+len(dels))
	for k, v := range puts {
		if !isStorageKey(k) {
			continue
		}
		st := Added
		if old[k] {
			st = Changed
		}
		out = append(out, StorageChange{State: st, Key: []byte(k[1:]), Value: v})
	}
	for k := range dels {
		if _, put := puts[k]; put || !isStorageKey(k) || !old[k] {
			continue
		}
		out = append(out, StorageChange{State: Deleted, Key: []byte(k[1:])})
	}
	slices.SortFunc(out, func(a, b StorageChange) int { return bytes.Compare(a.Key, b.Key) })
	return out
}

// StorageKeyOf returns the trie key of item key of contract id: int32 LE
// id ‖ key.
func StorageKeyOf(id int32, key []byte) []byte {
	return append(binary.LittleEndian.AppendUint32(make([]byte, 0, 4+len(key)), uint32(id)), key...)
}
