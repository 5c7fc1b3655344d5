package network

import (
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
)

// TestTrafficCounters: what one server sends the other receives, message
// for message and byte for byte, by command; announced hashes are counted
// by inventory type; InvBatchSize splits the announcement; the
// Prometheus counters by command agree with Server.Traffic.
func TestTrafficCounters(t *testing.T) {
	mem := newMemNet(t, false)
	reg := prometheus.NewRegistry()
	a := newNode(t, nodeOpts{mem: mem, host: 1, cfg: func(c *Config) { c.InvBatchSize, c.Registerer = 10, reg }})
	b := newNode(t, nodeOpts{mem: mem, host: 2, seeds: []string{a.addr()}})
	require.Eventually(t, func() bool { return a.handshaked() == 1 && b.handshaked() == 1 }, waitFor, 10*time.Millisecond)
	hashes := make([]util.Uint256, 25)
	for i := range hashes {
		hashes[i] = util.Uint256{byte(i), 0xc0}
	}
	a.srv.AnnounceTxs(hashes) // b asks for all of them, a answers notfound
	require.Eventually(t, func() bool {
		return b.srv.Traffic().InvReceived["TX"] == 25 && a.srv.Traffic().Received["GetData"].Messages >= 3
	}, waitFor, 10*time.Millisecond)
	ta, tb := a.srv.Traffic(), b.srv.Traffic()
	require.Equal(t, uint64(25), ta.InvSent["TX"])
	require.Equal(t, uint64(3), ta.Sent["Inv"].Messages, "25 hashes in invs of at most 10")
	for _, cmd := range []string{"Version", "Verack", "Inv"} {
		require.Equal(t, ta.Sent[cmd], tb.Received[cmd], cmd)
		require.NotZero(t, ta.Sent[cmd].Bytes, cmd)
	}
	require.Equal(t, tb.Sent["Version"], ta.Received["Version"])
	got := metricByCommand(t, reg, "n3d_p2p_messages_sent_total", "Inv")
	require.Equal(t, float64(ta.Sent["Inv"].Messages), got)
	got = metricByCommand(t, reg, "n3d_p2p_message_bytes_received_total", "GetData")
	require.Equal(t, float64(a.srv.Traffic().Received["GetData"].Bytes), got)
}

func metricByCommand(t *testing.T, reg *prometheus.Registry, name, cmd string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if l.GetName() == "command" && l.GetValue() == cmd {
					return m.GetCounter().GetValue()
				}
			}
		}
	}
	t.Fatalf("no %s{command=%q}", name, cmd)
	return 0
}

// TestBroadcastNoCancel: with BroadcastNoCancel a broadcast does not stop
// at 2/3 of the chosen peers: it waits for the full one too.
func TestBroadcastNoCancel(t *testing.T) {
	fake := clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	s := newTestServer(t, func(c *Config) { c.BroadcastNoCancel, c.MaxPeers, c.Clock = true, 100, fake })
	m, err := message.New(message.CmdGetAddr, nil)
	require.NoError(t, err)
	ps := pipePeers(t, s, 3)
	fill(t, ps[2], qBroadcast, m)
	res, done := make(chan int, 1), make(chan struct{})
	go func() {
		defer close(done)
		res <- s.broadcast(m, qBroadcast, true, func(p *peer) bool { return contains(ps, p) })
	}()
	require.True(t, fake.WaitPending(1, done), "returned without waiting for the full peer")
	<-ps[2].queues[qBroadcast] // room: the waiting broadcast takes it
	select {
	case n := <-res:
		require.Equal(t, 3, n)
	case <-time.After(waitFor):
		t.Fatal("broadcast did not return")
	}
}
