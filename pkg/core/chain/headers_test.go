package chain

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// TestHeadersAhead adds a generated chain's headers to a fresh chain
// before its blocks: they are verified, survive a reopen, are answered
// as headers but not as blocks, and a block that differs from its header
// is refused; the blocks then go on as usual (same state roots) and a
// reset drops the headers above its height.
func TestHeadersAhead(t *testing.T) {
	cfg := unitTestnet(t)
	a := openMemChain(t, cfg)
	const blocks = 12
	_, err := Generate(context.Background(), a, io.Discard, GenerateOptions{Blocks: blocks, Validators: validatorKeys(t, 3)})
	require.NoError(t, err)
	hdrs := headersOf(t, a, 1, blocks)

	st := storage.NewMemoryStore()
	open := func() *Chain {
		n, err := NewNativeSet(&cfg.ProtocolConfiguration)
		require.NoError(t, err)
		c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
			Store: noCloseStore{st}, Natives: n, BloomCapacity: 1000})
		require.NoError(t, err)
		return c
	}
	c := open()
	require.EqualValues(t, 0, c.HeaderHeight())

	// Refused: a gap, a bad witness, a wrong previous hash.
	require.ErrorIs(t, c.AddHeaders(hdrs[1]), ErrHeaderIndex)
	bad := *hdrs[3]
	bad.Witness.InvocationScript = bytes.Clone(bad.Witness.InvocationScript)
	bad.Witness.InvocationScript[3] ^= 1
	bad.InvalidateCache()
	err = c.AddHeaders(hdrs[0], hdrs[1], hdrs[2], &bad, hdrs[4])
	require.ErrorIs(t, err, ErrWitness)
	require.Contains(t, err.Error(), "block 4")
	require.EqualValues(t, 3, c.HeaderHeight(), "the valid headers before are kept")
	require.NoError(t, c.AddHeaders(hdrs[:8]...), "overlapping")
	other := *hdrs[5]
	other.Nonce++
	other.InvalidateCache()
	require.ErrorIs(t, c.AddHeaders(&other), ErrHeaderMismatch)
	require.EqualValues(t, 8, c.HeaderHeight())
	require.EqualValues(t, 0, c.BlockHeight())

	require.NoError(t, c.Close())
	c = open()
	require.EqualValues(t, 8, c.HeaderHeight())
	require.NoError(t, c.AddHeaders(hdrs[8:]...))
	require.EqualValues(t, blocks, c.HeaderHeight())
	for i := uint32(1); i <= blocks; i++ {
		h, ok := c.HeaderHashAt(i)
		require.True(t, ok)
		require.Equal(t, hdrs[i-1].Hash(), h)
		got, err := c.GetHeaderByIndex(i)
		require.NoError(t, err)
		require.Equal(t, hdrs[i-1].Hash(), got.Hash())
		_, ok = c.GetHeaderHash(i)
		require.False(t, ok, "GetHeaderHash answers for blocks only")
	}
	_, err = c.GetBlock(hdrs[4].Hash())
	require.ErrorIs(t, err, ErrNotFound)
	_, err = c.GetBlockByIndex(5)
	require.ErrorIs(t, err, ErrNotFound)

	// A block is checked against its known header.
	b1 := mustBlock(t, a, 1)
	forged := &block.Block{Header: b1.Header}
	forged.Timestamp++
	forged.InvalidateCache()
	require.ErrorIs(t, c.AddBlock(forged), ErrHeaderMismatch)
	for i := uint32(1); i <= 6; i++ {
		require.NoError(t, c.AddBlock(mustBlock(t, a, i)))
		want, err := a.StateRoot(i)
		require.NoError(t, err)
		require.Equal(t, want.Root, c.CurrentStateRoot())
		require.EqualValues(t, blocks, c.HeaderHeight())
	}
	require.NoError(t, c.Close())
	c = open()
	require.EqualValues(t, 6, c.BlockHeight())
	require.EqualValues(t, blocks, c.HeaderHeight())

	require.NoError(t, c.Reset(4))
	require.EqualValues(t, 4, c.HeaderHeight(), "a reset drops the headers above it")
	require.NoError(t, c.AddHeaders(hdrs[4:]...))
	for i := uint32(5); i <= blocks; i++ {
		require.NoError(t, c.AddBlock(mustBlock(t, a, i)))
	}
	require.Equal(t, a.CurrentStateRoot(), c.CurrentStateRoot())
	require.EqualValues(t, blocks, c.HeaderHeight())
	require.NoError(t, c.Close())
	c = open()
	defer c.Close()
	require.EqualValues(t, blocks, c.HeaderHeight())
	require.EqualValues(t, blocks, c.BlockHeight())
}

// emptyHeaders signs n headers of empty blocks on top of c's tip with
// the standby validators' keys.
func emptyHeaders(t *testing.T, c *Chain, n int) []*block.Header {
	t.Helper()
	g, err := makeGenerator(c, GenerateOptions{Validators: validatorKeys(t, 3)})
	require.NoError(t, err)
	prev := c.mu.tip
	var out []*block.Header
	for range n {
		h := &block.Header{Version: block.VersionInitial, PrevHash: prev.Hash(), Timestamp: prev.Timestamp + 1,
			Index: prev.Index + 1, NextConsensus: g.bft.hash}
		h.PrimaryIndex = byte(h.Index % uint32(c.proto.ValidatorsCountAt(h.Index)))
		h.Witness = g.bft.witness(h.SignData(g.magic))
		h.InvalidateCache()
		out = append(out, h)
		prev = h
	}
	return out
}

// TestHeadersAheadBatches stores more headers than a hash batch holds:
// the batches written ahead of the blocks and the walk back from the top
// header give the same hashes after a reopen, and the blocks follow.
func TestHeadersAheadBatches(t *testing.T) {
	cfg := unitTestnet(t)
	st := storage.NewMemoryStore()
	var reg *prometheus.Registry
	open := func() *Chain {
		n, err := NewNativeSet(&cfg.ProtocolConfiguration)
		require.NoError(t, err)
		reg = prometheus.NewRegistry()
		c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
			Store: noCloseStore{st}, Natives: n, BloomCapacity: 1000, Registerer: reg})
		require.NoError(t, err)
		return c
	}
	c := open()
	const n = headerBatch + 5
	hdrs := emptyHeaders(t, c, n)
	for i := 0; i < n; i += 500 {
		require.NoError(t, c.AddHeaders(hdrs[i:min(i+500, n)]...))
	}
	require.Equal(t, float64(n), gathered(t, reg)["n3d_chain_header_height"])
	for i := range 10 {
		require.NoError(t, c.AddBlock(&block.Block{Header: *hdrs[i]}))
	}
	require.NoError(t, c.Close())
	c = open()
	defer c.Close()
	require.EqualValues(t, 10, c.BlockHeight())
	require.EqualValues(t, n, c.HeaderHeight())
	require.Equal(t, float64(n), gathered(t, reg)["n3d_chain_header_height"])
	require.Equal(t, float64(10), gathered(t, reg)["n3d_chain_block_height"])
	for i, h := range hdrs {
		got, ok := c.HeaderHashAt(uint32(i + 1))
		require.True(t, ok)
		require.Equal(t, h.Hash(), got, "header %d", i+1)
	}
	require.NoError(t, c.AddBlock(&block.Block{Header: *hdrs[10]}))
	require.EqualValues(t, n, c.HeaderHeight())
}
