package mpt

import (
	"errors"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// TestReplayOverStorage replays a conformance chain the way the node does:
// each block's nodes go to a fresh MemCachedStore layer over a MemoryStore,
// persisted after the block, with a ModeGC sweep every 10 blocks.
func TestReplayOverStorage(t *testing.T) {
	c := loadChain(t, conformance.Dir(t), "chain50x2")
	mem := storage.NewMemoryStore()
	cfg := Config{
		Store:      mem,
		Prefix:     byte(storage.DataMPT),
		Mode:       ModeGC,
		IsNotFound: func(err error) bool { return errors.Is(err, storage.ErrKeyNotFound) },
	}
	tr, err := New([32]byte{}, cfg)
	require.NoError(t, err)
	swept := 0
	for i, d := range c.diffs {
		layer := storage.NewMemCachedStore(mem)
		tr.SetStore(layer)
		require.NoError(t, tr.PutBatch(blockBatch(t, d)))
		require.NoError(t, tr.Flush(uint32(i)))
		require.Equal(t, c.roots[i], tr.StateRoot(), "block %d", i)
		_, err := layer.PersistSync()
		require.NoError(t, err)
		if i%10 == 9 {
			swept += gcSweep(t, mem, uint32(i-5))
			tr.Collapse(1) // nodes are read back through the swept store
		}
	}
	require.Positive(t, swept, "the sweeps removed unreferenced nodes")
	// The tip reads back from the persistent store alone.
	cfg.Store = mem
	tr2, err := New(tr.StateRoot(), cfg)
	require.NoError(t, err)
	for k, v := range c.final {
		got, err := tr2.Get([]byte(k))
		require.NoError(t, err)
		require.Equal(t, v, got)
	}
}

func gcSweep(t *testing.T, s storage.Store, upTo uint32) int {
	var dead [][]byte
	err := s.Seek(storage.SeekRange{Prefix: []byte{byte(storage.DataMPT)}}, func(k, v []byte) bool {
		if Collectible(v, upTo) {
			dead = append(dead, append([]byte{}, k...))
		}
		return true
	})
	require.NoError(t, err)
	for _, k := range dead {
		require.NoError(t, s.Delete(k))
	}
	return len(dead)
}
