package chain

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

func accFile(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", name), name+".acc"))
	require.NoError(t, err)
	return b
}

func TestRestoreAndDumpIdentical(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) {
			acc := accFile(t, name)
			c, err := Open(testConfig(t, name, storage.NewMemoryStore()))
			require.NoError(t, err)
			defer c.Close()
			res, err := Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
			require.NoError(t, err)
			refs := refBlocks(t, name)
			last := refs[len(refs)-1]
			require.EqualValues(t, last.Index, c.BlockHeight())
			require.Equal(t, last.Hash, c.CurrentBlockHash().String())
			require.Equal(t, expectedRoot(t, c), c.CurrentStateRoot())

			// Dump what the input held: byte for byte the same records.
			d, err := chaindump.NewReader(bytes.NewReader(acc))
			require.NoError(t, err)
			first, err := d.Next()
			require.NoError(t, err)
			start := binary.LittleEndian.Uint32(first[indexOffset:])
			var out bytes.Buffer
			plain := start == 0
			require.NoError(t, Dump(c, &out, start, 0, plain))
			if plain {
				require.Equal(t, acc, out.Bytes())
			} else {
				// testblocks is a plain dump from block 1, a form neither
				// neo-go nor n3d writes: compare the records.
				require.Equal(t, acc[4:], out.Bytes()[8:])
				require.EqualValues(t, res.Added, binary.LittleEndian.Uint32(out.Bytes()[4:]))
			}
		})
	}
}

func TestRestoreCountAndContinue(t *testing.T) {
	acc := accFile(t, "chain50x2")
	c, err := Open(testConfig(t, "chain50x2", storage.NewMemoryStore()))
	require.NoError(t, err)
	defer c.Close()
	res, err := Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{Count: 10})
	require.NoError(t, err)
	require.EqualValues(t, 10, res.Added)
	require.EqualValues(t, 1, res.Skipped) // genesis
	require.EqualValues(t, 10, c.BlockHeight())
	res, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 40, res.Added)
	require.EqualValues(t, 11, res.Skipped)
	require.EqualValues(t, 50, c.BlockHeight())

	// An incremental dump of 20..50 adds nothing more and checks the overlap.
	var out bytes.Buffer
	require.NoError(t, Dump(c, &out, 20, 31, false))
	res, err = Restore(context.Background(), c, bytes.NewReader(out.Bytes()), RestoreOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 31, res.Skipped)
	require.Error(t, Dump(c, &out, 1, 0, true))
	require.ErrorIs(t, Dump(c, &out, 40, 20, false), ErrNotFound)
}

func TestRestoreErrorsKeepPrefix(t *testing.T) {
	acc := accFile(t, "chain50x2")
	open := func() *Chain {
		c, err := Open(testConfig(t, "chain50x2", storage.NewMemoryStore()))
		require.NoError(t, err)
		t.Cleanup(func() { c.Close() })
		return c
	}
	// Offsets of the records.
	var offs []int
	for off := 4; off < len(acc); {
		offs = append(offs, off)
		off += 4 + int(binary.LittleEndian.Uint32(acc[off:]))
	}
	t.Run("truncated", func(t *testing.T) {
		c := open()
		_, err := Restore(context.Background(), c, bytes.NewReader(acc[:offs[20]+100]), RestoreOptions{})
		require.ErrorIs(t, err, chaindump.ErrTruncated)
		require.EqualValues(t, 19, c.BlockHeight())
		require.Equal(t, expectedRoot(t, c), c.CurrentStateRoot())
	})
	t.Run("corrupted witness", func(t *testing.T) {
		c := open()
		bad := bytes.Clone(acc)
		// Block 30's invocation script: a signature byte near the header end.
		b, err := block.NewBlockFromBytes(bytes.Clone(bad[offs[30]+4 : offs[31]]))
		require.NoError(t, err)
		witnessAt := offs[30] + 4 + block.UnsignedHeaderSize + 1 + 1 + 10 // witness count, script length
		require.Equal(t, b.Witness.InvocationScript[10], bad[witnessAt])
		bad[witnessAt] ^= 0xff
		_, err = Restore(context.Background(), c, bytes.NewReader(bad), RestoreOptions{})
		require.ErrorIs(t, err, ErrWitness)
		require.Contains(t, err.Error(), "block 30 (")
		require.EqualValues(t, 29, c.BlockHeight())
	})
	t.Run("gap", func(t *testing.T) {
		c := open()
		gap := bytes.Clone(acc[:offs[3]])
		gap = append(gap, acc[offs[4]:]...)
		binary.LittleEndian.PutUint32(gap, 50)
		_, err := Restore(context.Background(), c, bytes.NewReader(gap), RestoreOptions{})
		require.ErrorIs(t, err, ErrDump)
		require.EqualValues(t, 2, c.BlockHeight())
	})
	t.Run("other network", func(t *testing.T) {
		cfg := testConfig(t, "chain50x2", storage.NewMemoryStore())
		cfg.Protocol.StandbyCommittee[0], cfg.Protocol.StandbyCommittee[1] = cfg.Protocol.StandbyCommittee[1], cfg.Protocol.StandbyCommittee[0]
		cfg.Protocol.ValidatorsCount = 2
		c, err := Open(cfg)
		require.NoError(t, err)
		defer c.Close()
		_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
		require.ErrorIs(t, err, ErrDump)
		require.Contains(t, err.Error(), "block 0")
	})
	t.Run("cancelled", func(t *testing.T) {
		c := open()
		ctx, cancel := context.WithCancel(context.Background())
		_, err := Restore(ctx, c, bytes.NewReader(acc), RestoreOptions{OnBlock: func(b *block.Block) error {
			if b.Index == 5 {
				cancel()
			}
			return nil
		}})
		require.ErrorIs(t, err, context.Canceled)
		require.EqualValues(t, 5, c.BlockHeight())
	})
}

// TestRestoreCrashSafety SIGKILLs a process restoring into LevelDB, reopens
// the database (it must hold a consistent prefix of the chain) and lets a
// second restore finish.
func TestRestoreCrashSafety(t *testing.T) {
	if os.Getenv("N3D_CHAIN_CRASH_CHILD") != "" {
		crashChild(t)
		return
	}
	if testing.Short() {
		t.Skip("spawns a process")
	}
	dir := filepath.Join(t.TempDir(), "db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestRestoreCrashSafety$", "-test.v")
	cmd.Env = append(os.Environ(), "N3D_CHAIN_CRASH_CHILD="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Start())
	// Wait until the child is well into the restore.
	marker := filepath.Join(dir, "..", "progress")
	require.Eventually(t, func() bool {
		b, err := os.ReadFile(marker)
		if err != nil {
			return false
		}
		n, _ := strconv.Atoi(string(b))
		return n >= 20
	}, 60*time.Second, 5*time.Millisecond, "child output: %s", &out)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_ = cmd.Wait()

	c, err := Open(testConfig(t, "chain50x2", levelDB(t, dir)))
	require.NoError(t, err)
	h := c.BlockHeight()
	t.Logf("reopened at height %d after SIGKILL", h)
	require.Equal(t, expectedRoot(t, c), c.CurrentStateRoot())
	sr, err := c.StateRoot(h)
	require.NoError(t, err)
	require.Equal(t, c.CurrentStateRoot(), sr.Root)
	for i := uint32(0); i <= h; i++ {
		_, err := c.GetBlockByIndex(i)
		require.NoError(t, err)
	}
	_, err = Restore(context.Background(), c, bytes.NewReader(accFile(t, "chain50x2")), RestoreOptions{})
	require.NoError(t, err)
	require.EqualValues(t, 50, c.BlockHeight())
	require.Equal(t, expectedRoot(t, c), c.CurrentStateRoot())
	require.NoError(t, c.Close())
}

func crashChild(t *testing.T) {
	dir := os.Getenv("N3D_CHAIN_CRASH_CHILD")
	c, err := Open(testConfig(t, "chain50x2", levelDB(t, dir)))
	require.NoError(t, err)
	marker := filepath.Join(dir, "..", "progress")
	_, err = Restore(context.Background(), c, bytes.NewReader(accFile(t, "chain50x2")), RestoreOptions{
		OnBlock: func(b *block.Block) error {
			time.Sleep(20 * time.Millisecond)
			return os.WriteFile(marker, []byte(strconv.Itoa(int(b.Index))), 0o600)
		}})
	require.NoError(t, err)
	time.Sleep(time.Minute) // killed before
}

// countingStore counts the change sets written to it.
type countingStore struct {
	storage.Store
	sets atomic.Int32
}

func (s *countingStore) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	s.sets.Add(1)
	return s.Store.PutChangeSet(puts, dels)
}

// TestRestoreCacheKeys: with a persist interval longer than the test, a
// restore with CacheKeys hands the write cache to the store as it fills
// (here every block), one without it keeps it in memory until Close; the
// state is the reference's either way, and the node's bound is back
// after the restore.
func TestRestoreCacheKeys(t *testing.T) {
	acc := accFile(t, "chain50x2")
	for _, keys := range []int{0, 1} {
		t.Run(strconv.Itoa(keys), func(t *testing.T) {
			st := &countingStore{Store: storage.NewMemoryStore()}
			cfg := testConfig(t, "chain50x2", st)
			cfg.PersistInterval = time.Hour
			c, err := Open(cfg)
			require.NoError(t, err)
			defer c.Close()
			base := st.sets.Load() // genesis
			_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{CacheKeys: keys})
			require.NoError(t, err)
			require.NoError(t, c.cache.WaitPersist())
			sets := st.sets.Load() - base
			if keys == 0 {
				require.LessOrEqual(t, sets, int32(1)) // the genesis block's own write may come late
			} else {
				require.GreaterOrEqual(t, sets, int32(40)) // every block (the last ones may merge while a write runs)
			}
			c.addMu.Lock()
			require.Zero(t, c.cacheKeys)
			c.addMu.Unlock()
			require.Equal(t, expectedRoot(t, c), c.CurrentStateRoot())
		})
	}
}
