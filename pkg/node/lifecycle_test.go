package node

import (
	"context"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/storage"
)

// TestNodeStopsEveryGoroutine: a node with every service on (consensus
// making blocks, RPC, monitoring) stops them all: after Stop the goroutine
// count is back to what it was before New, Stop can be called again, and
// a stopped node does not start again.
func TestNodeStopsEveryGoroutine(t *testing.T) {
	cfg := singleConfig(t, true, 100*time.Millisecond)
	cfg.ApplicationConfiguration.Prometheus = config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0"}}
	reg := prometheus.NewRegistry()
	r := startNode(t, cfg, WithMetrics(reg, reg), WithStore(storage.NewMemoryStore()))
	require.NotNil(t, r.n.Consensus())
	require.NotNil(t, r.n.Pool())
	require.Len(t, r.n.P2PAddrs(), 1)
	require.Len(t, r.n.RPCAddrs(), 1)
	require.Len(t, r.n.MonitoringAddrs(), 1)
	require.Eventually(t, func() bool { return r.n.Chain().BlockHeight() >= 2 }, 20*time.Second, 10*time.Millisecond)
	require.ErrorIs(t, r.n.Start(context.Background()), ErrStarted)

	r.stop() // Stop returns nil and the goroutines are back to the base
	require.NoError(t, r.n.Stop(), "a second Stop")
	require.ErrorIs(t, r.n.Start(context.Background()), ErrStopped)
	mfs, err := reg.Gather()
	require.NoError(t, err)
	require.NotEmpty(t, mfs, "the services registered their metrics in the injected registry")
}

// TestNodeStartFailureStopsWhatStarted: a listen address in use fails
// Start with the services before it stopped again; Stop closes the
// chain and no goroutine is left.
func TestNodeStartFailureStopsWhatStarted(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	cfg := singleConfig(t, false, time.Second)
	cfg.ApplicationConfiguration.RPC.Addresses = []string{l.Addr().String()}
	r := &runningNode{t: t}
	r.base = runtime.NumGoroutine()
	n, err := New(cfg)
	require.NoError(t, err)
	r.n = n
	require.Error(t, n.Start(context.Background()))
	require.NoError(t, n.Stop())
	r.checkGoroutines()
}
