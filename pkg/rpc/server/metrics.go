package server

import (
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/n3d-io/n3d/pkg/rpc/result"
)

// metrics are the request metrics: a duration histogram per method and a
// counter of errors per method and code. Method labels are bounded to the
// known methods ("unknown" for the rest).
type metrics struct {
	duration *prometheus.HistogramVec
	errors   *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	s := promutil.NewSet(reg, "rpc")
	m := &metrics{
		duration: s.HistogramVec("request_duration_seconds", "Time to answer a JSON-RPC request, by method.",
			prometheus.ExponentialBuckets(0.0001, 4, 10), "method"),
		errors: s.CounterVec("request_errors_total",
			"JSON-RPC requests answered with an error, by method and code.", "method", "code"),
	}
	return m, s.Err()
}

func (m *metrics) observe(method string, start time.Time, e *result.Error) {
	m.duration.WithLabelValues(method).Observe(time.Since(start).Seconds())
	if e != nil {
		m.errors.WithLabelValues(method, strconv.FormatInt(e.Code, 10)).Inc()
	}
}
