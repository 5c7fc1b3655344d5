package storage

import (
	"cmp"
	"slices"
	"sort"
	"sync"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
)

// indexMinKeys is the layer size from which Seek keeps a sorted key index
// instead of scanning the maps (a variable so tests can force either path).
var indexMinKeys = 512

// layer is one set of uncommitted changes: values put and keys deleted. A
// key is in at most one of the two maps. Values are never nil in puts
// (nil is stored as an empty slice), so a put of an empty value stays
// distinguishable from a deletion. Both maps are created lazily.
//
// Large layers get an index of their keys (puts ∪ dels) on their first
// Seek, so later Seeks cost O(log² n + keys in range) instead of a scan of
// the maps. The index is a stack of sorted runs, each at least twice as
// long as the next one (a log-structured merge): the keys added since the
// last Seek (added) become a new run, merged with the smaller runs above it
// while that keeps the sizes geometric, so a key is merged O(log n) times
// however the Seeks and writes interleave, and a Seek binary-searches
// O(log n) runs. Collect's result is sorted by the caller (sortEntries), so
// runs need not be merged for a Seek. In a cache layer a key never leaves
// puts ∪ dels, so it is in exactly one run. MemoryStore also removes keys
// (remove); the index then keeps stale entries, skipped by Seek and dropped
// by a rebuild once they outnumber the live keys (a removed key put again
// may be in two runs: both entries are the same, sortEntries dedupes).
type layer struct {
	puts map[string][]byte
	dels map[string]struct{}

	indexed bool       // runs/added are maintained; set under idxMu
	idxMu   sync.Mutex // serialises concurrent Seeks updating the index
	runs    [][]string // sorted runs of keys as of the last Seek, longest first
	added   []string   // keys new to puts ∪ dels since, unsorted
}

// lookup results.
type presence uint8

const (
	absent presence = iota
	present
	deleted
)

var emptyValue = []byte{}

func (l *layer) lookup(key []byte) ([]byte, presence) {
	if v, ok := l.puts[string(key)]; ok {
		return v, present
	}
	if len(l.dels) != 0 {
		if _, ok := l.dels[string(key)]; ok {
			return nil, deleted
		}
	}
	return nil, absent
}

// put and del are called with the owner's exclusive access (no Seek of
// this layer runs meanwhile), so they update added without idxMu.
func (l *layer) put(key string, value []byte) {
	if value == nil {
		value = emptyValue
	}
	if l.puts == nil {
		l.puts = make(map[string][]byte)
	}
	if l.indexed {
		l.noteKey(key)
	}
	l.puts[key] = value
	if len(l.dels) != 0 {
		delete(l.dels, key)
	}
}

func (l *layer) del(key string) {
	if l.dels == nil {
		l.dels = make(map[string]struct{})
	}
	if l.indexed {
		l.noteKey(key)
	}
	l.dels[key] = struct{}{}
	delete(l.puts, key)
}

// merge applies a changeset on top of l, with PutChangeSet semantics.
func (l *layer) merge(puts map[string][]byte, dels map[string]struct{}) {
	for k := range dels {
		l.del(k)
	}
	for k, v := range puts {
		l.put(k, v)
	}
}

// noteKey records key in added if it is new to puts ∪ dels.
func (l *layer) noteKey(key string) {
	if _, ok := l.puts[key]; ok {
		return
	}
	if _, ok := l.dels[key]; ok {
		return
	}
	l.added = append(l.added, key)
}

// remove drops key from puts (MemoryStore's delete, which keeps no
// deletion marker).
func (l *layer) remove(key string) {
	delete(l.puts, key)
}

// maxKeptKeys bounds the layers whose maps reset keeps: clearing a map
// costs its capacity, so the maps of a big layer are dropped rather than
// cleared again on every reuse.
const maxKeptKeys = 256

// reset empties the layer, keeping its maps' memory for reuse unless they
// are large.
func (l *layer) reset() {
	if len(l.puts) > maxKeptKeys || len(l.dels) > maxKeptKeys {
		l.puts, l.dels = nil, nil
	} else {
		clear(l.puts)
		clear(l.dels)
	}
	l.indexed, l.runs, l.added = false, nil, nil
}

func (l *layer) len() int { return len(l.puts) + len(l.dels) }

func (l *layer) empty() bool { return len(l.puts) == 0 && len(l.dels) == 0 }

// checkKeys rejects empty keys in a changeset before anything is applied.
func checkKeys(puts map[string][]byte) error {
	if _, ok := puts[""]; ok {
		return ErrEmptyKey
	}
	return nil
}

// entry is one key of a layer in a Seek: a value or a deletion (del).
type entry struct {
	key  string
	val  []byte
	del  bool
	rank int // layer rank, 0 = newest; used while combining layers
}

// collect appends l's entries in [lo, hi) to ents, tagged with rank.
func (l *layer) collect(ents []entry, lo, hi []byte, rank int) []entry {
	if l.len() >= indexMinKeys {
		return l.collectIndexed(ents, lo, hi, rank)
	}
	l.dropIndex()
	for k, v := range l.puts {
		if kv.InRange(k, lo, hi) {
			ents = append(ents, entry{key: k, val: v, rank: rank})
		}
	}
	for k := range l.dels {
		if kv.InRange(k, lo, hi) {
			ents = append(ents, entry{key: k, del: true, rank: rank})
		}
	}
	return ents
}

// sortEntries orders ents in seek order and keeps, for each key, only the
// entry of the newest layer (lowest rank).
func sortEntries(ents []entry, backwards bool) []entry {
	slices.SortFunc(ents, func(a, b entry) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return cmp.Compare(a.rank, b.rank)
	})
	out := ents[:0]
	for i, e := range ents {
		if i > 0 && e.key == ents[i-1].key {
			continue
		}
		out = append(out, e)
	}
	if backwards {
		slices.Reverse(out)
	}
	return out
}

// boundsOf is kv.Bounds, named locally for readability.
func boundsOf(rng SeekRange) (lo, hi []byte) { return kv.Bounds(rng) }

// collectIndexed is collect through the sorted runs, which it builds or
// brings up to date first.
func (l *layer) collectIndexed(ents []entry, lo, hi []byte, rank int) []entry {
	l.idxMu.Lock()
	defer l.idxMu.Unlock()
	if l.indexed && l.indexLen()+len(l.added) > 2*l.len()+indexMinKeys {
		l.indexed, l.added = false, l.added[:0] // too many removed keys: rebuild
	}
	if !l.indexed {
		all := make([]string, 0, l.len())
		for k := range l.puts {
			all = append(all, k)
		}
		for k := range l.dels {
			all = append(all, k)
		}
		slices.Sort(all)
		l.runs = append(l.runs[:0], all)
		l.indexed = true
	} else if len(l.added) != 0 {
		run := slices.Clone(l.added)
		slices.Sort(run)
		l.added = l.added[:0]
		l.runs = append(l.runs, run)
		for n := len(l.runs); n >= 2 && 2*len(l.runs[n-1]) > len(l.runs[n-2]); n = len(l.runs) {
			a, b := l.runs[n-2], l.runs[n-1]
			l.runs[n-2] = mergeSorted(make([]string, 0, len(a)+len(b)), a, b)
			l.runs = l.runs[:n-1]
		}
	}
	for _, run := range l.runs {
		i := sort.SearchStrings(run, string(lo))
		for _, k := range run[i:] {
			if hi != nil && k >= string(hi) {
				break
			}
			if v, ok := l.puts[k]; ok {
				ents = append(ents, entry{key: k, val: v, rank: rank})
			} else if _, ok := l.dels[k]; ok {
				ents = append(ents, entry{key: k, del: true, rank: rank})
			}
			// Otherwise k was removed (MemoryStore) and is skipped.
		}
	}
	return ents
}

// indexLen is the number of keys in the runs (stale ones included).
// REQUIRES: l.idxMu held.
func (l *layer) indexLen() int {
	n := 0
	for _, r := range l.runs {
		n += len(r)
	}
	return n
}

// dropIndex forgets the index of a layer that shrank below indexMinKeys
// (MemoryStore), so put stops tracking added keys.
func (l *layer) dropIndex() {
	l.idxMu.Lock()
	if l.indexed {
		l.indexed, l.runs, l.added = false, nil, nil
	}
	l.idxMu.Unlock()
}

// mergeSorted appends the merge of sorted a and b to dst.
func mergeSorted(dst, a, b []string) []string {
	for len(a) != 0 && len(b) != 0 {
		if a[0] <= b[0] {
			dst, a = append(dst, a[0]), a[1:]
		} else {
			dst, b = append(dst, b[0]), b[1:]
		}
	}
	return append(append(dst, a...), b...)
}
