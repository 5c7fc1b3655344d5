package node

import (
	"bytes"
	"context"
	"net/netip"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"go.uber.org/zap/zaptest"

	"github.com/n3d-io/n3d/pkg/buildinfo"
	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/network/memnet"
	"github.com/stretchr/testify/require"
)

func TestNetworkConfigFromYAML(t *testing.T) {
	data, ok := config.Embedded(config.NetPrivNet)
	require.True(t, ok)
	cfg, err := config.Parse(data, "")
	require.NoError(t, err)
	cfg.ApplicationConfiguration.P2P.Addresses = []string{"127.0.0.1:20333:30333", "[::1]:"}
	nc, err := networkConfig(cfg)
	require.NoError(t, err)

	p, a := cfg.ProtocolConfiguration, cfg.ApplicationConfiguration.P2P
	require.Equal(t, uint32(p.Magic), nc.Magic)
	require.Equal(t, p.SeedList, nc.Seeds)
	require.NotEmpty(t, nc.Seeds)
	require.Equal(t, p.TimePerBlock, nc.TimePerBlock)
	require.Equal(t, []network.ListenAddress{{Address: "127.0.0.1:20333", AnnouncedPort: 30333}, {Address: "[::1]:0"}}, nc.Listen)
	require.Equal(t, a.MinPeers, nc.MinPeers)
	require.Equal(t, a.MaxPeers, nc.MaxPeers)
	require.Equal(t, a.AttemptConnPeers, nc.AttemptConnPeers)
	require.Equal(t, a.PingInterval, nc.PingInterval)
	require.Equal(t, a.PingTimeout, nc.PingTimeout)
	require.Equal(t, a.ProtoTickInterval, nc.ProtoTickInterval)
	require.Equal(t, a.DialTimeout, nc.DialTimeout)
	require.Equal(t, a.ExtensiblePoolSize, nc.ExtensibleCache)
	require.Equal(t, buildinfo.UserAgent(), nc.UserAgent)

	cfg.ApplicationConfiguration.P2P.Addresses = []string{"no-port"}
	_, err = networkConfig(cfg)
	require.ErrorIs(t, err, config.ErrAddress)
}

// TestNodeSyncsOverP2P runs the node's P2P wiring (block queue, server,
// block relay) for two chains of the reference network on an in-memory
// network and a fake clock that never moves: the empty one syncs from the
// restored one to the same tip and state root, driven by events alone
// (the dial at start, the handshake, the blocks received).
func TestNodeSyncsOverP2P(t *testing.T) {
	dir := conformance.Dir(t, "chains", "chain50x2")
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	mem := memnet.New(memnet.Config{Clock: fake})
	t.Cleanup(mem.Close)
	addr := func(i int) string { return netip.AddrPortFrom(memHost(i), 20333).String() }
	load := func(i int, seeds ...string) *Node {
		cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
		require.NoError(t, err)
		cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBInMemory}
		cfg.ApplicationConfiguration.P2P.Addresses = []string{addr(i)}
		cfg.ApplicationConfiguration.P2P.MinPeers = len(seeds)
		cfg.ApplicationConfiguration.P2P.ProtoTickInterval = 50 * time.Millisecond
		cfg.ProtocolConfiguration.SeedList = seeds
		n, err := New(cfg, WithLogger(zaptest.NewLogger(t)), WithTransport(mem.Host(memHost(i))), WithClock(fake))
		require.NoError(t, err)
		t.Cleanup(func() { require.NoError(t, n.Stop()) })
		return n
	}
	a, b := load(0), load(1, addr(0))
	ca, cb := a.Chain(), b.Chain()
	acc, err := os.ReadFile(filepath.Join(dir, "chain50x2.acc"))
	require.NoError(t, err)
	_, err = chain.Restore(context.Background(), ca, bytes.NewReader(acc), chain.RestoreOptions{})
	require.NoError(t, err)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	withMempool(ctx, t, a)
	withMempool(ctx, t, b)
	stopA, err := a.startNetwork(ctx)
	require.NoError(t, err)
	stopB, err := b.startNetwork(ctx)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return cb.BlockHeight() == ca.BlockHeight() }, 15*time.Second, 10*time.Millisecond)
	require.Equal(t, ca.CurrentBlockHash(), cb.CurrentBlockHash())
	require.Equal(t, ca.CurrentStateRoot(), cb.CurrentStateRoot())
	require.NoError(t, stopB())
	require.NoError(t, stopA())

	// A listen address in use is an error of startNetwork, not a node
	// silently without P2P.
	l, err := mem.Host(memHost(2)).Listen(ctx, addr(2))
	require.NoError(t, err)
	defer l.Close()
	c := load(2)
	withMempool(ctx, t, c)
	_, err = c.startNetwork(ctx)
	require.Error(t, err)
}

// withMempool starts the mempool stage of n (stopped at the end of the
// test).
func withMempool(ctx context.Context, t *testing.T, n *Node) {
	t.Helper()
	stop, err := n.startMempool(ctx)
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, stop()) })
}
