package leveldb

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	"github.com/stretchr/testify/require"
	"github.com/syndtr/goleveldb/leveldb"
	"github.com/syndtr/goleveldb/leveldb/opt"
	"github.com/syndtr/goleveldb/leveldb/util"
)

func TestOpenNoPath(t *testing.T) {
	_, err := Open(Options{})
	require.ErrorIs(t, err, ErrNoPath)
}

func TestOpenMissingReadOnly(t *testing.T) {
	_, err := Open(Options{DataDirectoryPath: filepath.Join(t.TempDir(), "none"), ReadOnly: true})
	require.Error(t, err)
}

func TestMarkerWritten(t *testing.T) {
	s, err := Open(Options{DataDirectoryPath: t.TempDir()})
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	v, err := s.Get(kv.MarkerKey)
	require.NoError(t, err)
	m, err := kv.DecodeMarker(v)
	require.NoError(t, err)
	require.Equal(t, kv.Marker{Version: kv.FormatVersion, Backend: BackendName}, m)
	require.ErrorIs(t, s.Put(nil, []byte{1}), kv.ErrEmptyKey)
	require.ErrorIs(t, s.PutChangeSet(map[string][]byte{"": nil}, nil), kv.ErrEmptyKey)
}

func TestOpenCorrupted(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	require.NoError(t, s.Put([]byte{0x70, 1}, []byte{1}))
	require.NoError(t, s.Close())
	manifests, err := filepath.Glob(filepath.Join(dir, "MANIFEST-*"))
	require.NoError(t, err)
	require.NotEmpty(t, manifests)
	for _, m := range manifests {
		require.NoError(t, os.WriteFile(m, bytes.Repeat([]byte{0xa5}, 4096), 0o644))
	}
	_, err = Open(Options{DataDirectoryPath: dir})
	require.ErrorIs(t, err, kv.ErrCorrupted)
}

// TestWriteBuffer opens a store with a small memtable and writes a change
// set that fits it (one batch through the journal) and one sixteen times
// its size (a transaction straight to tables), each overwriting and
// deleting keys of the one before, and finds exactly the last state after
// a reopen with the default memtable.
func TestWriteBuffer(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir, WriteBuffer: 64 << 10})
	require.NoError(t, err)
	require.Equal(t, 64<<10, s.opts.WriteBuffer)
	key := func(i int) string { return string([]byte{0x70, byte(i >> 8), byte(i)}) }
	want := make(map[string][]byte)
	for _, n := range []int{100, 4000, 150} { // ~25 kB, ~1 MB, ~37 kB of values
		puts, dels := make(map[string][]byte), make(map[string]struct{})
		for i := range n {
			puts[key(i)] = bytes.Repeat([]byte{byte(n + i)}, 256)
		}
		for k := range want {
			if _, ok := puts[k]; !ok && len(dels) < 50 {
				dels[k] = struct{}{}
			}
		}
		dels[key(0)] = struct{}{} // deleted and stored: ends up stored
		require.NoError(t, s.PutChangeSet(puts, dels))
		if n == 4000 {
			require.Less(t, journalBytes(t, dir), int64(64<<10), "the large set went through the journal")
		}
		for k := range dels {
			delete(want, k)
		}
		maps.Copy(want, puts)
	}
	require.NoError(t, s.Close())

	s, err = Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	require.Equal(t, DefaultWriteBuffer, s.opts.WriteBuffer)
	got := make(map[string][]byte)
	require.NoError(t, s.Seek(kv.SeekRange{Prefix: []byte{0x70}}, func(k, v []byte) bool {
		got[string(k)] = bytes.Clone(v)
		return true
	}))
	require.Equal(t, len(want), len(got))
	require.Equal(t, want, got)
	require.NoError(t, s.Close())
}

// journalBytes is the size of the LevelDB journal files in dir.
func journalBytes(t *testing.T, dir string) int64 {
	t.Helper()
	logs, err := filepath.Glob(filepath.Join(dir, "*.log"))
	require.NoError(t, err)
	var n int64
	for _, l := range logs {
		fi, err := os.Stat(l)
		require.NoError(t, err)
		n += fi.Size()
	}
	return n
}

// TestLargeSetFoldsSynclog: a change set written to tables folds the side
// file's records as a batch does, and drops those it deletes.
func TestLargeSetFoldsSynclog(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir, WriteBuffer: 64 << 10})
	require.NoError(t, err)
	require.NoError(t, s.PutSync([]byte("\xc6a"), []byte("1")))
	require.NoError(t, s.PutSync([]byte("\xc6b"), []byte("2")))
	puts := make(map[string][]byte)
	for i := range 2000 {
		puts[string([]byte{0x70, byte(i >> 8), byte(i)})] = bytes.Repeat([]byte{1}, 100)
	}
	require.NoError(t, s.PutChangeSet(puts, map[string]struct{}{"\xc6a": {}}))
	require.False(t, s.log.Pending())
	crashClose(t, s) // nothing left to fold: the tables hold it all

	_, ok := inLevelDB(t, dir, "\xc6a")
	require.False(t, ok, "a record the change set deleted reached LevelDB")
	v, ok := inLevelDB(t, dir, "\xc6b")
	require.True(t, ok)
	require.Equal(t, "2", string(v))
	v, ok = inLevelDB(t, dir, "\x70\x07\xcf")
	require.True(t, ok)
	require.Len(t, v, 100)
}

// TestCompactionOptionsInterchange: the level-0 triggers are not part of
// the on-disk format. A database written with goleveldb's default
// options (neo-go's, and n3d's before the triggers were raised) opens
// with ours and keeps every key, and the other way round, with enough
// small memtables flushed that level-0 compactions ran under both.
func TestCompactionOptionsInterchange(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir, WriteBuffer: 64 << 10})
	require.NoError(t, err)
	require.Less(t, s.opts.CompactionL0Trigger, s.opts.WriteL0SlowdownTrigger)
	require.Less(t, s.opts.WriteL0SlowdownTrigger, s.opts.WriteL0PauseTrigger)
	want := make(map[string][]byte)
	write := func(put func(k, v []byte) error, from, n int) {
		for i := from; i < from+n; i++ {
			k := []byte(fmt.Sprintf("\x70key%06d", (i*7919)%100000))
			v := bytes.Repeat([]byte{byte(i)}, 200)
			require.NoError(t, put(k, v))
			want[string(k)] = v
		}
	}
	check := func(get func(k []byte) ([]byte, error)) {
		for k, v := range want {
			got, err := get([]byte(k))
			require.NoError(t, err)
			require.Equal(t, v, got)
		}
	}
	write(s.Put, 0, 8000) // ~1.7 MB: ~26 memtables of 64 KiB, over DefaultL0Trigger
	require.NoError(t, s.Close())

	db, err := leveldb.OpenFile(dir, &opt.Options{WriteBuffer: 64 << 10})
	require.NoError(t, err)
	check(func(k []byte) ([]byte, error) { return db.Get(k, nil) })
	write(func(k, v []byte) error { return db.Put(k, v, nil) }, 8000, 3000)
	require.NoError(t, db.Close())

	s, err = Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	check(s.Get)
	require.NoError(t, s.Close())
}

// TestBlockCache reads back more table data than the block cache holds:
// the cached blocks stay within DefaultBlockCache (goleveldb's own 8 MiB
// would keep them all), and an explicit size is taken.
func TestBlockCache(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	require.Equal(t, DefaultBlockCache, s.opts.BlockCacheCapacity)
	const keys, valueLen = 6000, 1024 // ~6 MiB of incompressible values
	value := make([]byte, valueLen)
	for i := range keys {
		for j := range value {
			value[j] = byte((i*7919 + j*104729) >> 3)
		}
		require.NoError(t, s.Put([]byte(fmt.Sprintf("k%06d", i)), value))
	}
	require.NoError(t, s.db.CompactRange(util.Range{}))
	for i := range keys {
		_, err := s.Get([]byte(fmt.Sprintf("k%06d", i)))
		require.NoError(t, err)
	}
	cached, err := s.db.GetProperty("leveldb.cachedblock")
	require.NoError(t, err)
	n, err := strconv.Atoi(cached)
	require.NoError(t, err)
	require.Positive(t, n)
	require.LessOrEqual(t, n, DefaultBlockCache)
	require.NoError(t, s.Close())

	s, err = Open(Options{DataDirectoryPath: dir, BlockCache: 16 << 20})
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	require.Equal(t, 16<<20, s.opts.BlockCacheCapacity)
}
