package chain

import (
	"bytes"
	"context"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/storage"
)

// TestMetrics restores a reference chain into a chain with a private
// registry and checks the height, time, transaction and persist metrics
// against the blocks it holds.
func TestMetrics(t *testing.T) {
	const name = "chain50x2"
	reg := prometheus.NewRegistry()
	cfg := testConfig(t, name, storage.NewMemoryStore())
	cfg.Registerer = reg
	cfg.PersistInterval = -1 // hand every block to the store
	c, err := Open(cfg)
	require.NoError(t, err)
	defer c.Close()
	require.Zero(t, gathered(t, reg)["n3d_chain_block_height"])
	_, err = Restore(context.Background(), c, bytes.NewReader(accFile(t, name)), RestoreOptions{})
	require.NoError(t, err)

	top := c.BlockHeight()
	require.NotZero(t, top)
	var txs int
	for i := uint32(1); i <= top; i++ {
		b, err := c.GetBlockByIndex(i)
		require.NoError(t, err)
		txs += len(b.Transactions)
	}
	tip, err := c.GetBlockByIndex(top)
	require.NoError(t, err)
	got := gathered(t, reg)
	require.Equal(t, float64(top), got["n3d_chain_block_height"])
	require.Equal(t, float64(top), got["n3d_chain_persisted_height"])
	require.Equal(t, float64(tip.Timestamp)/1000, got["n3d_chain_block_timestamp_seconds"])
	require.Equal(t, float64(txs), got["n3d_chain_transactions_total"])
	_, ok := got["n3d_chain_unpersisted_keys"]
	require.True(t, ok)
	// Every block handed the cache to the store; none was logged (a
	// restore), so only the queue's wait was measured.
	require.Positive(t, got["n3d_chain_persist_wait_seconds_total"])
	_, ok = got["n3d_chain_block_log_wait_seconds_total"]
	require.True(t, ok)
	// One interval per block after genesis.
	require.Equal(t, float64(top), got["n3d_chain_block_interval_seconds"])

	// A second chain in the process shares the collectors.
	cfg2 := testConfig(t, name, storage.NewMemoryStore())
	cfg2.Registerer = reg
	c2, err := Open(cfg2)
	require.NoError(t, err)
	defer c2.Close()
	require.Same(t, c.metrics.height, c2.metrics.height)
}

// gathered reads reg's metrics: a gauge's or counter's value, a
// histogram's sample count.
func gathered(t *testing.T, reg *prometheus.Registry) map[string]float64 {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	out := map[string]float64{}
	for _, mf := range mfs {
		for _, m := range mf.GetMetric() {
			switch {
			case m.GetGauge() != nil:
				out[mf.GetName()] = m.GetGauge().GetValue()
			case m.GetCounter() != nil:
				out[mf.GetName()] = m.GetCounter().GetValue()
			case m.GetHistogram() != nil:
				out[mf.GetName()] = float64(m.GetHistogram().GetSampleCount())
			}
		}
	}
	return out
}
