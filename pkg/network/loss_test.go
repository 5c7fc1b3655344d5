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

// refTxs returns the transactions of the reference chain.
func refTxs(t *testing.T) []*transaction.Transaction {
	src := openChain(t, refChain(t), true)
	defer src.Close()
	var txs []*transaction.Transaction
	for i := uint32(1); i <= src.BlockHeight(); i++ {
		b, err := src.GetBlockByIndex(i)
		require.NoError(t, err)
		txs = append(txs, b.Transactions...)
	}
	require.NotEmpty(t, txs)
	return txs
}

// dropFirst is an OnTransaction for node n that drops the first arrival
// of every third transaction, as a busy ingress pipeline does when a
// peer's queue is full (the hash is then no longer in flight).
func dropFirst(n **node, txs []*transaction.Transaction) func(uint64, *transaction.Transaction) {
	victims := make(map[util.Uint256]bool)
	for i, tx := range txs {
		if i%3 == 0 {
			victims[tx.Hash()] = true
		}
	}
	var mu sync.Mutex
	return func(_ uint64, tx *transaction.Transaction) {
		mu.Lock()
		drop := victims[tx.Hash()]
		delete(victims, tx.Hash())
		mu.Unlock()
		if !drop {
			(*n).pool.add(tx)
		}
	}
}

// TestNoTxLostOnLossyRelay reproduces the 4+1 neo-bench loss: an RPC-like
// node (src) holds transactions its peers (two validators) must get. One
// validator drops the first delivery of a third of them (a full per-peer
// queue); the other is told of every hash first by a peer that never
// answers getdata. Each transaction is announced once by src. Every
// transaction must still reach both validators.
func TestNoTxLostOnLossyRelay(t *testing.T) {
	txs := refTxs(t)
	src := newNode(t, nodeOpts{})
	var v1 *node
	v1 = newNode(t, nodeOpts{seeds: []string{src.addr()}, cfg: func(c *Config) {
		c.OnTransaction = dropFirst(&v1, txs)
	}})
	v2 := newNode(t, nodeOpts{seeds: []string{src.addr()}})
	require.Eventually(t, func() bool { return src.handshaked() == 2 && v1.handshaked() == 1 && v2.handshaked() == 1 },
		waitFor, 10*time.Millisecond)

	hashes := make([]util.Uint256, len(txs))
	for i, tx := range txs {
		hashes[i] = tx.Hash()
	}
	// A silent peer announces every hash to v2 first and never answers.
	silent := dialRaw(t, v2, 0x5111e47)
	silent.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: hashes})
	silent.expect(message.CmdGetData)

	for _, tx := range txs {
		src.pool.add(tx)
	}
	src.srv.RelayTxs(true, hashes...)
	for i, v := range []*node{v1, v2} {
		require.Eventually(t, func() bool { return v.pool.len() == len(txs) }, waitFor, 10*time.Millisecond,
			"validator %d did not get all %d transactions", i+1, len(txs))
	}
	for _, h := range hashes {
		for _, v := range []*node{v1, v2} {
			require.True(t, v.pool.ContainsTx(h))
		}
	}
}
