package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSimCommand runs a four-validator network through `n3d sim` and reads
// its JSON report.
func TestSimCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("four nodes")
	}
	out := filepath.Join(t.TempDir(), "report.json")
	text := mustSub(t, "sim", "--nodes", "4", "--validators", "4", "--tx-rate", "10", "--duration", "1s",
		"--block-time", "300ms", "--settle", "30s", "--seed", "5", "--json", out)
	require.Contains(t, text, "invariants: all held")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	var rep struct {
		Nodes, Accepted, Included, Expired int
		Violations                         []string
	}
	require.NoError(t, json.Unmarshal(data, &rep))
	require.Equal(t, 4, rep.Nodes)
	require.Equal(t, 10, rep.Accepted)
	require.Equal(t, rep.Accepted, rep.Included+rep.Expired)
	require.Empty(t, rep.Violations)
}

func TestSimCommandRejectsBadConfig(t *testing.T) {
	mustFailSub(t, "5 validators for 4 nodes", "sim", "--nodes", "4", "--validators", "5")
}
