package node

import (
	"fmt"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
)

// TestPeerTxVerdicts: each pipeline verdict on a peer's transaction lands
// in its label (wrapped errors too); the node's own (RPC) are not counted.
func TestPeerTxVerdicts(t *testing.T) {
	reg := prometheus.NewRegistry()
	onResult, err := peerTxVerdicts(reg)
	require.NoError(t, err)
	for _, err := range []error{nil, nil, txpipe.ErrPoolFull, fmt.Errorf("x: %w", mempool.ErrStale),
		mempool.ErrInsufficientFunds, mempool.ErrDup, fmt.Errorf("bad witness")} {
		onResult(7, nil, err)
	}
	onResult(txpipe.SourceLocal, nil, nil)
	want := map[string]float64{"pooled": 2, "pool_full": 1, "stale": 1, "insufficient_funds": 1, "duplicate": 1, "invalid": 1}
	mfs, err := reg.Gather()
	require.NoError(t, err)
	require.Len(t, mfs, 1)
	got := map[string]float64{}
	for _, m := range mfs[0].GetMetric() {
		got[m.GetLabel()[0].GetValue()] = m.GetCounter().GetValue()
	}
	require.Equal(t, want, got)
}
