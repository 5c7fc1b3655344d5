package promutil

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

func TestRegister(t *testing.T) {
	reg := prometheus.NewRegistry()
	opts := prometheus.GaugeOpts{Name: "n3d_test_gauge", Help: "test"}
	first := prometheus.NewGauge(opts)
	got, err := Register(reg, first)
	require.NoError(t, err)
	require.Same(t, first, got)

	// The same description again: the first collector is shared.
	got, err = Register(reg, prometheus.NewGauge(opts))
	require.NoError(t, err)
	require.Same(t, first, got)
	got.Set(3)
	mfs, err := reg.Gather()
	require.NoError(t, err)
	require.Len(t, mfs, 1)
	require.Equal(t, 3.0, mfs[0].GetMetric()[0].GetGauge().GetValue())

	// The same name with another help text is an error.
	_, err = Register(reg, prometheus.NewGauge(prometheus.GaugeOpts{Name: "n3d_test_gauge", Help: "other"}))
	require.Error(t, err)
}

func TestRegisterOtherType(t *testing.T) {
	reg := prometheus.NewRegistry()
	_, err := Register(reg, prometheus.NewGauge(prometheus.GaugeOpts{Name: "n3d_test_x", Help: "x"}))
	require.NoError(t, err)
	// An already registered collector of another type is not returned.
	_, err = Register(reg, prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "n3d_test_x", Help: "x"}, nil))
	var are prometheus.AlreadyRegisteredError
	require.ErrorAs(t, err, &are)
}
