package leveldb

import (
	"bytes"
	"fmt"
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

// TestWriteBuffer opens a store with a memtable far smaller than one
// change set, written straight to level-0 tables (a goleveldb
// transaction, LargeBatchTables) or through the journal (the node's
// setting), and finds every key after a reopen with the default one.
func TestWriteBuffer(t *testing.T) {
	for _, tables := range []bool{true, false} {
		t.Run(fmt.Sprintf("tables=%v", tables), func(t *testing.T) { testWriteBuffer(t, tables) })
	}
}

func testWriteBuffer(t *testing.T, tables bool) {
	dir := t.TempDir()
	s, err := Open(Options{DataDirectoryPath: dir, WriteBuffer: 64 << 10, LargeBatchTables: tables})
	require.NoError(t, err)
	require.Equal(t, 64<<10, s.opts.WriteBuffer)
	require.Equal(t, !tables, s.opts.DisableLargeBatchTransaction)
	puts := make(map[string][]byte)
	for i := range 4000 { // ~1 MB: 16 memtables
		puts[string([]byte{0x70, byte(i >> 8), byte(i)})] = bytes.Repeat([]byte{byte(i)}, 256)
	}
	require.NoError(t, s.PutChangeSet(puts, nil))
	require.NoError(t, s.Close())

	s, err = Open(Options{DataDirectoryPath: dir})
	require.NoError(t, err)
	require.Equal(t, DefaultWriteBuffer, s.opts.WriteBuffer)
	for k, v := range puts {
		got, err := s.Get([]byte(k))
		require.NoError(t, err)
		require.Equal(t, v, got)
	}
	require.NoError(t, s.Close())
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
