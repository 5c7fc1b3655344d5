package stateroot

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/prometheus/client_golang/prometheus"
)

// metrics are the service's counters: StateService payloads received by
// outcome, messages sent by type, and the index of the last root stored
// with the validators' witness.
type metrics struct {
	received  *prometheus.CounterVec
	sent      *prometheus.CounterVec
	validated prometheus.Gauge
}

func newMetrics(reg prometheus.Registerer) (*metrics, error) {
	m := &metrics{
		received: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "stateroot", Name: "payloads_received_total",
			Help: "StateService payloads received, by outcome (accepted, invalid, not_valid_now, error).",
		}, []string{"outcome"}),
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: "n3d", Subsystem: "stateroot", Name: "messages_sent_total",
			Help: "StateService messages this node signed and broadcast, by type (vote, root).",
		}, []string{"type"}),
		validated: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: "n3d", Subsystem: "stateroot", Name: "validated_height",
			Help: "Index of the last state root stored with the state validators' witness.",
		}),
	}
	if reg == nil {
		return m, nil
	}
	var err error
	if m.received, err = promutil.Register(reg, m.received); err == nil {
		if m.sent, err = promutil.Register(reg, m.sent); err == nil {
			m.validated, err = promutil.Register(reg, m.validated)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("stateroot: metrics: %w", err)
	}
	return m, nil
}

// outcome is the received-payload label of OnPayload's result.
func outcome(err error) string {
	switch {
	case err == nil:
		return "accepted"
	case errors.Is(err, ErrInvalidPayload), errors.Is(err, ErrInvalidMessage):
		return "invalid"
	case errors.Is(err, ErrNotValidNow):
		return "not_valid_now"
	}
	return "error"
}
