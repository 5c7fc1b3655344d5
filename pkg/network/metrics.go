package network

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
)

// metrics are the server's Prometheus collectors.
type metrics struct {
	peers       prometheus.Gauge
	handshaking prometheus.Gauge
	staleTxs    prometheus.Gauge
	reannounced prometheus.Counter
	retries     prometheus.Counter
	skipped     prometheus.Counter
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		peers: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "p2p", Name: "peers",
			Help: "Handshaked P2P peers.",
		}),
		handshaking: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "p2p", Name: "handshaking_connections",
			Help: "Inbound connections holding a handshake slot.",
		}),
		staleTxs: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "p2p", Name: "stale_pool_transactions",
			Help: "Pooled transactions pending for longer than the re-announcement threshold.",
		}),
		reannounced: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "p2p", Name: "reannounced_transactions_total",
			Help: "Announcements of pooled transactions made again because they stayed in the pool.",
		}),
		retries: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "p2p", Name: "getdata_retries_total",
			Help: "Items asked from another announcer after a getdata went unanswered.",
		}),
		skipped: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "p2p", Name: "broadcast_skipped_total",
			Help: "Peers a broadcast did not reach because their send queue was full.",
		}),
	}
	if reg == nil {
		return m, nil
	}
	var err error
	if m.peers, err = promutil.Register(reg, m.peers); err != nil {
		return nil, fmt.Errorf("network: metrics: %w", err)
	}
	if m.handshaking, err = promutil.Register(reg, m.handshaking); err != nil {
		return nil, fmt.Errorf("network: metrics: %w", err)
	}
	if m.staleTxs, err = promutil.Register(reg, m.staleTxs); err != nil {
		return nil, fmt.Errorf("network: metrics: %w", err)
	}
	if m.reannounced, err = promutil.Register(reg, m.reannounced); err != nil {
		return nil, fmt.Errorf("network: metrics: %w", err)
	}
	if m.retries, err = promutil.Register(reg, m.retries); err != nil {
		return nil, fmt.Errorf("network: metrics: %w", err)
	}
	if m.skipped, err = promutil.Register(reg, m.skipped); err != nil {
		return nil, fmt.Errorf("network: metrics: %w", err)
	}
	return m, nil
}
