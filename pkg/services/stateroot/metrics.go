package stateroot

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
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
	s := promutil.NewSet(reg, "stateroot")
	m := &metrics{
		received: s.CounterVec("payloads_received_total",
			"StateService payloads received, by outcome (accepted, invalid, not_valid_now, error).", "outcome"),
		sent: s.CounterVec("messages_sent_total",
			"StateService messages this node signed and broadcast, by type (vote, root).", "type"),
		validated: s.Gauge("validated_height",
			"Index of the last state root stored with the state validators' witness."),
	}
	return m, s.Err()
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
