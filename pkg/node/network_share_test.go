package node

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

type capturedBlocks []*block.Block

func (c *capturedBlocks) Put(b *block.Block) error { *c = append(*c, b); return nil }

// TestSharingSinkQueuesPooledInstances: a block from a peer reaches the
// queue with the pooled instances of the transactions the pool has.
func TestSharingSinkQueuesPooledInstances(t *testing.T) {
	mk := func(nonce uint32) *transaction.Transaction {
		return &transaction.Transaction{Nonce: nonce, ValidUntilBlock: 100, Script: []byte{0x40},
			Signers:   []transaction.Signer{{Account: util.Uint160{1}}},
			Witnesses: []transaction.Witness{{InvocationScript: []byte{1}, VerificationScript: []byte{2}}}}
	}
	b := &block.Block{Header: block.Header{Index: 5}, Transactions: []*transaction.Transaction{mk(1), mk(2)}}
	b.RebuildMerkleRoot()
	raw, err := b.Bytes()
	require.NoError(t, err)
	got, err := block.NewBlockFromBytes(raw)
	require.NoError(t, err)

	pooled := mk(2)
	var q capturedBlocks
	s := sharingSink{q: &q, pooled: func(h util.Uint256) (*transaction.Transaction, bool) {
		return pooled, h == pooled.Hash()
	}}
	require.NoError(t, s.Put(got))
	require.Len(t, q, 1)
	require.Same(t, pooled, q[0].Transactions[1])
	require.NotSame(t, pooled, q[0].Transactions[0])
	require.Equal(t, b.Hash(), q[0].Hash())
}
