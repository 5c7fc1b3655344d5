package main

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/storage"
)

// generatedChain is the single-validator privnet with blocks made by
// `db generate` from seed.
func generatedChain(t *testing.T, blocks uint32, seed string) *chain.Chain {
	cfg := singleConfig(t, false, time.Second)
	natives, err := newNatives(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: natives})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	if blocks > 0 {
		_, err = chain.Generate(context.Background(), c, io.Discard, chain.GenerateOptions{Blocks: blocks,
			TxPerBlock: -1, Seed: seed, Validators: []*keys.PrivateKey{validatorKey(t, cfg)}})
		require.NoError(t, err)
	}
	return c
}

// The block the validators agreed on often reaches the chain from the
// network first: handing it to the chain again is no consensus failure
// (it was logged as one on every such block), but another block at that
// height still is.
func TestAddAgreedBlock(t *testing.T) {
	a := generatedChain(t, 1, "a")
	b := generatedChain(t, 1, "b")
	c := generatedChain(t, 0, "")
	ours, err := a.GetBlockByIndex(1)
	require.NoError(t, err)
	other, err := b.GetBlockByIndex(1)
	require.NoError(t, err)
	require.NotEqual(t, ours.Hash(), other.Hash())

	require.NoError(t, addAgreedBlock(c, ours))
	require.NoError(t, addAgreedBlock(c, ours), "the same block again")
	err = addAgreedBlock(c, other)
	require.ErrorIs(t, err, chain.ErrAlreadyExists, "another block at the height")
	require.Equal(t, uint32(1), c.BlockHeight())
}
