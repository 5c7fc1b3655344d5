package mempool

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
)

// metrics are the pool's Prometheus collectors: the number of pooled
// transactions and the removals by reason.
type metrics struct {
	size    prometheus.Gauge
	removed *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	s := promutil.NewSet(reg, "mempool")
	m := &metrics{
		size:    s.Gauge("transactions", "Transactions in the memory pool."),
		removed: s.CounterVec("removed_total", "Transactions removed from the memory pool, by reason.", "reason"),
	}
	return m, s.Err()
}

// observe records the pool size after an operation and its removals.
func (m *metrics) observe(size int, evs events) {
	m.size.Set(float64(size))
	for i := range evs {
		if evs[i].Kind == TransactionRemoved {
			m.removed.WithLabelValues(evs[i].Reason.String()).Inc()
		}
	}
}
