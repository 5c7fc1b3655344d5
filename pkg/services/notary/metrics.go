package notary

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
)

// metrics are the service's Prometheus collectors.
type metrics struct {
	requests    prometheus.Counter     // requests taken from the pool
	pending     prometheus.Gauge       // main transactions followed
	designated  prometheus.Gauge       // 1 while a wallet key is designated
	relayed     *prometheus.CounterVec // completed transactions relayed, by kind
	relayErrors *prometheus.CounterVec // relays refused, by kind
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "notary", Name: "requests_total",
			Help: "P2P notary requests taken by the notary service.",
		}),
		pending: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "notary", Name: "pending_main_transactions",
			Help: "Main transactions the notary service follows.",
		}),
		designated: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "notary", Name: "designated",
			Help: "1 while a key of the notary wallet is designated for the P2PNotary role.",
		}),
		relayed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "notary", Name: "relayed_total",
			Help: "Transactions completed by the notary service and relayed, main or fallback.",
		}, []string{"kind"}),
		relayErrors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "notary", Name: "relay_errors_total",
			Help: "Completed transactions the node refused to relay, main or fallback.",
		}, []string{"kind"}),
	}
	if reg == nil {
		return m, nil
	}
	var err error
	if m.requests, err = promutil.Register(reg, m.requests); err != nil {
		return nil, fmt.Errorf("notary: metrics: %w", err)
	}
	if m.pending, err = promutil.Register(reg, m.pending); err != nil {
		return nil, fmt.Errorf("notary: metrics: %w", err)
	}
	if m.designated, err = promutil.Register(reg, m.designated); err != nil {
		return nil, fmt.Errorf("notary: metrics: %w", err)
	}
	if m.relayed, err = promutil.Register(reg, m.relayed); err != nil {
		return nil, fmt.Errorf("notary: metrics: %w", err)
	}
	if m.relayErrors, err = promutil.Register(reg, m.relayErrors); err != nil {
		return nil, fmt.Errorf("notary: metrics: %w", err)
	}
	return m, nil
}
