package oracle

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
)

// metrics are the service's Prometheus collectors.
type metrics struct {
	requests   *prometheus.CounterVec // answered requests by response code
	fetch      prometheus.Histogram   // time to fetch and filter one request
	relayed    *prometheus.CounterVec // completed transactions relayed, main or backup
	signatures *prometheus.CounterVec // other nodes' signatures, accepted or invalid
	pending    prometheus.Gauge       // requests being answered
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "oracle", Name: "requests_total",
			Help: "Oracle requests answered by this node, by response code.",
		}, []string{"code"}),
		fetch: prometheus.NewHistogram(prometheus.HistogramOpts{
			Namespace: "n3d", Subsystem: "oracle", Name: "fetch_seconds",
			Help:    "Time to fetch and filter an oracle request's data.",
			Buckets: prometheus.ExponentialBuckets(0.005, 4, 8),
		}),
		relayed: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "oracle", Name: "responses_relayed_total",
			Help: "Completed oracle response transactions relayed, main or backup.",
		}, []string{"kind"}),
		signatures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "oracle", Name: "signatures_total",
			Help: "Signatures received from other oracle nodes, accepted or invalid.",
		}, []string{"result"}),
		pending: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "oracle", Name: "pending_requests",
			Help: "Oracle requests being answered.",
		}),
	}
	if reg == nil {
		return m, nil
	}
	var err error
	if m.requests, err = promutil.Register(reg, m.requests); err != nil {
		return nil, fmt.Errorf("oracle: metrics: %w", err)
	}
	if m.fetch, err = promutil.Register(reg, m.fetch); err != nil {
		return nil, fmt.Errorf("oracle: metrics: %w", err)
	}
	if m.relayed, err = promutil.Register(reg, m.relayed); err != nil {
		return nil, fmt.Errorf("oracle: metrics: %w", err)
	}
	if m.signatures, err = promutil.Register(reg, m.signatures); err != nil {
		return nil, fmt.Errorf("oracle: metrics: %w", err)
	}
	if m.pending, err = promutil.Register(reg, m.pending); err != nil {
		return nil, fmt.Errorf("oracle: metrics: %w", err)
	}
	return m, nil
}
