package consensus

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
)

// metrics are the service's Prometheus collectors (docs/monitoring.md):
// the height and view of the round and the view changes.
type metrics struct {
	height      prometheus.Gauge
	view        prometheus.Gauge
	viewChanges prometheus.Counter

	// Owned by the service goroutine: the round last seen.
	lastHeight uint32
	lastView   byte
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		height: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "consensus", Name: "height",
			Help: "Index of the block the consensus round is making.",
		}),
		view: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "consensus", Name: "view",
			Help: "View number of the consensus round.",
		}),
		viewChanges: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "consensus", Name: "view_changes_total",
			Help: "Views the consensus rounds moved on from without a block (view changes).",
		}),
	}
	var err error
	if m.height, err = promutil.Register(reg, m.height); err == nil {
		if m.view, err = promutil.Register(reg, m.view); err == nil {
			m.viewChanges, err = promutil.Register(reg, m.viewChanges)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("consensus: metrics: %w", err)
	}
	return m, nil
}

// round records the round (height, view) the service is in: a higher
// view at the same height counts the views changed.
func (m *metrics) round(height uint32, view byte) {
	if height == m.lastHeight && view > m.lastView {
		m.viewChanges.Add(float64(view - m.lastView))
	}
	m.lastHeight, m.lastView = height, view
	m.height.Set(float64(height))
	m.view.Set(float64(view))
}
