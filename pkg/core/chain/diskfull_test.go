package chain

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

// smallFSEnv names a directory on a small filesystem of its own (a few
// MB) for TestDiskFullRealFilesystem, e.g. as root:
//
//	mkdir -p /mnt/n3d-small && mount -t tmpfs -o size=16m tmpfs /mnt/n3d-small
//	N3D_SMALL_FS=/mnt/n3d-small go test -run DiskFullReal ./pkg/core/chain
const smallFSEnv = "N3D_SMALL_FS"

// fillDisk writes a file in dir until the filesystem is full.
func fillDisk(t *testing.T, dir string) string {
	path := filepath.Join(dir, "filler")
	f, err := os.Create(path)
	require.NoError(t, err)
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			require.True(t, storage.IsNoSpace(err), "filling the disk: %v", err)
			break
		}
	}
	require.NoError(t, f.Close())
	return path
}

// TestDiskFullRealFilesystem runs a LevelDB chain into a really full
// filesystem: it refuses blocks with ErrStorage (ENOSPC), keeps serving
// what it announced, resumes by itself once space is freed, and after a
// restart every announced block and state root is unchanged.
func TestDiskFullRealFilesystem(t *testing.T) {
	base := os.Getenv(smallFSEnv)
	if base == "" {
		t.Skip(smallFSEnv + " is not set: see the comment on smallFSEnv for how to make a small filesystem")
	}
	dir, err := os.MkdirTemp(base, "n3d-diskfull-")
	require.NoError(t, err)
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	cfg := unitTestnet(t)
	states := make(chan error, 64)
	c := openLevelOn(t, cfg, dir, func(c *Config) {
		c.StorageRetry = 10 * time.Millisecond
		c.Log = zaptest.NewLogger(t)
		c.OnStorageState = func(err error) { states <- err }
	})
	want := map[uint32]seen{}
	generateOn(t, c, 3, want)
	g, err := makeGenerator(c, GenerateOptions{Validators: validatorKeys(t, 3)})
	require.NoError(t, err)

	filler := fillDisk(t, dir)
	var refused error
	for range 10000 {
		b, err := g.buildBlock()
		require.NoError(t, err)
		if err := c.AddBlock(b); err != nil {
			refused = err
			break
		}
		want[c.BlockHeight()] = observe(c)
	}
	require.ErrorIs(t, refused, ErrStorage)
	require.True(t, storage.IsNoSpace(c.StorageErr()), "%v", c.StorageErr())
	requireSeen(t, c, want)
	require.True(t, storage.IsNoSpace(waitState(t, states)))

	require.NoError(t, os.Remove(filler))
	require.NoError(t, waitState(t, states), "resumes once space is freed")
	generateOn(t, c, 3, want)
	require.NoError(t, c.Close())

	c2 := openLevelOn(t, cfg, dir, nil)
	defer func() { require.NoError(t, c2.Close()) }()
	requireSeen(t, c2, want)
	require.Len(t, want, int(c2.BlockHeight()))
}

func openLevelOn(t *testing.T, cfg config.Config, dir string, tune func(*Config)) *Chain {
	st, err := storage.New(storage.DBConfiguration{Type: storage.LevelDB,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: filepath.Join(dir, "db")}})
	require.NoError(t, err)
	n, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c := Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: st, Natives: n, BloomCapacity: 10000, PersistInterval: 20 * time.Millisecond}
	if tune != nil {
		tune(&c)
	}
	ch, err := Open(c)
	require.NoError(t, err)
	return ch
}
