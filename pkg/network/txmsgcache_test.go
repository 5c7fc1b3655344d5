package network

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestTxMessageEncodedOnce: two peers asking for the same pooled
// transaction get the same bytes from one encoded message; the cache
// keeps txMsgCacheSize messages, the oldest leaving first.
func TestTxMessageEncodedOnce(t *testing.T) {
	tx := refTxs(t)[0]
	a := newNode(t, nodeOpts{})
	a.pool.add(tx)
	p, q := dialRaw(t, a, 1), dialRaw(t, a, 2)
	ask := func(r *rawPeer) []byte {
		r.send(message.CmdGetData, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{tx.Hash()}})
		m := r.expect(message.CmdTransaction)
		require.Equal(t, tx.Hash(), m.Payload.(*transaction.Transaction).Hash())
		return m.RawPayload()
	}
	first := ask(p)
	require.Equal(t, first, ask(q))
	want, err := message.New(message.CmdTransaction, tx)
	require.NoError(t, err)
	require.Equal(t, want.RawPayload(), first)
	a.srv.txMsgs.mu.Lock()
	cached := a.srv.txMsgs.m[tx.Hash()]
	a.srv.txMsgs.mu.Unlock()
	require.NotNil(t, cached)
	again, err := a.srv.txMsgs.get(tx.Hash(), tx)
	require.NoError(t, err)
	require.Same(t, cached, again)

	var c txMsgCache
	for i := range txMsgCacheSize + 1 {
		_, err := c.get(util.Uint256{byte(i), byte(i >> 8)}, tx)
		require.NoError(t, err)
	}
	require.Len(t, c.m, txMsgCacheSize)
	require.NotContains(t, c.m, util.Uint256{0, 0})
	last := txMsgCacheSize
	require.Contains(t, c.m, util.Uint256{byte(last), byte(last >> 8)})
}

// BenchmarkTxMessage: building a transaction's message for each peer
// that asks (new) against taking it from the cache (cached).
func BenchmarkTxMessage(b *testing.B) {
	tx := refTxs(b)[0]
	h := tx.Hash()
	b.Run("new", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			if _, err := message.New(message.CmdTransaction, tx); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		var c txMsgCache
		b.ReportAllocs()
		for range b.N {
			if _, err := c.get(h, tx); err != nil {
				b.Fatal(err)
			}
		}
	})
}
