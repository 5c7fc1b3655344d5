package leveldb

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/n3d-io/n3d/pkg/storage/internal/synclog"
	"github.com/stretchr/testify/require"
	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
)

// crashClose closes s as a killed process would leave it: the side file's
// records not folded, nothing flushed.
func crashClose(t *testing.T, s *Store) {
	t.Helper()
	require.NoError(t, s.log.Close())
	require.NoError(t, s.db.Close())
}

// inLevelDB reads key from the LevelDB files themselves.
func inLevelDB(t *testing.T, dir, key string) ([]byte, bool) {
	t.Helper()
	db, err := leveldb.OpenFile(dir, &opt.Options{ReadOnly: true})
	require.NoError(t, err)
	defer func() { require.NoError(t, db.Close()) }()
	v, err := db.Get([]byte(key), nil)
	if errors.Is(err, leveldb.ErrNotFound) {
		return nil, false
	}
	require.NoError(t, err)
	return v, true
}

func requireValue(t *testing.T, s *Store, key, want string) {
	t.Helper()
	v, err := s.Get([]byte(key))
	require.NoError(t, err, key)
	require.Equal(t, want, string(v), key)
}

func seekAll(t *testing.T, s *Store, back bool) []string {
	t.Helper()
	var got []string
	require.NoError(t, s.Seek(kv.SeekRange{Backwards: back}, func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	}))
	return got
}

// TestSynclogFold: a PutSync is read back at once without reaching
// LevelDB; the next change set folds it, or drops it when it deletes it.
func TestSynclogFold(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	require.NoError(t, s.PutSync([]byte("\xc6a"), []byte("1")))
	require.NoError(t, s.PutSync([]byte("\xc6b"), []byte("2")))
	requireValue(t, s, "\xc6a", "1")
	require.NoError(t, s.PutChangeSet(map[string][]byte{"\x70x": []byte("x")}, map[string]struct{}{"\xc6a": {}}))
	_, err = s.Get([]byte("\xc6a"))
	require.ErrorIs(t, err, kv.ErrKeyNotFound)
	requireValue(t, s, "\xc6b", "2")
	require.False(t, s.log.Pending())
	_, err = s.Get(foldKey)
	require.ErrorIs(t, err, kv.ErrKeyNotFound)
	require.NoError(t, s.Close())
	require.ErrorIs(t, s.Close(), kv.ErrClosed)

	_, ok := inLevelDB(t, dir, "\xc6a")
	require.False(t, ok, "a record the change set deleted reached LevelDB")
	v, ok := inLevelDB(t, dir, "\xc6b")
	require.True(t, ok)
	require.Equal(t, "2", string(v))
}

// TestSynclogCrash: records a crash left in the side file are there after
// the next open; records of folded generations are not brought back.
func TestSynclogCrash(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	require.NoError(t, s.PutSync([]byte("\xc6a"), []byte("1")))
	require.NoError(t, s.PutChangeSet(nil, map[string]struct{}{"\xc6a": {}})) // folded: deleted
	require.NoError(t, s.PutSync([]byte("\xc6b"), []byte("2")))
	id := s.logID
	crashClose(t, s)

	// A stale record of a folded generation left in the file (a crash
	// between a fold's commit and the file's reset) stays folded.
	path := filepath.Join(dir, synclogName)
	raw, _, err := synclog.Read(path, id, 0)
	require.NoError(t, err)
	require.Equal(t, map[string][]byte{"\xc6b": []byte("2")}, raw)

	ro, err := Open(Options{DataDirectoryPath: dir, ReadOnly: true})
	require.NoError(t, err)
	requireValue(t, ro, "\xc6b", "2")
	require.ErrorIs(t, ro.PutSync([]byte("\xc6c"), nil), kv.ErrReadOnly)
	require.Equal(t, "\xc6b=2", seekAll(t, ro, false)[0])
	require.NoError(t, ro.Close())

	s, err = Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	requireValue(t, s, "\xc6b", "2")
	_, err = s.Get([]byte("\xc6a"))
	require.ErrorIs(t, err, kv.ErrKeyNotFound)
	require.False(t, s.log.Pending()) // folded at open
	crashClose(t, s)
	v, ok := inLevelDB(t, dir, "\xc6b")
	require.True(t, ok)
	require.Equal(t, "2", string(v))
}

// TestSynclogReadOnlyMerge: a read-only store shows the side file's
// records in its walks, in order both ways, over the stored values of
// the same keys, and never shows its bookkeeping key.
func TestSynclogReadOnlyMerge(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	require.NoError(t, s.PutChangeSet(map[string][]byte{"\x70b": []byte("old"), "\x70d": []byte("d")}, nil))
	for _, k := range []string{"\x70a", "\x70b", "\x70c", "\x70e"} {
		require.NoError(t, s.PutSync([]byte(k), []byte("L"+k[1:])))
	}
	crashClose(t, s)

	ro, err := Open(Options{DataDirectoryPath: dir, ReadOnly: true})
	require.NoError(t, err)
	want := []string{"\x70a=La", "\x70b=Lb", "\x70c=Lc", "\x70d=d", "\x70e=Le"}
	var got []string
	require.NoError(t, ro.Seek(kv.SeekRange{Prefix: []byte{0x70}}, func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	}))
	require.Equal(t, want, got)
	got = got[:0]
	require.NoError(t, ro.Seek(kv.SeekRange{Prefix: []byte{0x70}, Backwards: true}, func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	}))
	require.Equal(t, []string{want[4], want[3], want[2], want[1], want[0]}, got)
	for _, back := range []bool{false, true} {
		for _, kv := range seekAll(t, ro, back) {
			require.NotContains(t, kv, string(foldKey))
		}
	}
	// fn stopping the walk on a pending record stops it.
	n := 0
	require.NoError(t, ro.Seek(kv.SeekRange{Prefix: []byte{0x70}}, func(k, v []byte) bool { n++; return false }))
	require.Equal(t, 1, n)
	require.NoError(t, ro.Close())
}

// TestSynclogPutDeleteSeek: a Put or Delete of a logged key lands after
// the logged value, and a walk over a logged key finds it.
func TestSynclogPutDeleteSeek(t *testing.T) {
	s, err := Open(Options{DataDirectoryPath: t.TempDir()})
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	require.NoError(t, s.PutSync([]byte("\xc6a"), []byte("1")))
	require.NoError(t, s.Put([]byte("\xc6a"), []byte("2")))
	requireValue(t, s, "\xc6a", "2")
	require.NoError(t, s.PutSync([]byte("\xc6b"), []byte("3")))
	require.NoError(t, s.Delete([]byte("\xc6b")))
	_, err = s.Get([]byte("\xc6b"))
	require.ErrorIs(t, err, kv.ErrKeyNotFound)
	require.NoError(t, s.PutSync([]byte("\xc6c"), []byte("4")))
	var got []string
	require.NoError(t, s.Seek(kv.SeekRange{Prefix: []byte{0xc6}}, func(k, v []byte) bool {
		got = append(got, string(k)+"="+string(v))
		return true
	}))
	require.Equal(t, []string{"\xc6a=2", "\xc6c=4"}, got)
	// A change set rewriting a logged key wins over the logged value.
	require.NoError(t, s.PutSync([]byte("\xc6d"), []byte("5")))
	require.NoError(t, s.PutChangeSet(map[string][]byte{"\xc6d": []byte("6")}, nil))
	requireValue(t, s, "\xc6d", "6")
}
