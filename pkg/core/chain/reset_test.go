package chain

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// openReferenceChain opens a chain of a reference network with the native
// contracts over st.
func openReferenceChain(t *testing.T, name string, st storage.Store) *Chain {
	t.Helper()
	if referenceNatives == nil {
		t.Skip("needs the complete native contract set")
	}
	cfg := loadProtocol(t, name)
	natives, err := referenceNatives(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: st, Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	return c
}

// ledgerRecords is everything a chain stores except trie nodes (a reset
// leaves the newer ones behind, unreachable), the transaction filter record
// and the backend's format marker: key → value.
func ledgerRecords(t *testing.T, c *Chain) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, c.cache.Seek(storage.SeekRange{}, func(k, v []byte) bool {
		if k[0] != byte(storage.DataMPT) && k[0] != byte(storage.SYSStorageFormat) && !bytes.Equal(k, bloomRecordKey) {
			out[string(k)] = string(v)
		}
		return true
	}))
	return out
}

// TestResetMatchesRestore resets restored reference chains to earlier
// heights and finds exactly what restoring only up to that height stores
// (blocks, transactions, logs, contract storage, state roots, pointers);
// adding the rest of the dump again then reproduces every reference state
// root and application log.
func TestResetMatchesRestore(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) {
			acc := accFile(t, name)
			refs := refBlocks(t, name)
			tip := refs[len(refs)-1].Index
			for _, h := range []uint32{tip - 1, tip / 2, 1} {
				want := openReferenceChain(t, name, storage.NewMemoryStore())
				_, err := Restore(context.Background(), want, bytes.NewReader(acc), RestoreOptions{Count: h})
				require.NoError(t, err)
				require.Equal(t, h, want.BlockHeight())

				c := openReferenceChain(t, name, storage.NewMemoryStore())
				_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
				require.NoError(t, err)
				require.Equal(t, tip, c.BlockHeight())
				require.NoError(t, c.Reset(h))
				require.Equal(t, h, c.BlockHeight())
				require.Equal(t, want.CurrentBlockHash(), c.CurrentBlockHash())
				require.Equal(t, want.CurrentStateRoot(), c.CurrentStateRoot())
				require.Equal(t, ledgerRecords(t, want), ledgerRecords(t, c), "reset to %d", h)
				_, err = c.GetBlockByIndex(h + 1)
				require.ErrorIs(t, err, ErrNotFound)
				require.NoError(t, want.Close())

				// The chain goes on from there exactly as the reference.
				logs := map[uint32][]refAppLog{}
				dir := conformance.Dir(t, "chains", name)
				for _, l := range readJSONL[refAppLog](t, filepath.Join(dir, "applogs.jsonl")) {
					logs[l.Height] = append(logs[l.Height], l)
				}
				roots := readJSONL[refStateRoot](t, filepath.Join(dir, "stateroots.jsonl"))
				_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{OnBlock: func(b *block.Block) error {
					require.Equal(t, roots[b.Index].RootHash, c.CurrentStateRoot().String(), "block %d", b.Index)
					return checkAppLogs(c, logs[b.Index])
				}})
				require.NoError(t, err)
				require.Equal(t, tip, c.BlockHeight())
				require.NoError(t, c.Close())
			}
		})
	}
}

func TestResetRefused(t *testing.T) {
	c := openReferenceChain(t, "chain50x2", storage.NewMemoryStore())
	defer c.Close()
	_, err := Restore(context.Background(), c, bytes.NewReader(accFile(t, "chain50x2")), RestoreOptions{Count: 10})
	require.NoError(t, err)
	require.ErrorIs(t, c.Reset(11), ErrReset, "above the tip")
	require.NoError(t, c.Reset(10), "at the tip: nothing to do")
	require.Equal(t, uint32(10), c.BlockHeight())
	c.cfg.Ledger.KeepOnlyLatestState = true
	require.ErrorIs(t, c.Reset(5), ErrReset)
	c.cfg.Ledger.KeepOnlyLatestState = false
	c.cfg.Ledger.RemoveUntraceableBlocks = true
	c.proto.MaxTraceableBlocks = 10
	require.ErrorIs(t, c.Reset(5), ErrReset, "untraceable blocks are gone")
}

// TestResetResumes interrupts a reset after part of its first stage (the
// process dies) and finds it completed by the next open.
func TestResetResumes(t *testing.T) {
	const name, h = "chain50x2", 20
	acc := accFile(t, name)
	dir := t.TempDir()
	c := openReferenceChain(t, name, levelDB(t, dir))
	_, err := Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
	require.NoError(t, err)
	cur := c.BlockHeight()
	hashes, err := c.loadHeaderHashes(cur)
	require.NoError(t, err)
	c.addMu.Lock()
	_, err = c.cache.PersistSync()
	require.NoError(t, err)
	require.NoError(t, c.putResetStage(h, resetStageBlocks))
	for i := cur; i > cur-5; i-- {
		_, err := c.dao.DeleteBlock(hashes[i])
		require.NoError(t, err)
	}
	require.NoError(t, c.pointTo(hashes[cur-5]))
	_, err = c.cache.PersistSync()
	require.NoError(t, err)
	c.addMu.Unlock()
	require.NoError(t, c.Close())

	c = openReferenceChain(t, name, levelDB(t, dir))
	defer c.Close()
	require.EqualValues(t, h, c.BlockHeight())
	want := openReferenceChain(t, name, storage.NewMemoryStore())
	defer want.Close()
	_, err = Restore(context.Background(), want, bytes.NewReader(acc), RestoreOptions{Count: h})
	require.NoError(t, err)
	require.Equal(t, want.CurrentStateRoot(), c.CurrentStateRoot())
	require.Equal(t, ledgerRecords(t, want), ledgerRecords(t, c))
}

func TestKeepHeaderBatch(t *testing.T) {
	require.True(t, keepHeaderBatch(0, headerBatch-1), "a full batch")
	require.False(t, keepHeaderBatch(0, headerBatch-2))
	require.False(t, keepHeaderBatch(headerBatch, headerBatch), "the batch after the height")
	require.True(t, keepHeaderBatch(headerBatch, 3*headerBatch+5))
	require.False(t, keepHeaderBatch(4*headerBatch, 3*headerBatch+5))
	require.True(t, keepHeaderBatch(0, ^uint32(0)))
}
