package chain

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/storage/storagetest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// openOn opens a unit_testnet chain on st with the given tuning.
func openOn(t *testing.T, cfg config.Config, st storage.Store, tune func(*Config)) *Chain {
	t.Helper()
	n, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c := Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: st, Natives: n, BloomCapacity: 10000}
	if tune != nil {
		tune(&c)
	}
	c.Store = keepOpen(c.Store)
	ch, err := Open(c)
	require.NoError(t, err)
	return ch
}

// keepOpen wraps st so that closing a chain does not close it.
func keepOpen(st storage.Store) storage.Store {
	f := storagetest.NewFaultStore(st)
	f.LeaveOpen = true
	return f
}

// abandon stops c's background loop without writing anything: what a
// SIGKILL leaves of it is what its store holds.
func abandon(c *Chain) {
	c.stopLoop()
	c.addMu.Lock()
	defer c.addMu.Unlock()
	c.closed.Store(true)
	// A background write in flight either lands before the "kill" or
	// fails; none may land later, while the next chain opens the store (a
	// killed process writes nothing more). Its failure is the point of
	// some tests, so it is not reported here.
	_ = c.cache.WaitPersist()
}

type seen struct {
	hash, root util.Uint256
}

func observe(c *Chain) seen {
	return seen{hash: c.CurrentBlockHash(), root: c.CurrentStateRoot()}
}

func requireSeen(t *testing.T, c *Chain, want map[uint32]seen) {
	t.Helper()
	for i, w := range want {
		h, ok := c.GetHeaderHash(i)
		require.True(t, ok, "block %d", i)
		require.Equal(t, w.hash, h, "block %d", i)
		sr, err := c.StateRoot(i)
		require.NoError(t, err, "state root %d", i)
		require.Equal(t, w.root, sr.Root, "state root %d", i)
	}
}

func generateOn(t *testing.T, c *Chain, blocks int, want map[uint32]seen) {
	t.Helper()
	g, err := makeGenerator(c, GenerateOptions{Validators: validatorKeys(t, 3)})
	require.NoError(t, err)
	for range blocks {
		_, err := g.nextBlock()
		require.NoError(t, err)
		want[c.BlockHeight()] = observe(c)
	}
}

// TestBlockLogReplaysAfterCrash adds blocks whose state never reaches the
// store (the write cache is never persisted), drops the chain as a crash
// would and reopens the store: every announced block and state root is
// back, replayed from the block log, and the log is trimmed once the state
// is persisted.
func TestBlockLogReplaysAfterCrash(t *testing.T) {
	cfg := unitTestnet(t)
	inner := storage.NewMemoryStore()
	c := openOn(t, cfg, inner, func(c *Config) { c.PersistInterval = time.Hour })
	want := map[uint32]seen{}
	generateOn(t, c, 12, want)
	recs, err := c.readLog()
	require.NoError(t, err)
	require.Len(t, recs, 12, "every block since the cache was last written is logged")
	abandon(c)

	c2 := openOn(t, cfg, inner, nil)
	require.EqualValues(t, 12, c2.BlockHeight())
	requireSeen(t, c2, want)
	generateOn(t, c2, 3, want)
	require.NoError(t, c2.Close())

	c3 := openOn(t, cfg, inner, nil)
	defer func() { require.NoError(t, c3.Close()) }()
	requireSeen(t, c3, want)
	recs, err = c3.readLog()
	require.NoError(t, err)
	require.Empty(t, recs, "a clean close leaves no log record")
}

// TestBlockLogDropsStaleRecords plants records the chain cannot use (below
// the height, after a gap, a block that does not link): Open drops them.
func TestBlockLogDropsStaleRecords(t *testing.T) {
	cfg := unitTestnet(t)
	inner := storage.NewMemoryStore()
	c := openOn(t, cfg, inner, nil)
	want := map[uint32]seen{}
	generateOn(t, c, 3, want)
	b1, err := c.GetBlockByIndex(1)
	require.NoError(t, err)
	raw, err := b1.Bytes()
	require.NoError(t, err)
	require.NoError(t, c.Close())
	for _, i := range []uint32{1, 4, 6} { // below, wrong block at 4, gap before 6
		require.NoError(t, inner.Put(blockLogKey(i), raw))
	}
	c2 := openOn(t, cfg, inner, nil)
	defer func() { require.NoError(t, c2.Close()) }()
	require.EqualValues(t, 3, c2.BlockHeight())
	requireSeen(t, c2, want)
	recs, err := c2.readLog()
	require.NoError(t, err)
	require.Empty(t, recs)
}

// TestDiskFullPausesAndResumes fills the "disk" (every write fails with
// ENOSPC): the chain refuses blocks and transactions, serves reads, says
// so, and resumes by itself once writes succeed; a crash in the middle
// loses no announced block.
func TestDiskFullPausesAndResumes(t *testing.T) {
	cfg := unitTestnet(t)
	inner := storage.NewMemoryStore()
	f := storagetest.NewFaultStore(inner)
	f.LeaveOpen = true
	states := make(chan error, 16)
	reg := prometheus.NewRegistry()
	c := openOn(t, cfg, f, func(c *Config) {
		c.PersistInterval = -1 // every block
		c.StorageRetry = time.Millisecond
		c.OnStorageState = func(err error) { states <- err }
		c.Registerer = reg
	})
	require.Equal(t, 1.0, gathered(t, reg)["n3d_chain_storage_ok"])
	want := map[uint32]seen{}
	generateOn(t, c, 3, want)
	g, err := makeGenerator(c, GenerateOptions{Validators: validatorKeys(t, 3)})
	require.NoError(t, err)
	next, err := g.buildBlock()
	require.NoError(t, err)

	full := fmt.Errorf("write db/000012.log: %w", syscall.ENOSPC)
	f.FailWrites(full)
	err = c.AddBlock(next)
	require.ErrorIs(t, err, ErrStorage)
	require.True(t, storage.IsNoSpace(err))
	require.True(t, storage.IsNoSpace(waitState(t, states)))
	require.Equal(t, 0.0, gathered(t, reg)["n3d_chain_storage_ok"], "the metric says the store refuses writes")
	require.ErrorIs(t, c.StorageErr(), ErrStorage)
	require.EqualValues(t, 3, c.BlockHeight(), "a block that is not durable is not added")
	requireSeen(t, c, want) // reads go on
	tx := &transaction.Transaction{Script: []byte{0x40}, ValidUntilBlock: 10}
	require.ErrorIs(t, c.VerifyTxConcurrent(tx), ErrStorage)
	require.ErrorIs(t, c.VerifyTx(tx), ErrStorage)

	f.FailWrites(nil)
	require.NoError(t, waitState(t, states), "resumes by itself")
	require.Equal(t, 1.0, gathered(t, reg)["n3d_chain_storage_ok"])
	require.NoError(t, c.AddBlock(next))
	want[c.BlockHeight()] = observe(c)

	// The block log takes writes, the state persist does not: blocks are
	// still announced (they are durable), the chain pauses after the first
	// failed persist, and a crash then loses nothing announced.
	f.FailPutChangeSet(full)
	for c.StorageErr() == nil {
		b, err := g.buildBlock()
		require.NoError(t, err)
		require.NoError(t, c.AddBlock(b))
		want[c.BlockHeight()] = observe(c)
	}
	require.Error(t, waitState(t, states))
	abandon(c)
	f.FailPutChangeSet(nil)

	c2 := openOn(t, cfg, inner, nil)
	defer func() { require.NoError(t, c2.Close()) }()
	require.Equal(t, len(want), int(c2.BlockHeight()))
	requireSeen(t, c2, want)
}

// waitState returns the next storage state reported, failing after a
// generous deadline.
func waitState(t *testing.T, states <-chan error) error {
	t.Helper()
	select {
	case err := <-states:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("no storage state change reported")
		return errors.New("unreachable")
	}
}

// TestRestoreIsNotLogged restores a generated dump (no log records), then
// adds a block the normal way: the restored blocks are written first, the
// new one is logged.
func TestRestoreIsNotLogged(t *testing.T) {
	dump, src, _ := generateDump(t, 6, validatorKeys(t, 3))
	cfg := unitTestnet(t)
	inner := storage.NewMemoryStore()
	c := openOn(t, cfg, inner, func(c *Config) { c.PersistInterval = time.Hour })
	_, err := Restore(context.Background(), c, bytes.NewReader(dump), RestoreOptions{})
	require.NoError(t, err)
	recs, err := c.readLog()
	require.NoError(t, err)
	require.Empty(t, recs)
	require.True(t, c.unlogged)
	require.Equal(t, src.CurrentStateRoot(), c.CurrentStateRoot())
	want := map[uint32]seen{}
	generateOn(t, c, 1, want)
	require.False(t, c.unlogged, "the restored blocks were written before the first logged one")
	recs, err = c.readLog()
	require.NoError(t, err)
	require.Len(t, recs, 1)
	abandon(c)
	c2 := openOn(t, cfg, inner, nil)
	defer func() { require.NoError(t, c2.Close()) }()
	require.EqualValues(t, 7, c2.BlockHeight())
	requireSeen(t, c2, want)
}
