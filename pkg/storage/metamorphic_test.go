package storage

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// The metamorphic test runs one seeded random sequence of operations
// against every configuration (raw backends, MemCachedStore over each,
// Snapshots on top) and a naive model, and requires identical transcripts
// of everything observable (Get results, Seek outputs, errors).

type opKind int

const (
	opPut opKind = iota
	opDelete
	opChangeSet
	opGet
	opSeek
	opPersist
	opPersistSync
	opWaitPersist
	opBegin   // open a Snapshot on top
	opCommit  // commit the top Snapshot
	opDiscard // discard the top Snapshot
	opReopen  // close and reopen (flushing caches); only with no Snapshot open
	numOps
)

type op struct {
	kind  opKind
	key   string
	val   []byte
	puts  map[string][]byte
	dels  map[string]struct{}
	rng   SeekRange
	limit int
}

var (
	metaPrefixes = []byte{0x01, 0x70, 0x71, 0xc0}
	metaAlphabet = []byte{0x00, 0x01, 0x7f, 0xff}
)

func genKey(r *rand.Rand) string {
	b := []byte{metaPrefixes[r.IntN(len(metaPrefixes))]}
	for range r.IntN(3) {
		b = append(b, metaAlphabet[r.IntN(len(metaAlphabet))])
	}
	return string(b)
}

func genBytes(r *rand.Rand, first []byte) []byte {
	var b []byte
	for i := range r.IntN(3) {
		alpha := metaAlphabet
		if i == 0 && first != nil {
			alpha = first
		}
		b = append(b, alpha[r.IntN(len(alpha))])
	}
	return b
}

// genOps draws n operations. depth tracks open Snapshots so commits,
// discards and reopens are only generated where they make sense.
func genOps(seed uint64, n int) []op {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	ops := make([]op, 0, n)
	depth := 0
	for i := 0; len(ops) < n; i++ {
		o := op{kind: opKind(r.IntN(int(numOps)))}
		switch o.kind {
		case opPut:
			v := fmt.Sprintf("v%d", i)
			o.key, o.val = genKey(r), []byte(v[:r.IntN(len(v)+1)])
		case opDelete, opGet:
			o.key = genKey(r)
		case opChangeSet:
			o.puts, o.dels = map[string][]byte{}, map[string]struct{}{}
			for range r.IntN(6) {
				o.puts[genKey(r)] = []byte(fmt.Sprintf("c%d", i))
			}
			for range r.IntN(4) {
				o.dels[genKey(r)] = struct{}{}
			}
		case opSeek:
			o.rng = SeekRange{Prefix: genBytes(r, append(metaPrefixes, 0xff)), Start: genBytes(r, nil), Backwards: r.IntN(2) == 0}
			o.limit = 1 + r.IntN(12)
		case opBegin:
			if depth >= 3 {
				continue
			}
			depth++
		case opCommit, opDiscard:
			if depth == 0 {
				continue
			}
			depth--
		case opReopen:
			if depth != 0 || r.IntN(8) != 0 {
				continue
			}
		}
		ops = append(ops, o)
	}
	return ops
}

// model is the naive reference: a map per Snapshot level.
type model struct{ levels []map[string]string }

func (m *model) top() map[string]string { return m.levels[len(m.levels)-1] }

func (m *model) apply(o op) string {
	switch o.kind {
	case opPut:
		m.top()[o.key] = string(o.val)
	case opDelete:
		delete(m.top(), o.key)
	case opChangeSet:
		for k := range o.dels {
			delete(m.top(), k)
		}
		for k, v := range o.puts {
			m.top()[k] = string(v)
		}
	case opGet:
		if v, ok := m.top()[o.key]; ok {
			return fmt.Sprintf("get %x = %x", o.key, v)
		}
		return fmt.Sprintf("get %x: %v", o.key, ErrKeyNotFound)
	case opSeek:
		res := modelSeek(m.top(), o.rng)
		return fmt.Sprintf("seek %x/%x/%v: %s", o.rng.Prefix, o.rng.Start, o.rng.Backwards, strings.Join(res[:min(len(res), o.limit)], ","))
	case opBegin:
		m.levels = append(m.levels, maps.Clone(m.top()))
	case opCommit:
		m.levels[len(m.levels)-2] = m.top()
		m.levels = m.levels[:len(m.levels)-1]
	case opDiscard:
		m.levels = m.levels[:len(m.levels)-1]
	}
	return ""
}

// subject is one configuration under test.
type subject struct {
	base   Store
	cache  *MemCachedStore // nil for a raw backend
	snaps  []*Snapshot
	reopen func(t testing.TB) Store // nil for memory
}

func (s *subject) top() Store {
	switch {
	case len(s.snaps) != 0:
		return s.snaps[len(s.snaps)-1]
	case s.cache != nil:
		return s.cache
	}
	return s.base
}

func (s *subject) apply(t testing.TB, o op) string {
	top := s.top()
	switch o.kind {
	case opPut:
		require.NoError(t, top.Put([]byte(o.key), o.val))
	case opDelete:
		require.NoError(t, top.Delete([]byte(o.key)))
	case opChangeSet:
		require.NoError(t, top.PutChangeSet(o.puts, o.dels))
	case opGet:
		v, err := top.Get([]byte(o.key))
		if err != nil {
			return fmt.Sprintf("get %x: %v", o.key, err)
		}
		return fmt.Sprintf("get %x = %x", o.key, v)
	case opSeek:
		var res []string
		require.NoError(t, top.Seek(o.rng, func(k, v []byte) bool {
			if string(k) == string(SYSStorageFormat.Bytes()) {
				return true // the on-disk format marker, absent from the model
			}
			res = append(res, fmt.Sprintf("%x=%x", k, v))
			return len(res) < o.limit
		}))
		return fmt.Sprintf("seek %x/%x/%v: %s", o.rng.Prefix, o.rng.Start, o.rng.Backwards, strings.Join(res, ","))
	default:
		s.control(t, o)
	}
	return ""
}

// control applies the operations that change layering, not contents.
func (s *subject) control(t testing.TB, o op) {
	switch o.kind {
	case opPersist:
		if s.cache != nil {
			_, err := s.cache.Persist()
			require.NoError(t, err)
		}
	case opPersistSync:
		if s.cache != nil {
			_, err := s.cache.PersistSync()
			require.NoError(t, err)
		}
	case opWaitPersist:
		if s.cache != nil {
			require.NoError(t, s.cache.WaitPersist())
		}
	case opBegin:
		s.snaps = append(s.snaps, NewSnapshot(s.top()))
	case opCommit:
		require.NoError(t, s.snaps[len(s.snaps)-1].Commit())
		s.snaps = s.snaps[:len(s.snaps)-1]
	case opDiscard:
		s.snaps[len(s.snaps)-1].Discard()
		s.snaps = s.snaps[:len(s.snaps)-1]
	case opReopen:
		if s.reopen == nil {
			return
		}
		if s.cache != nil {
			require.NoError(t, s.cache.Close())
			s.base = s.reopen(t)
			s.cache = NewMemCachedStore(s.base)
			return
		}
		require.NoError(t, s.base.Close())
		s.base = s.reopen(t)
	}
}

func (s *subject) close(t testing.TB) {
	if s.cache != nil {
		require.NoError(t, s.cache.Close())
		return
	}
	require.NoError(t, s.base.Close())
}

func metaSubjects(t testing.TB) map[string]*subject {
	dir := t.TempDir()
	level := func(name string) func(testing.TB) Store {
		return func(t testing.TB) Store { return openLevel(t, filepath.Join(dir, name)) }
	}
	bolt := func(name string) func(testing.TB) Store {
		return func(t testing.TB) Store { return openBolt(t, filepath.Join(dir, name)) }
	}
	res := map[string]*subject{
		"memory":            {base: NewMemoryStore()},
		"leveldb":           {reopen: level("l1")},
		"boltdb":            {reopen: bolt("b1")},
		"memcached/memory":  {base: NewMemoryStore()},
		"memcached/leveldb": {reopen: level("l2")},
		"memcached/boltdb":  {reopen: bolt("b2")},
	}
	for name, s := range res {
		if s.base == nil {
			s.base = s.reopen(t)
		}
		if strings.HasPrefix(name, "memcached/") {
			s.cache = NewMemCachedStore(s.base)
		}
	}
	return res
}

func runMetamorphic(t *testing.T, seed uint64, n int) {
	runOps(t, seed, genOps(seed, n), metaSubjects(t))
}

func runOps(t *testing.T, seed uint64, ops []op, subjects map[string]*subject) {
	m := &model{levels: []map[string]string{{}}}
	want := make([]string, len(ops))
	for i, o := range ops {
		want[i] = m.apply(o)
	}
	for name, s := range subjects {
		for i, o := range ops {
			got := s.apply(t, o)
			if got != want[i] {
				t.Fatalf("seed %d, %s, op %d (%+v):\n got %s\nwant %s", seed, name, i, o, got, want[i])
			}
		}
		s.close(t)
	}
}

// FuzzMetamorphic runs short random sequences on the in-memory
// configurations (with and without the layer index).
func FuzzMetamorphic(f *testing.F) {
	f.Add(uint64(1), uint16(200), false)
	f.Add(uint64(2), uint16(50), true)
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, indexed bool) {
		defer func(v int) { indexMinKeys = v }(indexMinKeys)
		if indexed {
			indexMinKeys = 0
		}
		lower := NewMemoryStore()
		runOps(t, seed, genOps(seed, int(n%400)), map[string]*subject{
			"memory":           {base: NewMemoryStore()},
			"memcached/memory": {base: lower, cache: NewMemCachedStore(lower)},
		})
	})
}

func TestMetamorphic(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3, 42} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			runMetamorphic(t, seed, 1500)
		})
	}
	// The same with every cache layer using its sorted Seek index.
	defer func(n int) { indexMinKeys = n }(indexMinKeys)
	indexMinKeys = 0
	for _, seed := range []uint64{5, 6} {
		t.Run(fmt.Sprintf("indexed/%d", seed), func(t *testing.T) {
			runMetamorphic(t, seed, 1500)
		})
	}
}
