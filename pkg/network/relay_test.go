package network

import (
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestRequestTxsFetchesUnannounced: the consensus path asks peers for
// transactions nobody announced to us; a peer holding them sends them and
// they reach OnTransaction.
func TestRequestTxsFetchesUnannounced(t *testing.T) {
	src := openChain(t, refChain(t), true)
	defer src.Close()
	var txs []*transaction.Transaction
	for i := uint32(1); i <= src.BlockHeight(); i++ {
		b, err := src.GetBlockByIndex(i)
		require.NoError(t, err)
		txs = append(txs, b.Transactions...)
	}
	require.NotEmpty(t, txs)

	mem := newMemNet(t, false)
	a := newNode(t, nodeOpts{mem: mem, host: 1})
	b := newNode(t, nodeOpts{mem: mem, host: 2, seeds: []string{a.addr()}})
	require.Eventually(t, func() bool { return a.handshaked() == 1 && b.handshaked() == 1 }, waitFor, 10*time.Millisecond)
	hashes := make([]util.Uint256, len(txs))
	for i, tx := range txs {
		a.pool.add(tx) // pooled, never announced
		hashes[i] = tx.Hash()
	}
	missing := util.Uint256{0xde, 0xad} // a lacks it: answered by notfound
	b.srv.RequestTxs(append(hashes, missing)...)
	require.Eventually(t, func() bool { return b.pool.len() == len(txs) }, waitFor, 10*time.Millisecond)
	for _, h := range hashes {
		got, ok := b.pool.GetTx(h)
		require.True(t, ok)
		require.Equal(t, h, got.Hash())
	}
	require.False(t, b.pool.ContainsTx(missing))
}

// TestRequestTxsSplitsGetData: a request of more hashes than a getdata
// may carry goes out as several, in order, with the transaction type.
func TestRequestTxsSplitsGetData(t *testing.T) {
	n := newNode(t, nodeOpts{})
	p := dialRaw(t, n, 7)
	require.Eventually(t, func() bool { return n.handshaked() == 1 }, waitFor, 10*time.Millisecond)
	hashes := make([]util.Uint256, payload.MaxHashesCount+3)
	for i := range hashes {
		hashes[i] = util.Uint256{byte(i), byte(i >> 8), 1}
	}
	n.srv.RequestTxs(hashes...)
	var got []util.Uint256
	for len(got) < len(hashes) {
		inv := p.expect(message.CmdGetData).Payload.(*payload.Inventory)
		require.Equal(t, payload.InvTX, inv.Type)
		require.LessOrEqual(t, len(inv.Hashes), payload.MaxHashesCount)
		got = append(got, inv.Hashes...)
	}
	require.Equal(t, hashes, got)
}

// TestOnTransactionPeerIDs: transactions reach OnTransaction with the id
// of the peer that sent them: distinct per peer, never 0 (the pipeline's
// local source).
func TestOnTransactionPeerIDs(t *testing.T) {
	src := openChain(t, refChain(t), true)
	defer src.Close()
	var txs []*transaction.Transaction
	for i := uint32(1); i <= src.BlockHeight() && len(txs) < 2; i++ {
		b, err := src.GetBlockByIndex(i)
		require.NoError(t, err)
		txs = append(txs, b.Transactions...)
	}
	require.GreaterOrEqual(t, len(txs), 2)
	var mu sync.Mutex
	from := map[util.Uint256]uint64{}
	n := newNode(t, nodeOpts{cfg: func(c *Config) {
		c.OnTransaction = func(peer uint64, tx *transaction.Transaction) {
			mu.Lock()
			from[tx.Hash()] = peer
			mu.Unlock()
		}
	}})
	p1, p2 := dialRaw(t, n, 11), dialRaw(t, n, 12)
	p1.send(message.CmdTransaction, txs[0])
	p2.send(message.CmdTransaction, txs[1])
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(from) == 2
	}, waitFor, 10*time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	require.NotZero(t, from[txs[0].Hash()])
	require.NotZero(t, from[txs[1].Hash()])
	require.NotEqual(t, from[txs[0].Hash()], from[txs[1].Hash()], "two peers, two ids")
}
