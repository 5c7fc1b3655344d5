package server

import (
	"fmt"
	"strconv"
	"time"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the request metrics: a duration histogram per method and a
// counter of errors per method and code. Method labels are bounded to the
// known methods ("unknown" for the rest).
type metrics struct {
	duration *prometheus.HistogramVec
	errors   *prometheus.CounterVec
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: "n3d", Subsystem: "rpc", Name: "request_duration_seconds",
			Help:    "Time to answer a JSON-RPC request, by method.",
			Buckets: prometheus.ExponentialBuckets(0.0001, 4, 10),
		}, []string{"method"}),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "rpc", Name: "request_errors_total",
			Help: "JSON-RPC requests answered with an error, by method and code.",
		}, []string{"method", "code"}),
	}
	if reg == nil {
		return m, nil
	}
	var err error
	if m.duration, err = promutil.Register(reg, m.duration); err == nil {
		m.errors, err = promutil.Register(reg, m.errors)
	}
	if err != nil {
		return nil, fmt.Errorf("rpc: metrics: %w", err)
	}
	return m, nil
}

func (m *metrics) observe(method string, start time.Time, e *result.Error) {
	m.duration.WithLabelValues(method).Observe(time.Since(start).Seconds())
	if e != nil {
		m.errors.WithLabelValues(method, strconv.FormatInt(e.Code, 10)).Inc()
	}
}
