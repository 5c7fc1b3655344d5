package promutil

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
)

// Namespace is the prefix of every metric the node exports.
const Namespace = "n3d"

// Set builds and registers the collectors of one subsystem
// (n3d_<subsystem>_<name>). A nil Registerer only builds them. The first
// registration failure is kept for Err; the collectors asked for after it
// are built but not registered.
type Set struct {
	reg       prometheus.Registerer
	subsystem string
	err       error
}

// NewSet is a Set of the subsystem registering with reg (nil: none).
func NewSet(reg prometheus.Registerer, subsystem string) *Set {
	return &Set{reg: reg, subsystem: subsystem}
}

// Err is the first registration failure, naming the subsystem.
func (s *Set) Err() error {
	if s.err != nil {
		return fmt.Errorf("%s: metrics: %w", s.subsystem, s.err)
	}
	return nil
}

// Gauge is the subsystem's gauge name.
func (s *Set) Gauge(name, help string) prometheus.Gauge {
	return add(s, prometheus.NewGauge(prometheus.GaugeOpts{
		Namespace: Namespace, Subsystem: s.subsystem, Name: name, Help: help}))
}

// Counter is the subsystem's counter name.
func (s *Set) Counter(name, help string) prometheus.Counter {
	return add(s, prometheus.NewCounter(prometheus.CounterOpts{
		Namespace: Namespace, Subsystem: s.subsystem, Name: name, Help: help}))
}

// CounterVec is the subsystem's counter name with the labels.
func (s *Set) CounterVec(name, help string, labels ...string) *prometheus.CounterVec {
	return add(s, prometheus.NewCounterVec(prometheus.CounterOpts{
		Namespace: Namespace, Subsystem: s.subsystem, Name: name, Help: help}, labels))
}

// Histogram is the subsystem's histogram name with the buckets.
func (s *Set) Histogram(name, help string, buckets []float64) prometheus.Histogram {
	return add(s, prometheus.NewHistogram(prometheus.HistogramOpts{
		Namespace: Namespace, Subsystem: s.subsystem, Name: name, Help: help, Buckets: buckets}))
}

// HistogramVec is the subsystem's histogram name with the buckets and
// labels.
func (s *Set) HistogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	return add(s, prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Namespace: Namespace, Subsystem: s.subsystem, Name: name, Help: help, Buckets: buckets}, labels))
}

// add registers c unless there is no Registerer or a failure came before,
// returning what Register returns (an equal collector registered earlier
// by another instance is shared).
func add[C prometheus.Collector](s *Set, c C) C {
	if s.reg == nil || s.err != nil {
		return c
	}
	got, err := Register(s.reg, c)
	if err != nil {
		s.err = err
		return c
	}
	return got
}
