package network

import (
	"net"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
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

// TestBroadcastTwoThirds runs the broadcast on a fake clock: waiting
// for full peers is bounded by the broadcast timeout of that clock, so
// the test decides when it passes.
func TestBroadcastTwoThirds(t *testing.T) {
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := newTestServer(t, func(c *Config) { c.TimePerBlock, c.MaxPeers, c.Clock = 2*time.Second, 100, fake })
	m, err := message.New(message.CmdGetAddr, nil)
	require.NoError(t, err)
	// bcast runs the broadcast to ps in a goroutine; the result arrives
	// on the channel.
	bcast := func(ps []*peer) <-chan int {
		res := make(chan int, 1)
		go func() { res <- s.broadcast(m, qBroadcast, true, func(p *peer) bool { return contains(ps, p) }) }()
		return res
	}
	result := func(res <-chan int) int {
		t.Helper()
		select {
		case n := <-res:
			return n
		case <-time.After(waitFor):
			t.Fatal("broadcast did not return")
			return 0
		}
	}

	t.Run("free queues take it at once", func(t *testing.T) {
		ps := pipePeers(t, s, 3)
		require.Equal(t, 3, result(bcast(ps)))
	})
	t.Run("two thirds accepted: the full one is cancelled, not dropped", func(t *testing.T) {
		ps := pipePeers(t, s, 3)
		fill(t, ps[2], qBroadcast, m)
		require.Equal(t, 2, result(bcast(ps)), "returns without the clock moving")
		require.False(t, ps[2].gone())
	})
	t.Run("below two thirds: waits for room, cancels the rest", func(t *testing.T) {
		ps := pipePeers(t, s, 3)
		fill(t, ps[1], qBroadcast, m)
		fill(t, ps[2], qBroadcast, m)
		res := bcast(ps)
		require.True(t, fake.WaitPending(1, nil)) // the broadcast timeout is armed
		select {
		case n := <-res:
			t.Fatalf("broadcast returned %d before any full peer had room", n)
		default:
		}
		<-ps[1].queues[qBroadcast] // the writer drains one
		require.Equal(t, 2, result(res), "returns before the timeout")
		require.False(t, ps[2].gone())
		require.Zero(t, fake.Pending(), "the timeout timer is stopped")
	})
	t.Run("global timeout rules out peers still full", func(t *testing.T) {
		ps := pipePeers(t, s, 3)
		fill(t, ps[1], qBroadcast, m)
		fill(t, ps[2], qBroadcast, m)
		res := bcast(ps)
		require.True(t, fake.WaitPending(1, nil))
		fake.Advance(s.cfg.broadcastTimeout() - time.Millisecond)
		select {
		case n := <-res:
			t.Fatalf("broadcast returned %d before its timeout", n)
		default:
		}
		fake.Advance(time.Millisecond)
		require.Equal(t, 1, result(res))
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
