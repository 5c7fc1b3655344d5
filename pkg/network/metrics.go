package network

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
)

// metrics are the server's Prometheus collectors (docs/monitoring.md):
// the handshaked peers.
type metrics struct {
	peers prometheus.Gauge
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		peers: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "p2p", Name: "peers",
			Help: "Handshaked P2P peers.",
		}),
	}
	var err error
	if m.peers, err = promutil.Register(reg, m.peers); err != nil {
		return nil, fmt.Errorf("network: metrics: %w", err)
	}
	return m, nil
}

// countPeers sets the gauge to the server's current handshaked peers. It
// counts and sets under the lock, so concurrent calls cannot leave an
// older count.
func (s *Server) countPeers() {
	s.mu.Lock()
	defer s.mu.Unlock()
	handshaked := 0
	for p := range s.mu.peers {
		if p.handshaked.Load() {
			handshaked++
		}
	}
	s.metrics.peers.Set(float64(handshaked))
}
