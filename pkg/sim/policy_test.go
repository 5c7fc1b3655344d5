package sim

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPoliciesShapeAdverts: on a full mesh, re-broadcast announces each
// transaction from every node to every peer (about N·(N-1) adverts),
// first-hand-only from its first node alone (about N-1), and both keep
// every transaction; the report's gossip figures are filled.
func TestPoliciesShapeAdverts(t *testing.T) {
	if testing.Short() {
		t.Skip("eight nodes, twice")
	}
	run := func(p Policy) *Report {
		cfg := Config{Nodes: 8, Validators: 4, Degree: 0, TxRate: 20, Duration: 2 * time.Second,
			BlockTime: 500 * time.Millisecond, Settle: 30 * time.Second, Seed: 3, Policy: p}
		rep, err := Run(context.Background(), cfg)
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, rep.WriteText(&buf))
		t.Log("\n" + buf.String())
		require.Empty(t, rep.Violations)
		require.Equal(t, rep.Accepted, rep.Included)
		return rep
	}
	re, fh := run(PolicyRebroadcast), run(PolicyFirstHand)
	require.Equal(t, "rebroadcast", re.Policy)
	// 8 nodes × 7 peers = 56 per tx with re-broadcast (fewer when a
	// block removes a tx before every node announced it); 7 plus
	// re-announcements with first-hand only.
	require.Greater(t, re.TxAdvertsPerTx, 30.0)
	require.Less(t, fh.TxAdvertsPerTx, 15.0)
	for _, r := range []*Report{re, fh} {
		require.Positive(t, r.PerTxPerNode["inv"].Messages)
		require.Positive(t, r.PerTxPerNode["tx"].Bytes)
		require.Positive(t, r.SentByKind["block"].Messages)
		require.Positive(t, r.BlockPropagationMs[3])
		require.Positive(t, r.PropagationTwoThirdsMs[0])
		require.Positive(t, r.HeapPerNodeMB[1])
	}
}

func TestParsePolicy(t *testing.T) {
	p, err := ParsePolicy("")
	require.NoError(t, err)
	require.Equal(t, PolicyFanOut, p)
	for _, q := range Policies {
		p, err = ParsePolicy(string(q))
		require.NoError(t, err)
		require.Equal(t, q, p)
	}
	_, err = ParsePolicy("flood")
	require.Error(t, err)
	c := Config{Policy: PolicyFanOut, NoCancel: true, NoBatch: true}
	require.Equal(t, "fanout+nocancel+nobatch", c.policyName())
}
