package oracle

import (
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
	s := promutil.NewSet(reg, "oracle")
	m := &metrics{
		requests: s.CounterVec("requests_total", "Oracle requests answered by this node, by response code.", "code"),
		fetch: s.Histogram("fetch_seconds", "Time to fetch and filter an oracle request's data.",
			prometheus.ExponentialBuckets(0.005, 4, 8)),
		relayed: s.CounterVec("responses_relayed_total",
			"Completed oracle response transactions relayed, main or backup.", "kind"),
		signatures: s.CounterVec("signatures_total",
			"Signatures received from other oracle nodes, accepted or invalid.", "result"),
		pending: s.Gauge("pending_requests", "Oracle requests being answered."),
	}
	return m, s.Err()
}
