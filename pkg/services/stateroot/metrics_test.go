package stateroot

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"
)

func TestMetrics(t *testing.T) {
	ks, svs := newKeys(t, 1)
	reg := prometheus.NewRegistry()
	l := newFakeLedger(7, svs)
	var sent []*payload.Extensible
	s, err := New(Config{Magic: testMagic, Ledger: l, Keys: ks, Registerer: reg, Clock: newFakeClock(),
		Broadcast: func(e *payload.Extensible) { sent = append(sent, e) }})
	require.NoError(t, err)
	s.onBlocks()
	require.Len(t, sent, 1)
	require.InDelta(t, 1, value(t, s.metrics.sent.WithLabelValues("root")), 0)
	require.InDelta(t, 7, value(t, s.metrics.validated), 0)

	obs, err := New(Config{Magic: testMagic, Ledger: newFakeLedger(7, svs), Registerer: prometheus.NewRegistry()})
	require.NoError(t, err)
	require.NoError(t, obs.OnPayload(sent[0]))
	sent[0].Category = "dBFT"
	require.ErrorIs(t, obs.OnPayload(sent[0]), ErrInvalidPayload)
	require.InDelta(t, 1, value(t, obs.metrics.received.WithLabelValues("accepted")), 0)
	require.InDelta(t, 1, value(t, obs.metrics.received.WithLabelValues("invalid")), 0)
	require.InDelta(t, 7, value(t, obs.metrics.validated), 0)

	// A second service on the same registry shares the collectors.
	_, err = New(Config{Ledger: l, Registerer: reg, Keys: []*keys.PrivateKey{}})
	require.NoError(t, err)
}

// value reads a counter or gauge.
func value(t *testing.T, c prometheus.Metric) float64 {
	var m dto.Metric
	require.NoError(t, c.Write(&m))
	if m.Counter != nil {
		return m.GetCounter().GetValue()
	}
	return m.GetGauge().GetValue()
}
