package network

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// TestDroppedDeliveryFetchedAgain reproduces the 4+1 neo-bench tail: an
// RPC-like node (src) is the only source of the transactions of two
// validators and announces each once. One validator drops the first
// delivery of a third of them on its way to the pool (what a full
// per-source verification queue or a refusal that depends on the moment,
// such as a full pool, does). The hash is then neither pooled nor being
// requested, and nothing announces it again before src's re-announcement,
// here pushed out of reach (a threshold of 1000 blocks): the validator
// must ask for it again by itself, within a request timeout.
//
// The nodes run on an in-memory network and a fake clock; the test
// advances the clock a retry period at a time until both validators hold
// every transaction.
func TestDroppedDeliveryFetchedAgain(t *testing.T) {
	txs := refTxs(t)
	mem := newMemNet(t, true)
	noResend := func(c *Config) { c.TxResendThreshold = 1000 }
	src := newNode(t, nodeOpts{mem: mem, host: 1, cfg: noResend})
	var v1 *node
	var arrivals atomic.Int64
	drop := dropFirst(&v1, txs)
	reg := prometheus.NewRegistry()
	v1 = newNode(t, nodeOpts{mem: mem, host: 2, seeds: []string{mem.addr(1)}, cfg: func(c *Config) {
		noResend(c)
		c.Registerer = reg
		c.OnTransaction = func(id uint64, tx *transaction.Transaction) {
			arrivals.Add(1)
			drop(id, tx)
		}
	}})
	v2 := newNode(t, nodeOpts{mem: mem, host: 3, seeds: []string{mem.addr(1)}, cfg: noResend})
	require.Eventually(t, func() bool {
		return src.handshaked() >= 2 && v1.handshaked() >= 1 && v2.handshaked() >= 1
	}, waitFor, time.Millisecond)

	hashes := make([]util.Uint256, len(txs))
	for i, tx := range txs {
		hashes[i] = tx.Hash()
		src.pool.add(tx)
	}
	src.srv.AnnounceTxs(hashes)
	// Every first delivery reached v1 (a third of them dropped there).
	require.Eventually(t, func() bool {
		return arrivals.Load() >= int64(len(txs)) && v2.pool.len() == len(txs)
	}, waitFor, time.Millisecond)
	dropped := len(txs) - v1.pool.len()
	require.Positive(t, dropped)

	step := v1.srv.cfg.requestTimeout() / 4
	require.Eventually(t, func() bool {
		if v1.pool.len() == len(txs) {
			return true
		}
		mem.fake.Advance(step)
		return false
	}, waitFor, 10*time.Millisecond, "v1 did not fetch the %d dropped transactions again", dropped)
	require.GreaterOrEqual(t, metricValue(t, reg, "n3d_p2p_tx_refetched_total"), float64(dropped))
	require.Zero(t, metricValue(t, reg, "n3d_p2p_getdata_abandoned_total"))
	require.Zero(t, src.srv.Traffic().Reannounced)
}
