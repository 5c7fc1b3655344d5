package promutil

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

func TestSetRegistersAndShares(t *testing.T) {
	reg := prometheus.NewRegistry()
	a := NewSet(reg, "test")
	g := a.Gauge("level", "A level.")
	c := a.CounterVec("events_total", "Events by kind.", "kind")
	a.Histogram("wait_seconds", "Waits.", []float64{1, 2})
	a.HistogramVec("call_seconds", "Calls.", []float64{1}, "method")
	a.Counter("plain_total", "Plain.")
	require.NoError(t, a.Err())

	// A second instance shares the first one's collectors.
	b := NewSet(reg, "test")
	require.Same(t, g, b.Gauge("level", "A level."))
	require.Same(t, c, b.CounterVec("events_total", "Events by kind.", "kind"))
	require.NoError(t, b.Err())

	g.Set(2)
	mfs, err := reg.Gather()
	require.NoError(t, err)
	names := map[string]bool{}
	for _, mf := range mfs {
		names[mf.GetName()] = true
	}
	require.True(t, names["n3d_test_level"], "gathered: %v", names)
}

func TestSetKeepsFirstFailure(t *testing.T) {
	reg := prometheus.NewRegistry()
	NewSet(reg, "test").Gauge("x", "one help")
	s := NewSet(reg, "test")
	s.Gauge("x", "another help") // same name, other description: refused
	s.Counter("y_total", "after the failure: built, not registered")
	require.ErrorContains(t, s.Err(), "test: metrics")
	mfs, err := reg.Gather()
	require.NoError(t, err)
	require.Len(t, mfs, 1, "only the first x; y_total not registered")
	require.Equal(t, "n3d_test_x", mfs[0].GetName())

	// No registerer: collectors are only built.
	n := NewSet(nil, "test")
	n.Gauge("x", "any").Set(1)
	require.NoError(t, n.Err())
}
