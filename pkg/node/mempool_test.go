package node

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPerSourceQueueFollowsThePool: one peer may queue a quarter of the
// pool for verification (a 4+1 network's validators hear every
// transaction from the one RPC node), never less than txpipe's default.
func TestPerSourceQueueFollowsThePool(t *testing.T) {
	require.Equal(t, 12500, perSourceQueue(50000))
	require.Equal(t, 1024, perSourceQueue(1000))
	cfg := singleConfig(t, false, time.Second)
	n, err := New(cfg)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, n.Stop()) })
	require.Equal(t, perSourceQueue(cfg.ProtocolConfiguration.MemPoolSize), n.pipelineConfig(nil).PerSource)
}
