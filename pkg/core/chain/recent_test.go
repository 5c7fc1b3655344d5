package chain

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// TestRecentBlockBytes adds reference blocks as a node does (with block log
// records) and reads every block back after each addition: the newest comes
// from the kept serialization, older ones from the stored records, and
// both give the reference block's bytes. A reset forgets the kept block.
func TestRecentBlockBytes(t *testing.T) {
	const name = "chain50x2"
	blocks := refChainBlocks(t, name)
	refs := refBlocks(t, name)
	c := openReferenceChain(t, name, storage.NewMemoryStore())
	defer func() { require.NoError(t, c.Close()) }()
	withTxs := 0
	for i, b := range blocks[1:] {
		require.NoError(t, c.AddBlock(b))
		if len(b.Transactions) > 0 {
			withTxs++
		}
		for j := 1; j <= i+1; j++ {
			h := blocks[j].Hash()
			kept, ok := c.recent.appendTo([]byte{0xaa}, h)
			require.Equal(t, j == i+1, ok, "block %d kept after adding %d", j, i+1)
			got, err := c.AppendBlockBytes([]byte{0xaa}, h)
			require.NoError(t, err)
			require.Equal(t, append([]byte{0xaa}, refs[j].Raw...), got, "block %d", j)
			if ok {
				require.Equal(t, got, kept)
				stored, err := c.dao.AppendBlockBytes([]byte{0xaa}, h)
				require.NoError(t, err)
				require.Equal(t, stored, kept, "block %d: kept and stored differ", j)
			}
		}
	}
	require.Positive(t, withTxs, "no block with transactions in %s", name)

	tip := blocks[len(blocks)-1].Hash()
	require.NoError(t, c.Reset(uint32(len(blocks)-3)))
	_, ok := c.recent.appendTo(nil, tip)
	require.False(t, ok)
	_, err := c.AppendBlockBytes(nil, tip)
	require.ErrorIs(t, err, ErrNotFound)
}
