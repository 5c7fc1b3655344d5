package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSimCommandFaults runs `n3d sim` on a small-world graph with a crash,
// a slow reader and a late joiner and reads the faults back from the JSON
// report.
func TestSimCommandFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("seven nodes")
	}
	out := filepath.Join(t.TempDir(), "report.json")
	text := mustSub(t, "sim", "--nodes", "7", "--validators", "4", "--degree", "4", "--topology", "smallworld",
		"--tx-rate", "10", "--duration", "2s", "--block-time", "300ms", "--settle", "30s", "--seed", "5",
		"--bandwidth", "1000000", "--fault", "crash:node=4,at=200ms,for=1s", "--fault", "slow:node=5,at=0s,for=1s",
		"--fault", "join:at=1s", "--json", out)
	require.Contains(t, text, "invariants: all held")
	require.Contains(t, text, "topology smallworld\n")
	require.Contains(t, text, "crash:nodes=4,at=200ms,for=1s ends")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var rep struct {
		Nodes       int
		Topology    string
		Faults      []string
		FaultEvents []string
		Violations  []string
	}
	require.NoError(t, json.Unmarshal(data, &rep))
	require.Equal(t, 7, rep.Nodes)
	require.Equal(t, "smallworld", rep.Topology)
	require.Equal(t, []string{"crash:nodes=4,at=200ms,for=1s", "slow:nodes=5,at=0s,for=1s", "join:at=1s,count=1"}, rep.Faults)
	require.Len(t, rep.FaultEvents, 8, "begin, end and catch-up of crash and slow; start and catch-up of the join: %v", rep.FaultEvents)
	require.Empty(t, rep.Violations)
}

func TestSimCommandRejectsBadFaults(t *testing.T) {
	mustFailSub(t, "unknown kind", "sim", "--fault", "meltdown:at=1s")
	mustFailSub(t, "node 12 of 12", "sim", "--fault", "crash:node=12,at=1s,for=1s")
	mustFailSub(t, "not a validator", "sim", "--fault", "validator-down:node=5,at=1s,for=1s")
	mustFailSub(t, "for= missing", "sim", "--fault", "partition:nodes=1-3,at=1s")
	mustFailSub(t, "topology", "sim", "--topology", "torus")
}
