package consensus

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// TestMetricsRound: a higher view at the same height counts the views
// changed; a new height (or a lower view there) counts nothing.
func TestMetricsRound(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := newMetrics(reg)
	require.NoError(t, err)
	value := func(name string) float64 {
		mfs, err := reg.Gather()
		require.NoError(t, err)
		for _, mf := range mfs {
			if mf.GetName() == name {
				if c := mf.GetMetric()[0].GetCounter(); c != nil {
					return c.GetValue()
				}
				return mf.GetMetric()[0].GetGauge().GetValue()
			}
		}
		t.Fatalf("no metric %s", name)
		return 0
	}
	for _, step := range []struct {
		height uint32
		view   byte
		total  float64
	}{
		{5, 0, 0}, {5, 0, 0}, {5, 1, 1}, {5, 3, 3}, {6, 0, 3}, {7, 2, 3}, {7, 2, 3}, {7, 4, 5}, {8, 0, 5},
	} {
		m.round(step.height, step.view)
		require.Equal(t, step.total, value("n3d_consensus_view_changes_total"), "%d/%d", step.height, step.view)
		require.Equal(t, float64(step.height), value("n3d_consensus_height"))
		require.Equal(t, float64(step.view), value("n3d_consensus_view"))
	}
}
