package network

import (
	"net"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// pipePeers registers n handshaked peers whose writers never run, so
// their queues fill up; the other ends of their connections are closed
// with the test.
func pipePeers(t *testing.T, s *Server, n int) []*peer {
	ps := make([]*peer, n)
	for i := range ps {
		c1, c2 := net.Pipe()
		t.Cleanup(func() { c1.Close(); c2.Close() })
		p := newPeer(s, c1, "")
		s.mu.Lock()
		s.mu.peers[p] = struct{}{}
		s.mu.Unlock()
		require.NoError(t, s.promote(p))
		ps[i] = p
	}
	return ps
}

func fill(t *testing.T, p *peer, q queueKind, m *message.Message) {
	for len(p.queues[q]) < cap(p.queues[q]) {
		require.NoError(t, p.tryEnqueue(q, m))
	}
}

func newTestServer(t testing.TB, mod func(*Config)) *Server {
	n := &node{chain: openChain(t, refChain(t), false)}
	t.Cleanup(func() { n.chain.Close() })
	cfg := testConfig(t, refChain(t), "")
	cfg.Ledger, cfg.Blocks = n.chain, sinkFunc(func() {})
	if mod != nil {
		mod(&cfg)
	}
	s, err := New(cfg)
	require.NoError(t, err)
	return s
}

func TestBroadcastTwoThirds(t *testing.T) {
	s := newTestServer(t, func(c *Config) { c.TimePerBlock, c.MaxPeers = 2*time.Second, 100 })
	m, err := message.New(message.CmdGetAddr, nil)
	require.NoError(t, err)

	t.Run("free queues take it at once", func(t *testing.T) {
		ps := pipePeers(t, s, 3)
		require.Equal(t, 3, s.broadcast(m, qBroadcast, true, func(p *peer) bool { return contains(ps, p) }))
	})
	t.Run("two thirds accepted: the full one is cancelled, not dropped", func(t *testing.T) {
		ps := pipePeers(t, s, 3)
		fill(t, ps[2], qBroadcast, m)
		start := time.Now()
		require.Equal(t, 2, s.broadcast(m, qBroadcast, true, func(p *peer) bool { return contains(ps, p) }))
		require.Less(t, time.Since(start), 100*time.Millisecond)
		require.False(t, ps[2].gone())
	})
	t.Run("below two thirds: waits for room, cancels the rest", func(t *testing.T) {
		ps := pipePeers(t, s, 3)
		fill(t, ps[1], qBroadcast, m)
		fill(t, ps[2], qBroadcast, m)
		start := time.Now() // before the drainer starts its 100 ms sleep
		go func() {
			time.Sleep(100 * time.Millisecond)
			<-ps[1].queues[qBroadcast] // the writer drains one
		}()
		require.Equal(t, 2, s.broadcast(m, qBroadcast, true, func(p *peer) bool { return contains(ps, p) }))
		el := time.Since(start)
		require.GreaterOrEqual(t, el, 100*time.Millisecond)
		require.Less(t, el, s.cfg.broadcastTimeout())
		require.False(t, ps[2].gone())
	})
	t.Run("global timeout rules out peers still full", func(t *testing.T) {
		ps := pipePeers(t, s, 3)
		fill(t, ps[1], qBroadcast, m)
		fill(t, ps[2], qBroadcast, m)
		start := time.Now()
		require.Equal(t, 1, s.broadcast(m, qBroadcast, true, func(p *peer) bool { return contains(ps, p) }))
		require.GreaterOrEqual(t, time.Since(start), s.cfg.broadcastTimeout())
		require.True(t, ps[1].gone())
		require.True(t, ps[2].gone())
		require.ErrorIs(t, ps[1].err, errBusy)
	})
	t.Run("send errors", func(t *testing.T) {
		ps := pipePeers(t, s, 2)
		ps[0].handshaked.Store(false)
		require.ErrorIs(t, ps[0].tryEnqueue(qDirect, m), errStateMismatch)
		fill(t, ps[1], qDirect, m)
		require.ErrorIs(t, ps[1].tryEnqueue(qDirect, m), errBusy)
		ps[1].disconnect(ErrShutdown)
		require.ErrorIs(t, ps[1].tryEnqueue(qDirect, m), errGone)
	})
}

func TestFanOut(t *testing.T) {
	s := newTestServer(t, nil)
	require.Equal(t, 1, fanOut(2))
	// Grows with the logarithm of the network size.
	require.Less(t, fanOut(100), fanOut(10000))
	require.Less(t, fanOut(10000), 30)
	// With a tiny known network the fan-out is small; BroadcastFactor 100
	// reaches every peer.
	require.Equal(t, 1, s.fanOutFor(40))
	s.cfg.BroadcastFactor = 100
	require.Equal(t, 40, s.fanOutFor(40))
	s.cfg.BroadcastFactor = 50
	require.Equal(t, (1*50+40*50)/100, s.fanOutFor(40))
}

func contains(ps []*peer, p *peer) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// sinkFunc is a BlockSink that drops blocks.
type sinkFunc func()

func (sinkFunc) Put(_ *block.Block) error { return nil }

// TestBroadcastSkippedCounted: a peer a broadcast passes over because
// its queue is full is counted, not dropped silently.
func TestBroadcastSkippedCounted(t *testing.T) {
	reg := prometheus.NewRegistry()
	s := newTestServer(t, func(c *Config) { c.Registerer = reg })
	m, err := message.New(message.CmdGetAddr, nil)
	require.NoError(t, err)
	ps := pipePeers(t, s, 3)
	fill(t, ps[2], qBroadcast, m)
	require.Equal(t, 2, s.broadcast(m, qBroadcast, true, nil))
	require.Equal(t, 1.0, metricValue(t, reg, "n3d_p2p_broadcast_skipped_total"))
}
