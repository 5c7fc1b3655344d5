package chain

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/n3d-io/n3d/pkg/core/block"
)

// metrics are the chain's Prometheus collectors (docs/monitoring.md):
// the height, the last block's time and interval, the transactions added,
// the height handed to the store (block_height - persisted_height is the
// persist lag: blocks held only in the write cache), the keys not yet
// written (the database's backlog), whether the store takes writes, and
// the time AddBlock waited for the store: for the block log's durable
// write after the block was executed, and for room in the write cache's
// queue of change sets being written (a store slower than the blocks).
type metrics struct {
	height    prometheus.Gauge
	headers   prometheus.Gauge
	persisted prometheus.Gauge
	timestamp prometheus.Gauge
	interval  prometheus.Histogram
	txs       prometheus.Counter
	pooledTxs prometheus.Counter
	cached    prometheus.Gauge
	storageOK prometheus.Gauge
	logWait   prometheus.Counter
	queueWait prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	s := promutil.NewSet(reg, "chain")
	m := &metrics{
		height: s.Gauge("block_height", "Index of the last block added to the chain."),
		headers: s.Gauge("header_height",
			"Index of the highest known header (above block_height while headers are synchronised ahead of the blocks)."),
		persisted: s.Gauge("persisted_height", "Index of the last block whose changes were handed to the store."),
		timestamp: s.Gauge("block_timestamp_seconds", "Timestamp of the last block added (Unix seconds)."),
		interval: s.Histogram("block_interval_seconds", "Time between the timestamps of consecutive blocks.",
			[]float64{0.5, 1, 2, 3, 5, 8, 10, 15, 20, 30, 45, 60, 120, 300}),
		txs: s.Counter("transactions_total", "Transactions in the blocks added since start."),
		pooledTxs: s.Counter("pooled_transactions_total",
			"Transactions of verified blocks found in the memory pool (same witnesses): only their state-dependent checks ran."),
		cached: s.Gauge("unpersisted_keys",
			"Changed keys in the write cache not yet written to the database (being written included)."),
		storageOK: s.Gauge("storage_ok",
			"1 while the store takes writes; 0 while it refuses them and the chain accepts no blocks or transactions."),
		logWait: s.Counter("block_log_wait_seconds_total",
			"Time blocks waited, after their execution, for their block log record to be durable."),
		queueWait: s.Counter("persist_wait_seconds_total",
			"Time blocks waited to hand the write cache to the store (back-pressure: earlier change sets still being written)."),
	}
	return m, s.Err()
}

// loaded sets the gauges to the tip of an opened chain.
func (m *metrics) loaded(tip *block.Header, headerHeight uint32) {
	m.height.Set(float64(tip.Index))
	m.headers.Set(float64(headerHeight))
	m.persisted.Set(float64(tip.Index))
	m.timestamp.Set(float64(tip.Timestamp) / 1000)
	m.storageOK.Set(1)
}

// storageState records the store refusing writes (err) or taking them
// again (nil).
func (m *metrics) storageState(err error) {
	if err != nil {
		m.storageOK.Set(0)
		return
	}
	m.storageOK.Set(1)
}

// blockAdded records b, added after prev (nil for the genesis block).
func (m *metrics) blockAdded(b *block.Block, prev *block.Header) {
	m.height.Set(float64(b.Index))
	m.timestamp.Set(float64(b.Timestamp) / 1000)
	if prev != nil && b.Timestamp >= prev.Timestamp {
		m.interval.Observe(float64(b.Timestamp-prev.Timestamp) / 1000)
	}
	m.txs.Add(float64(len(b.Transactions)))
}
