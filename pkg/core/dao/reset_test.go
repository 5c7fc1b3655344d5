package dao_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestDeleteBlock stores reference blocks, deletes them again and finds
// the store as it was before each one.
func TestDeleteBlock(t *testing.T) {
	blocks := loadBlocks(t)
	st := storage.NewMemoryStore()
	d := dao.New(st)
	b := blocks[len(blocks)-1]
	require.NotEmpty(t, b.Transactions)
	require.NoError(t, d.StoreAsBlock(b))
	for _, tx := range b.Transactions {
		require.NoError(t, d.StoreAsTransaction(tx, b.Index, nil))
	}
	got, err := d.DeleteBlock(b.Hash())
	require.NoError(t, err)
	require.Equal(t, b.Hash(), got.Hash())
	require.Len(t, got.Transactions, len(b.Transactions))
	n := 0
	require.NoError(t, st.Seek(storage.SeekRange{}, func(k, _ []byte) bool { n++; return true }))
	require.Zero(t, n, "nothing of the block is left")
	_, err = d.DeleteBlock(b.Hash())
	require.ErrorIs(t, err, dao.ErrNotFound)
}

// TestDeleteBlockConflictStubs: a block's conflict records go with it,
// records written by other blocks stay.
func TestDeleteBlockConflictStubs(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	victim, older := util.Uint256{0xee}, util.Uint256{0xdd}
	signer := transaction.Signer{Account: util.Uint160{5}}
	conflicts := func(h util.Uint256, nonce uint32) *transaction.Transaction {
		return &transaction.Transaction{Nonce: nonce, Script: []byte{0x40}, ValidUntilBlock: 10,
			Signers:    []transaction.Signer{signer},
			Attributes: []transaction.Attribute{{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: h}}},
			Witnesses:  []transaction.Witness{{}}}
	}
	early := conflicts(older, 1)
	require.NoError(t, d.StoreAsTransaction(early, 3, nil))
	late := &block.Block{Header: block.Header{Index: 5}, Transactions: []*transaction.Transaction{conflicts(victim, 2), conflicts(older, 3)}}
	require.NoError(t, d.StoreAsBlock(late))
	for _, tx := range late.Transactions {
		require.NoError(t, d.StoreAsTransaction(tx, 5, nil))
	}
	// older's record now carries height 5 (rewritten by the late block).
	require.NoError(t, d.StoreAsTransaction(conflicts(older, 4), 4, nil)) // and 4 by another
	_, err := d.DeleteBlock(late.Hash())
	require.NoError(t, err)
	require.NoError(t, d.HasTransaction(victim, nil, 6, 100), "the block's own record is gone")
	require.NoError(t, d.HasTransaction(victim, []transaction.Signer{signer}, 6, 100))
	require.ErrorIs(t, d.HasTransaction(older, []transaction.Signer{signer}, 6, 100), dao.ErrHasConflicts,
		"a record another block wrote stays")
	_, _, err = d.GetTransaction(early.Hash())
	require.NoError(t, err, "transactions of other blocks stay")
}

func TestDeleteHeaderHashes(t *testing.T) {
	d := dao.New(storage.NewMemoryStore())
	require.NoError(t, d.StoreHeaderHashes([]util.Uint256{{1}}, 2000))
	require.NoError(t, d.DeleteHeaderHashes(2000))
	_, err := d.GetHeaderHashes(2000)
	require.ErrorIs(t, err, dao.ErrNotFound)
}
