package chain

import (
	"bytes"
	"strings"

	"github.com/n3d-io/n3d/pkg/storage"
)

// The recorder's clean cache of small contract storage seeks. The natives
// walk a few short prefixes on every block or every transfer (NEO's
// GAS-per-block records on each NEO balance change, candidates, ...); below
// the write cache each such walk opens a database iterator. A seek of a
// contract storage prefix that finds at most maxSeekCacheItems items is
// remembered with its result; a change set touching any key under a cached
// prefix (or any change set when the cache is dropped, as for the clean
// Gets) forgets it. Like the clean Gets, a result read from below is kept
// only if no change set was applied meanwhile.

const (
	// maxSeekCacheItems bounds the result of a seek the cache keeps.
	maxSeekCacheItems = 64
	// maxSeekCacheEntries bounds the seeks kept (emptied when full).
	maxSeekCacheEntries = 256
)

// seekKey identifies a seek: prefix, start and direction.
type seekKey struct {
	prefix, start string
	backwards     bool
}

// seekResult is a remembered seek's items in the order Seek gave them.
type seekResult struct {
	keys, values [][]byte
}

// Seek implements storage.Store, answering small contract storage seeks
// from the cache when it can.
func (r *recorder) Seek(rng storage.SeekRange, fn func(k, v []byte) bool) error {
	if len(rng.Prefix) < 5 || !isStorageKey(string(rng.Prefix)) {
		return r.Store.Seek(rng, fn)
	}
	key := seekKey{prefix: string(rng.Prefix), start: string(rng.Start), backwards: rng.Backwards}
	r.cleanMu.RLock()
	res, ok := r.seeks[key]
	gen := r.gen
	r.cleanMu.RUnlock()
	if ok {
		for i := range res.keys {
			if !fn(res.keys[i], res.values[i]) {
				break
			}
		}
		return nil
	}
	var got seekResult
	complete, deliver := true, true
	err := r.Store.Seek(rng, func(k, v []byte) bool {
		if len(got.keys) < maxSeekCacheItems {
			got.keys = append(got.keys, bytes.Clone(k))
			got.values = append(got.values, bytes.Clone(v))
		} else {
			complete = false
		}
		if deliver {
			deliver = fn(k, v)
		}
		return deliver || complete
	})
	if err != nil || !complete {
		return err
	}
	r.cleanMu.Lock()
	if r.gen == gen {
		if r.seeks == nil || len(r.seeks) >= maxSeekCacheEntries {
			r.seeks = make(map[seekKey]seekResult)
		}
		r.seeks[key] = got
	}
	r.cleanMu.Unlock()
	return nil
}

// forgetSeeksLocked drops the remembered seeks a change of these keys can
// affect. REQUIRES: r.cleanMu held for writing.
func (r *recorder) forgetSeeksLocked(puts map[string][]byte, dels map[string]struct{}) {
	if len(r.seeks) == 0 {
		return
	}
	touches := func(prefix string) bool {
		for k := range puts {
			if strings.HasPrefix(k, prefix) {
				return true
			}
		}
		for k := range dels {
			if strings.HasPrefix(k, prefix) {
				return true
			}
		}
		return false
	}
	for sk := range r.seeks {
		if touches(sk.prefix) {
			delete(r.seeks, sk)
		}
	}
}
