package chain

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestExtensibleSenders: on neo-go's Genesis.Roles chain (one key is the
// committee, the validator and the state validator) the allowed senders
// are that key's standard account and the 1-of-1 multisig address neo-go
// put in the blocks' NextConsensus, sorted and without duplicates.
func TestExtensibleSenders(t *testing.T) {
	dir := filepath.Join("testdata", "neogo-genesisroles")
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	natives, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Store: storage.NewMemoryStore(), Natives: natives,
		BloomCapacity: 100})
	require.NoError(t, err)
	defer c.Close()
	acc, err := os.Open(filepath.Join(dir, "chain.acc"))
	require.NoError(t, err)
	defer acc.Close()
	_, err = Restore(context.Background(), c, acc, RestoreOptions{})
	require.NoError(t, err)

	b, err := c.GetBlockByIndex(c.BlockHeight())
	require.NoError(t, err)
	k, err := keys.NewPublicKeyFromString(cfg.ProtocolConfiguration.Genesis.Roles["StateValidator"][0])
	require.NoError(t, err)
	want := []util.Uint160{b.NextConsensus, k.ScriptHash()}
	slices.SortFunc(want, util.Uint160.Compare)
	got, err := c.ExtensibleSenders()
	require.NoError(t, err)
	require.Equal(t, want, got)
}
