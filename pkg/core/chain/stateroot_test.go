package chain

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func TestValidatedStateRoot(t *testing.T) {
	dir := filepath.Join("testdata", "neogo-genesisroles")
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	natives, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	db := t.TempDir()
	open := func() *Chain {
		c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Store: levelDB(t, db), Natives: natives,
			BloomCapacity: 100})
		require.NoError(t, err)
		return c
	}
	c := open()
	acc, err := os.Open(filepath.Join(dir, "chain.acc"))
	require.NoError(t, err)
	defer acc.Close()
	_, err = Restore(context.Background(), c, acc, RestoreOptions{})
	require.NoError(t, err)

	// The one state validator designated in Genesis.Roles.
	r := StateRootReader{Chain: c, Natives: natives}
	svs, err := r.StateValidators(3)
	require.NoError(t, err)
	require.Equal(t, cfg.ProtocolConfiguration.Genesis.Roles["StateValidator"], svs.Strings())
	svs, err = r.StateValidators(0)
	require.NoError(t, err)
	require.Empty(t, svs, "designations take effect at block 1")

	local, err := c.StateRoot(4)
	require.NoError(t, err)
	w := transaction.Witness{InvocationScript: []byte{1}, VerificationScript: []byte{2}}
	bad := &StateRoot{Index: 4, Root: util.Uint256{1}, Witnesses: []transaction.Witness{w}}
	require.ErrorIs(t, c.AddValidatedStateRoot(bad), ErrStateRootMismatch)
	require.ErrorIs(t, c.AddValidatedStateRoot(&StateRoot{Index: 7, Witnesses: []transaction.Witness{w}}), ErrNotFound)
	require.Error(t, c.AddValidatedStateRoot(&StateRoot{Index: 4, Root: local.Root}), "no witness")
	good := &StateRoot{Index: 4, Root: local.Root, Witnesses: []transaction.Witness{w}}
	require.NoError(t, c.AddValidatedStateRoot(good))
	other := &StateRoot{Index: 4, Root: local.Root, Witnesses: []transaction.Witness{{InvocationScript: []byte{3}}}}
	require.NoError(t, c.AddValidatedStateRoot(other), "a root already validated stays")
	require.NoError(t, c.Close())

	c = open()
	defer c.Close()
	got, err := c.StateRoot(4)
	require.NoError(t, err)
	require.Equal(t, good, got)
	h, err := c.ValidatedStateHeight()
	require.NoError(t, err)
	require.EqualValues(t, 4, h)
}
