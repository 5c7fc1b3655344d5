package node

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// When the chain stops for good (its OnFatal, wired to chainFatal), Run
// stops the node and returns the failure instead of waiting for its
// context, so that n3d exits non-zero; a second report does not block
// the chain.
func TestRunStopsOnChainFatal(t *testing.T) {
	n, err := New(singleConfig(t, false, time.Second), WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.NoError(t, err)
	broken := errors.New("write cache holds a half-added block")
	n.chainFatal(broken)
	n.chainFatal(errors.New("second report"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel() // Run must not need it
	err = n.Run(ctx)
	require.ErrorIs(t, err, broken)
	require.NoError(t, n.Stop(), "Run stopped the node (cleanly)")
}
