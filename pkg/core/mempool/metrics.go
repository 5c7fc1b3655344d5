package mempool

import (
	"errors"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
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
	if m.size, err = register(reg, m.size); err != nil {
		return nil, err
	}
	if m.removed, err = register(reg, m.removed); err != nil {
		return nil, err
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

// register registers c, or returns the collector already registered under
// its name (several pools in one process share the metrics).
func register[C prometheus.Collector](reg prometheus.Registerer, c C) (C, error) {
	err := reg.Register(c)
	if err == nil {
		return c, nil
	}
	var are prometheus.AlreadyRegisteredError
	if errors.As(err, &are) {
		if old, ok := are.ExistingCollector.(C); ok {
			return old, nil
		}
	}
	return c, fmt.Errorf("mempool: metrics: %w", err)
}
