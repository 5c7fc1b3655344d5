package block_test

import (
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// decodeAliased decodes raw the way a P2P message is decoded: the
// transactions' scripts are sub-slices of raw.
func decodeAliased(t *testing.T, raw []byte) *block.Block {
	t.Helper()
	b := new(block.Block)
	r := io.NewBinReaderFromBuf(raw)
	b.DecodeBinaryBuf(r, raw)
	require.NoError(t, r.Err)
	return b
}

// txPool is a pool of transactions by hash.
type txPool map[util.Uint256]*transaction.Transaction

func poolOf(txs ...*transaction.Transaction) txPool {
	m := make(txPool, len(txs))
	for _, tx := range txs {
		m[tx.Hash()] = tx
	}
	return m
}

func (m txPool) get(h util.Uint256) (*transaction.Transaction, bool) {
	tx, ok := m[h]
	return tx, ok
}

func TestShareTransactions(t *testing.T) {
	orig := newBlock(5)
	raw := mustBytes(t, orig)

	// Pooled copies of transactions 0..3 (decoded apart from the block);
	// number 3 with another invocation script under the same hash.
	var pooled []*transaction.Transaction
	for i := range 4 {
		tx := newTx(uint32(i))
		if i == 3 {
			tx.Witnesses = []transaction.Witness{{InvocationScript: []byte{0x0c, 0x41}, VerificationScript: []byte{0x41}}}
		}
		pooled = append(pooled, tx)
	}
	require.Equal(t, orig.Transactions[3].Hash(), pooled[3].Hash())

	b := decodeAliased(t, raw)
	require.Equal(t, 3, b.ShareTransactions(poolOf(pooled...).get))
	for i := range 3 {
		require.Same(t, pooled[i], b.Transactions[i])
	}
	require.NotSame(t, pooled[3], b.Transactions[3], "different witnesses under one hash: the block keeps its own")
	require.Equal(t, raw, mustBytes(t, b), "the block encodes exactly as decoded")
	require.Equal(t, orig.Hash(), b.Hash())

	// Not every transaction shared: the header still points into raw.
	require.True(t, aliases(raw, b.Witness.InvocationScript))

	// All shared: the header's witness is copied out of the buffer.
	all := decodeAliased(t, raw)
	pooled[3] = newTx(3)
	pooled = append(pooled, newTx(4))
	require.Equal(t, 5, all.ShareTransactions(poolOf(pooled...).get))
	require.False(t, aliases(raw, all.Witness.InvocationScript))
	require.False(t, aliases(raw, all.Witness.VerificationScript))
	for _, tx := range all.Transactions {
		for _, w := range tx.Witnesses {
			require.False(t, aliases(raw, w.InvocationScript))
		}
	}
	require.Equal(t, raw, mustBytes(t, all))

	// Nothing pooled: nothing changes.
	none := decodeAliased(t, raw)
	require.Zero(t, none.ShareTransactions(poolOf().get))
	require.True(t, aliases(raw, none.Witness.InvocationScript))
}

// TestShareTransactionsFreesBuffer: once every transaction is shared, the
// message buffer the block was decoded from is unreachable from it.
func TestShareTransactionsFreesBuffer(t *testing.T) {
	orig := newBlock(50)
	raw := mustBytes(t, orig)
	pooled := make([]*transaction.Transaction, len(orig.Transactions))
	for i := range pooled {
		pooled[i] = newTx(uint32(i))
	}
	b := decodeAliased(t, raw)
	freed := make(chan struct{})
	runtime.AddCleanup(&raw[0], func(struct{}) { close(freed) }, struct{}{})
	raw = nil
	require.Equal(t, len(pooled), b.ShareTransactions(poolOf(pooled...).get))

	deadline := time.After(10 * time.Second)
	for {
		runtime.GC()
		select {
		case <-freed:
			runtime.KeepAlive(b)
			return
		case <-deadline:
			t.Fatal("the decoded block still holds its message buffer")
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// aliases reports whether s starts inside buf.
func aliases(buf, s []byte) bool {
	if len(s) == 0 || len(buf) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(buf)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	return p >= start && p < start+uintptr(len(buf))
}
