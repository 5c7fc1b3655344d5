package storage

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// opener makes a fresh, empty store for a test.
type opener struct {
	name string
	open func(t testing.TB) Store
}

func openLevel(t testing.TB, dir string) Store {
	s, err := New(DBConfiguration{Type: LevelDB, LevelDBOptions: LevelDBOptions{DataDirectoryPath: dir}})
	require.NoError(t, err)
	return s
}

func openBolt(t testing.TB, file string) Store {
	s, err := New(DBConfiguration{Type: BoltDB, BoltDBOptions: BoltDBOptions{FilePath: file}})
	require.NoError(t, err)
	return s
}

// closeLater closes s at the end of the test unless the test did.
func closeLater(t testing.TB, s Store) Store {
	t.Cleanup(func() {
		if err := s.Close(); err != nil && !errors.Is(err, ErrClosed) {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

func baseOpeners() []opener {
	return []opener{
		{"memory", func(t testing.TB) Store { return closeLater(t, NewMemoryStore()) }},
		{"leveldb", func(t testing.TB) Store { return closeLater(t, openLevel(t, t.TempDir())) }},
		{"boltdb", func(t testing.TB) Store {
			return closeLater(t, openBolt(t, filepath.Join(t.TempDir(), "db.bolt")))
		}},
	}
}

// allOpeners adds a MemCachedStore over each base store and a Snapshot over
// a MemCachedStore.
func allOpeners() []opener {
	res := baseOpeners()
	for _, b := range baseOpeners() {
		res = append(res, opener{"memcached/" + b.name, func(t testing.TB) Store {
			return closeLater(t, NewMemCachedStore(b.open(t)))
		}})
	}
	res = append(res, opener{"snapshot/memcached/memory", func(t testing.TB) Store {
		parent := NewMemCachedStore(NewMemoryStore())
		t.Cleanup(func() { require.NoError(t, parent.Close()) })
		return NewSnapshot(parent)
	}})
	return res
}

// seekAll collects a Seek as "k=v" strings (hex keys), skipping the format
// marker, which on-disk stores have and MemoryStore has not.
func seekAll(t testing.TB, s Store, rng SeekRange) []string {
	var res []string
	err := s.Seek(rng, func(k, v []byte) bool {
		if !bytes.Equal(k, SYSStorageFormat.Bytes()) {
			res = append(res, fmt.Sprintf("%x=%x", k, v))
		}
		return true
	})
	require.NoError(t, err)
	return res
}

// modelSeek is the naive definition of SeekRange over a plain map, written
// from the documented semantics independently of kv.Bounds.
func modelSeek(m map[string]string, rng SeekRange) []string {
	full := string(rng.Prefix) + string(rng.Start)
	var keys []string
	for k := range m {
		if !strings.HasPrefix(k, string(rng.Prefix)) {
			continue
		}
		if rng.Backwards && (k <= full || strings.HasPrefix(k, full)) || !rng.Backwards && k >= full {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	if rng.Backwards {
		slices.Reverse(keys)
	}
	var res []string
	for _, k := range keys {
		res = append(res, fmt.Sprintf("%x=%x", k, m[k]))
	}
	return res
}

func TestStoreGetPutDelete(t *testing.T) {
	for _, o := range allOpeners() {
		t.Run(o.name, func(t *testing.T) {
			s := o.open(t)
			_, err := s.Get([]byte("a"))
			require.ErrorIs(t, err, ErrKeyNotFound)

			require.NoError(t, s.Put([]byte("a"), []byte("1")))
			require.NoError(t, s.Put([]byte("a"), []byte("2")))
			v, err := s.Get([]byte("a"))
			require.NoError(t, err)
			require.Equal(t, []byte("2"), v)

			require.NoError(t, s.Put([]byte("empty"), nil))
			v, err = s.Get([]byte("empty"))
			require.NoError(t, err, "an empty value is a value")
			require.Empty(t, v)

			require.NoError(t, s.Delete([]byte("a")))
			require.NoError(t, s.Delete([]byte("never")))
			_, err = s.Get([]byte("a"))
			require.ErrorIs(t, err, ErrKeyNotFound)

			require.ErrorIs(t, s.Put(nil, []byte("x")), ErrEmptyKey)
			_, err = s.Get(nil)
			require.ErrorIs(t, err, ErrKeyNotFound)
		})
	}
}

func TestStorePutChangeSet(t *testing.T) {
	for _, o := range allOpeners() {
		t.Run(o.name, func(t *testing.T) {
			s := o.open(t)
			require.NoError(t, s.Put([]byte("gone"), []byte("x")))
			require.NoError(t, s.Put([]byte("both"), []byte("old")))
			puts := map[string][]byte{"new": []byte("n"), "both": []byte("b"), "nil": nil}
			dels := map[string]struct{}{"gone": {}, "both": {}, "absent": {}}
			require.NoError(t, s.PutChangeSet(puts, dels))
			m := map[string]string{"new": "n", "both": "b", "nil": ""}
			require.Equal(t, modelSeek(m, SeekRange{}), seekAll(t, s, SeekRange{}))

			// A bad key rejects the whole changeset.
			err := s.PutChangeSet(map[string][]byte{"ok": []byte("1"), "": []byte("2")}, nil)
			require.ErrorIs(t, err, ErrEmptyKey)
			_, err = s.Get([]byte("ok"))
			require.ErrorIs(t, err, ErrKeyNotFound)
			require.NoError(t, s.PutChangeSet(nil, nil))
		})
	}
}

func seekFixture() map[string]string {
	m := make(map[string]string)
	for _, k := range []string{"a", "ab", "abc", "abd", "ac", "b", "b\xff", "b\xff\xff", "c\x00", "\xff", "\xff\xff\x01"} {
		m[k] = "v" + k
	}
	return m
}

func seekRanges() []SeekRange {
	var res []SeekRange
	for _, p := range []string{"", "a", "ab", "b\xff", "\xff", "z"} {
		for _, st := range []string{"", "b", "c", "\xff", "\x00"} {
			for _, back := range []bool{false, true} {
				res = append(res, SeekRange{Prefix: []byte(p), Start: []byte(st), Backwards: back})
			}
		}
	}
	return res
}

func TestStoreSeek(t *testing.T) {
	m := seekFixture()
	// Hand-checked cases pin the semantics the model encodes.
	require.Equal(t, modelSeek(map[string]string{"ab": "", "abx": "", "ac": "", "aa": ""},
		SeekRange{Prefix: []byte("a"), Start: []byte("b"), Backwards: true}),
		[]string{"616278=", "6162=", "6161="})
	require.Equal(t, modelSeek(map[string]string{"ab": "", "abx": "", "ac": "", "aa": ""},
		SeekRange{Prefix: []byte("a"), Start: []byte("b")}),
		[]string{"6162=", "616278=", "6163="})
	for _, o := range allOpeners() {
		t.Run(o.name, func(t *testing.T) {
			s := o.open(t)
			for k, v := range m {
				require.NoError(t, s.Put([]byte(k), []byte(v)))
			}
			for _, rng := range seekRanges() {
				require.Equal(t, modelSeek(m, rng), seekAll(t, s, rng), "range %q/%q back=%v", rng.Prefix, rng.Start, rng.Backwards)
			}
			// Stopping early.
			var n int
			require.NoError(t, s.Seek(SeekRange{Prefix: []byte("a")}, func(_, _ []byte) bool {
				n++
				return n < 2
			}))
			require.Equal(t, 2, n)
		})
	}
}

func TestStoreClose(t *testing.T) {
	for _, o := range allOpeners() {
		t.Run(o.name, func(t *testing.T) {
			s := o.open(t)
			require.NoError(t, s.Put([]byte("k"), []byte("v")))
			require.NoError(t, s.Close())
			require.ErrorIs(t, s.Close(), ErrClosed)
			_, err := s.Get([]byte("k"))
			require.ErrorIs(t, err, ErrClosed)
			require.ErrorIs(t, s.Put([]byte("k"), []byte("v")), ErrClosed)
			require.ErrorIs(t, s.Delete([]byte("k")), ErrClosed)
			require.ErrorIs(t, s.PutChangeSet(map[string][]byte{"k": nil}, nil), ErrClosed)
			require.ErrorIs(t, s.Seek(SeekRange{}, func(_, _ []byte) bool { return true }), ErrClosed)
		})
	}
}
