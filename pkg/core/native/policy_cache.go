package native

import (
	"math/big"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/storage"
)

// keyFilter remembers every Policy storage key under one prefix that was
// ever present in a DAO layer Policy used: the keys found in the first DAO
// it is asked about, plus every key Policy writes afterwards in any layer.
// It only grows, so a layer that is discarded, or a record that is
// deleted, can only leave extra keys in it, never a missing one: a key
// the filter does not hold is absent from every layer, and the lookup
// needs no storage read. A key it holds is looked up in storage as usual.
//
// This makes the hot negative answers free: IsBlocked runs for every
// contract call and transaction signer, WhitelistedFee for every call
// from Faun on, and blocked or whitelisted entries are rare. (neo-go keeps
// the whole Policy state in per-layer caches of its DAO; ours has no
// per-layer cache slots, and the scalar values are one read each.)
//
// The filter assumes Policy storage changes only through this Policy
// (block execution); after storage was written any other way (a state
// import, another database under the same natives) call ResetCaches.
type keyFilter struct {
	prefix byte
	mu     sync.RWMutex
	loaded bool
	keys   map[string]struct{} // guarded by mu
}

// mayHave reports whether key may be present: false means it is absent
// from d. It loads the filter from d on first use.
func (f *keyFilter) mayHave(d *dao.DAO, id int32, key []byte) (bool, error) {
	f.mu.RLock()
	loaded := f.loaded
	_, ok := f.keys[string(key)]
	f.mu.RUnlock()
	if loaded {
		return ok, nil
	}
	if err := f.load(d, id); err != nil {
		return false, err
	}
	f.mu.RLock()
	_, ok = f.keys[string(key)]
	f.mu.RUnlock()
	return ok, nil
}

func (f *keyFilter) load(d *dao.DAO, id int32) error {
	var found []string
	err := d.SeekStorage(id, storageRange(f.prefix), func(k, _ []byte) bool {
		found = append(found, string(k))
		return true
	})
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.keys == nil {
		f.keys = make(map[string]struct{}, len(found))
	}
	for _, k := range found {
		f.keys[k] = struct{}{}
	}
	f.loaded = true
	return nil
}

// add records key before Policy writes it.
func (f *keyFilter) add(key []byte) {
	f.mu.Lock()
	if f.keys == nil {
		f.keys = make(map[string]struct{})
	}
	f.keys[string(key)] = struct{}{}
	f.mu.Unlock()
}

func (f *keyFilter) reset() {
	f.mu.Lock()
	f.loaded, f.keys = false, nil
	f.mu.Unlock()
}

// ResetCaches forgets what Policy learnt about its storage; the next
// lookups reload it. Call it after Policy storage was changed other than
// by executing blocks with this Policy.
func (pc *Policy) ResetCaches() {
	pc.blocked.reset()
	pc.whitelist.reset()
}

func storageRangeBytes(prefix []byte) storage.SeekRange {
	return storage.SeekRange{Prefix: prefix}
}

func bigIntBytes(n *big.Int) []byte { return bigint.ToBytes(n) }
