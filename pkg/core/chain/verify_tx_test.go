package chain

import (
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// openRefChain opens an in-memory chain with a reference chain's exact
// configuration.
func openRefChain(t *testing.T, name string) *Chain {
	t.Helper()
	cfg := loadProtocol(t, name)
	natives, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// TestVerifyTransactionsReferenceChains verifies every transaction of both
// reference chains (made by neo-go with VerifyTransactions on) against the
// state its block builds on, then adds the block.
func TestVerifyTransactionsReferenceChains(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) {
			c := openRefChain(t, name)
			require.True(t, c.proto.VerifyTransactions)
			n := 0
			for _, b := range refChainBlocks(t, name)[1:] {
				require.NoError(t, c.verifyBlockTxs(b), "block %d", b.Index)
				require.NoError(t, c.AddBlock(b))
				n += len(b.Transactions)
			}
			t.Logf("%d transactions verified", n)
		})
	}
}
