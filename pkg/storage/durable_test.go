package storage

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPutDurable(t *testing.T) {
	dir := t.TempDir()
	level := openLevel(t, filepath.Join(dir, "level"))
	bolt, err := New(DBConfiguration{Type: BoltDB, BoltDBOptions: BoltDBOptions{FilePath: filepath.Join(dir, "bolt.db")}})
	require.NoError(t, err)
	for name, s := range map[string]Store{"leveldb": level, "boltdb": bolt, "memory": NewMemoryStore()} {
		_, sync := s.(SyncPutter)
		require.Equal(t, name != "memory", sync, name)
		require.NoError(t, PutDurable(s, []byte("k"), []byte("v")), name)
		require.Equal(t, "v", mustGet(t, s, "k"), name)
		require.ErrorIs(t, PutDurable(s, nil, []byte("v")), ErrEmptyKey, name)
		require.NoError(t, s.Close(), name)
	}
	// A fault store forwards PutSync and fails it like any write.
	f := newFaultStore()
	require.NoError(t, PutDurable(f, []byte("a"), []byte("1")))
	f.FailWrites(fmt.Errorf("write: %w", syscall.ENOSPC))
	err = PutDurable(f, []byte("b"), []byte("2"))
	require.True(t, IsNoSpace(err))
	require.True(t, IsNoSpace(f.Put([]byte("b"), nil)))
	require.True(t, IsNoSpace(f.Delete([]byte("a"))))
	require.True(t, IsNoSpace(f.PutChangeSet(map[string][]byte{"b": nil}, nil)))
	require.False(t, IsNoSpace(errBoom))
	f.FailWrites(nil)
	require.NoError(t, f.Delete([]byte("a")))
}

func TestSidecarPath(t *testing.T) {
	require.Equal(t, filepath.Join("chains", "privnet.mempool"), SidecarPath(DBConfiguration{Type: LevelDB,
		LevelDBOptions: LevelDBOptions{DataDirectoryPath: "chains/privnet/"}}, "mempool"))
	require.Equal(t, "/data/n3d.db.mempool", SidecarPath(DBConfiguration{Type: BoltDB,
		BoltDBOptions: BoltDBOptions{FilePath: "/data/n3d.db"}}, "mempool"))
	require.Empty(t, SidecarPath(DBConfiguration{Type: InMemoryDB}, "mempool"))
}

// TestMemCachedAbandon writes the frozen layers and drops the live one.
func TestMemCachedAbandon(t *testing.T) {
	f := newFaultStore()
	s := NewMemCachedStore(f)
	require.NoError(t, s.Put([]byte("a"), []byte("1")))
	release := f.Hold()
	_, err := s.Persist()
	require.NoError(t, err)
	<-f.Started()
	require.NoError(t, s.Put([]byte("b"), []byte("2")))
	release()
	require.NoError(t, s.Abandon())
	require.Equal(t, "1", mustGet(t, f.Inner, "a"))
	requireMissing(t, f.Inner, "b")
	require.ErrorIs(t, s.Abandon(), ErrClosed)
}
