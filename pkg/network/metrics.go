package network

import (
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
	s := promutil.NewSet(reg, "p2p")
	m := &metrics{
		peers:       s.Gauge("peers", "Handshaked P2P peers."),
		handshaking: s.Gauge("handshaking_connections", "Inbound connections holding a handshake slot."),
		staleTxs: s.Gauge("stale_pool_transactions",
			"Pooled transactions pending for longer than the re-announcement threshold."),
		reannounced: s.Counter("reannounced_transactions_total",
			"Announcements of pooled transactions made again because they stayed in the pool."),
		retries: s.Counter("getdata_retries_total", "Items asked from another announcer after a getdata went unanswered."),
		skipped: s.Counter("broadcast_skipped_total", "Peers a broadcast did not reach because their send queue was full."),
	}
	return m, s.Err()
}
