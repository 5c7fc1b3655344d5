package sim

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func ciConfig() Config {
	return Config{Nodes: 12, Validators: 4, Degree: 3, TxRate: 40, Duration: 5 * time.Second,
		BlockTime: 500 * time.Millisecond, Settle: 40 * time.Second, Seed: 7}
}

// TestSmallNetworkKeepsEveryTransaction: 4 validators and 8 relays on a
// random graph of degree 3 include every accepted transaction once and
// agree on one chain.
func TestSmallNetworkKeepsEveryTransaction(t *testing.T) {
	if testing.Short() {
		t.Skip("twelve nodes")
	}
	rep, err := Run(context.Background(), ciConfig())
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteText(&buf))
	t.Log("\n" + buf.String())
	require.Empty(t, rep.Violations)
	require.Equal(t, 200, rep.Submitted)
	require.Equal(t, rep.Accepted, rep.Included+rep.Expired)
	require.Positive(t, rep.Included)
}

// TestPlantedLossIsCaught: with the planted bug (every 50th transaction
// acknowledged and dropped), the run reports those transactions lost.
func TestPlantedLossIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("twelve nodes")
	}
	cfg := ciConfig()
	cfg.Duration = 2 * time.Second
	cfg.Settle = 10 * time.Second
	cfg.loseEvery = 20
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	lost := 0
	for _, v := range rep.Violations {
		if strings.Contains(v, "neither included nor expired") {
			lost++
		}
	}
	require.Equal(t, 4, lost, "violations: %v", rep.Violations)
}

func TestTopologyConnectedAndSeeded(t *testing.T) {
	// A ring plus random edges: connected, degree reached, reproducible.
	a := topology(50, 4, newRand(3))
	b := topology(50, 4, newRand(3))
	require.Equal(t, a, b)
	seen := map[int]bool{0: true}
	queue := []int{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		require.GreaterOrEqual(t, len(a[i]), 4)
		for _, j := range a[i] {
			if !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	require.Len(t, seen, 50)
	full := topology(5, 0, newRand(1))
	for i := range full {
		require.Len(t, full[i], 4)
	}
}
