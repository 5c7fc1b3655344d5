package storage

import (
	"cmp"
	"slices"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
)

// layer is one set of uncommitted changes: values put and keys deleted. A
// key is in at most one of the two maps. Values are never nil in puts
// (nil is stored as an empty slice), so a put of an empty value stays
// distinguishable from a deletion. Both maps are created lazily.
type layer struct {
	puts map[string][]byte
	dels map[string]struct{}
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

func (l *layer) put(key string, value []byte) {
	if value == nil {
		value = emptyValue
	}
	if l.puts == nil {
		l.puts = make(map[string][]byte)
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
