package network

import (
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// gauge is the value of gauge name in reg (-1 when absent).
func gauge(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetGauge().GetValue()
		}
	}
	return -1
}

// TestPeerMetrics: the peer gauge (the dashboard's, docs/monitoring.md)
// follows handshakes and disconnections.
func TestPeerMetrics(t *testing.T) {
	regA, regB := prometheus.NewRegistry(), prometheus.NewRegistry()
	a := newNode(t, nodeOpts{cfg: func(c *Config) { c.Registerer = regA }})
	require.Zero(t, gauge(t, regA, "n3d_p2p_peers"))
	b := newNode(t, nodeOpts{seeds: []string{a.addr()}, cfg: func(c *Config) { c.Registerer = regB }})
	require.Eventually(t, func() bool {
		return gauge(t, regA, "n3d_p2p_peers") == 1 && gauge(t, regB, "n3d_p2p_peers") == 1
	}, waitFor, 10*time.Millisecond)
	b.stop()
	require.Eventually(t, func() bool { return gauge(t, regA, "n3d_p2p_peers") == 0 }, waitFor, 10*time.Millisecond)
}
