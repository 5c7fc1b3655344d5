package chain

import (
	"bytes"
	"context"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// TestStateRootInHeaderChain: on a StateRootInHeader network every block
// carries the state root after its predecessor; a second chain restores
// the blocks to the same roots, refuses a block whose previous state root
// is not its own (before the witness is looked at) and one without the
// setting, and reads stored headers back with their roots.
func TestStateRootInHeaderChain(t *testing.T) {
	cfg := unitTestnet(t)
	cfg.ProtocolConfiguration.StateRootInHeader = true
	gen := openMemChain(t, cfg)
	var buf bytes.Buffer
	const blocks = 12
	_, err := Generate(context.Background(), gen, &buf, GenerateOptions{Blocks: blocks, Validators: validatorKeys(t, 3)})
	require.NoError(t, err)

	plain := openMemChain(t, unitTestnet(t))
	g0, err := gen.GetBlockByIndex(0)
	require.NoError(t, err)
	require.True(t, g0.StateRootEnabled)
	require.NotEqual(t, plain.CurrentBlockHash(), gen.CurrentBlockHash(), "the genesis hash covers the zero root")

	for i := uint32(1); i <= blocks; i++ {
		b, err := gen.GetBlockByIndex(i)
		require.NoError(t, err)
		prev, err := gen.StateRoot(i - 1)
		require.NoError(t, err)
		require.Equal(t, prev.Root, b.PrevStateRoot, "block %d", i)
	}

	d, err := chaindump.NewReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	d.SetStateRootInHeader(true)
	var dumped []*block.Block
	for {
		b, _, err := d.NextBlock()
		if err != nil {
			break
		}
		dumped = append(dumped, b)
	}
	require.Len(t, dumped, blocks+1)

	c := openMemChain(t, cfg)
	for _, b := range dumped[1:6] {
		require.NoError(t, c.AddBlock(b))
	}
	next := dumped[6]
	bad := *next
	bad.Header = next.Header
	bad.PrevStateRoot[0] ^= 1
	bad.InvalidateCache()
	require.ErrorIs(t, c.AddBlock(&bad), ErrHeaderStateRoot)
	noSR := *next
	noSR.Header = next.Header
	noSR.StateRootEnabled = false
	noSR.InvalidateCache()
	require.ErrorIs(t, c.AddBlock(&noSR), ErrHeaderStateRootSetting)

	r, err := Restore(context.Background(), c, bytes.NewReader(buf.Bytes()), RestoreOptions{})
	require.NoError(t, err)
	require.EqualValues(t, blocks-5, r.Added)
	for i := uint32(0); i <= blocks; i++ {
		want, err := gen.StateRoot(i)
		require.NoError(t, err)
		got, err := c.StateRoot(i)
		require.NoError(t, err)
		require.Equal(t, want.Root, got.Root, "state root of block %d", i)
		h, _ := c.GetHeaderHash(i)
		hdr, err := c.GetHeader(h)
		require.NoError(t, err)
		require.True(t, hdr.StateRootEnabled)
		require.Equal(t, dumped[i].PrevStateRoot, hdr.PrevStateRoot)
	}
}

// TestStateRootInHeaderVersion: a database made without the setting is
// refused with it.
func TestStateRootInHeaderVersion(t *testing.T) {
	cfg := unitTestnet(t)
	st := storage.NewMemoryStore()
	open := func(sr bool) (*Chain, error) {
		p := cfg.ProtocolConfiguration
		p.StateRootInHeader = sr
		n, err := NewNativeSet(&p)
		require.NoError(t, err)
		return Open(Config{Protocol: p, Ledger: cfg.ApplicationConfiguration.Ledger,
			Store: noCloseStore{st}, Natives: n, BloomCapacity: 1000})
	}
	c, err := open(false)
	require.NoError(t, err)
	require.NoError(t, c.Close())
	_, err = open(true)
	require.ErrorIs(t, err, ErrVersion)
	c, err = open(false)
	require.NoError(t, err)
	require.NoError(t, c.Close())
}

// noCloseStore keeps the memory store across a chain's Close.
type noCloseStore struct{ storage.Store }

func (noCloseStore) Close() error { return nil }
