package sim

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// faultScenario is the CI-sized fault run: 16 nodes (4 validators) on a
// small-world graph with every fault kind during an 8 s load.
func faultScenario(t *testing.T) Config {
	var fs []Fault
	for _, s := range []string{
		"crash:node=5,at=1s,for=2500ms",
		"validator-down:node=2,at=2s,for=3s",
		"partition:nodes=8-10,at=1s,for=3s",
		"slow:node=11,at=1s,for=3s",
		"loss:loss=0.4,at=5s,for=2s",
		"join:count=2,at=3s",
	} {
		f, err := ParseFault(s)
		require.NoError(t, err)
		fs = append(fs, f)
	}
	return Config{Nodes: 16, Validators: 4, Degree: 4, Topology: TopologySmallWorld, TxRate: 30,
		Duration: 8 * time.Second, BlockTime: 500 * time.Millisecond, Settle: 40 * time.Second,
		Seed: 11, Faults: fs}
}

// TestFaultsKeepEveryTransaction: through a crash and restart of a relay,
// a validator down for 3 s, a partition of three relays, a relay that
// stops reading, a loss burst and two nodes joining late from genesis,
// every accepted transaction is included once, every node ends on the
// same chain and state, and no goroutine is left.
func TestFaultsKeepEveryTransaction(t *testing.T) {
	if testing.Short() {
		t.Skip("sixteen nodes")
	}
	rep, err := Run(context.Background(), faultScenario(t))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteText(&buf))
	t.Log("\n" + buf.String())
	require.Empty(t, rep.Violations)
	require.Equal(t, rep.Accepted, rep.Included+rep.Expired)
	require.Positive(t, rep.Included)
	// Every fault began and ended (the join has one event per node).
	require.Len(t, rep.FaultEvents, 2*5+2, "%v", rep.FaultEvents)
}

// TestPlantedDisagreementIsCaught: a node that computes another state
// (more genesis GAS) but accepts the same blocks is reported.
func TestPlantedDisagreementIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("six nodes")
	}
	cfg := Config{Nodes: 6, Validators: 4, Degree: 0, TxRate: 10, Duration: time.Second,
		BlockTime: 500 * time.Millisecond, Settle: 20 * time.Second, Seed: 3, plantRootDiff: 5}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	var roots, others int
	for _, v := range rep.Violations {
		if strings.HasPrefix(v, "node 4 ") && strings.Contains(v, "state root differs") {
			roots++
		} else {
			others++
		}
	}
	require.Positive(t, roots, "violations: %v", rep.Violations)
	require.Equal(t, int(rep.Blocks)+1, roots, "every height from genesis differs on node 4 only: %v", rep.Violations)
	require.Zero(t, others, "%v", rep.Violations)
	require.Equal(t, rep.Accepted, rep.Included+rep.Expired, "the transactions are all there")
}
