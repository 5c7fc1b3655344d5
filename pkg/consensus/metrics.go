package consensus

import (
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
	s := promutil.NewSet(reg, "consensus")
	m := &metrics{
		height: s.Gauge("height", "Index of the block the consensus round is making."),
		view:   s.Gauge("view", "View number of the consensus round."),
		viewChanges: s.Counter("view_changes_total",
			"Views the consensus rounds moved on from without a block (view changes)."),
	}
	return m, s.Err()
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
