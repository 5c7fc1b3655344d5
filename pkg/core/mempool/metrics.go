package mempool

import (
	"fmt"

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
	m := &metrics{
		size: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "mempool", Name: "transactions",
			Help: "Transactions in the memory pool.",
		}),
		removed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "mempool", Name: "removed_total",
			Help: "Transactions removed from the memory pool, by reason.",
		}, []string{"reason"}),
	}
	if reg == nil {
		return m, nil
	}
	var err error
	if m.size, err = promutil.Register(reg, m.size); err == nil {
		m.removed, err = promutil.Register(reg, m.removed)
	}
	if err != nil {
		return nil, fmt.Errorf("mempool: metrics: %w", err)
	}
	return m, nil
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
