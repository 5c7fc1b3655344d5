package network

import (
	"errors"
	"net/netip"
	"strconv"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/network/capability"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

const (
	msgAlone   = "no peer connected: this node is not in touch with the network"
	msgBack    = "peers connected again"
	msgDials   = "dials failed"
	testPeriod = time.Minute
)

// TestWatchAlone drives the watcher with explicit times: a WARN once the
// node has had no peer for NoPeersWarn, repeated only every
// noPeersRepeat periods, an INFO when a peer is back; nothing while the
// node knows no address to dial.
func TestWatchAlone(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	s := newTestServer(t, func(c *Config) {
		c.Log = zap.New(core)
		c.NoPeersWarn = testPeriod
		c.DialLogInterval = time.Hour
	})
	t0 := time.Unix(1_000_000, 0)
	warns := func() int { return logs.FilterMessage(msgAlone).Len() }

	s.watch(t0)
	s.watch(t0.Add(2 * testPeriod))
	require.Zero(t, warns(), "no address known: a standalone node, nothing to say")

	s.book.add("192.0.2.1:20333")
	s.watch(t0.Add(2*testPeriod + time.Second))
	require.Equal(t, 1, warns())
	require.Equal(t, zap.WarnLevel, logs.FilterMessage(msgAlone).All()[0].Level)
	s.watch(t0.Add(5 * testPeriod))
	require.Equal(t, 1, warns(), "not repeated at once")
	s.watch(t0.Add(12*testPeriod + time.Second))
	require.Equal(t, 2, warns(), "repeated after %d periods", noPeersRepeat)

	pipePeers(t, s, 1)
	s.watch(t0.Add(13 * testPeriod))
	require.Equal(t, 1, logs.FilterMessage(msgBack).Len())
	s.watch(t0.Add(14 * testPeriod))
	require.Equal(t, 1, logs.FilterMessage(msgBack).Len())
	require.Equal(t, 2, warns())
}

// TestWatchDials: failed dials are summarised in one INFO line per
// DialLogInterval, with their count and addresses; none when none
// failed.
func TestWatchDials(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	s := newTestServer(t, func(c *Config) {
		c.Log = zap.New(core)
		c.NoPeersWarn = time.Hour
		c.DialLogInterval = testPeriod
	})
	t0 := time.Unix(1_000_000, 0)
	s.watch(t0)
	errRefused := errors.New("connection refused")
	for i := range 50 {
		s.dials.failed("192.0.2."+strconv.Itoa(i%3)+":20333", errRefused)
	}
	s.watch(t0.Add(testPeriod / 2))
	require.Zero(t, logs.FilterMessage(msgDials).Len())
	s.watch(t0.Add(testPeriod))
	lines := logs.FilterMessage(msgDials).All()
	require.Len(t, lines, 1)
	require.Equal(t, zap.InfoLevel, lines[0].Level)
	f := lines[0].ContextMap()
	require.EqualValues(t, 50, f["failures"])
	require.EqualValues(t, 3, f["addresses"])
	require.Len(t, f["sample"], 3)
	s.watch(t0.Add(2 * testPeriod))
	require.Len(t, logs.FilterMessage(msgDials).All(), 1, "nothing failed since")
}

// TestAloneWarningLive: a node whose only seed is unreachable warns at
// the default level, summarises its failed dials at INFO, and says so
// when a peer connects.
func TestAloneWarningLive(t *testing.T) {
	core, logs := observer.New(zap.InfoLevel)
	a := newNode(t, nodeOpts{seeds: []string{freeAddr(t)}, cfg: func(c *Config) {
		c.Log = zap.New(core)
		c.NoPeersWarn = 100 * time.Millisecond
		c.DialLogInterval = 100 * time.Millisecond
	}})
	require.Eventually(t, func() bool {
		return logs.FilterMessage(msgAlone).Len() > 0 && logs.FilterMessage(msgDials).Len() > 0
	}, waitFor, 10*time.Millisecond)
	require.Zero(t, logs.FilterMessage(msgBack).Len())
	newNode(t, nodeOpts{seeds: []string{a.addr()}})
	require.Eventually(t, func() bool { return logs.FilterMessage(msgBack).Len() == 1 }, waitFor, 10*time.Millisecond)
}

// TestOwnAddressNeverListed: our own address learnt from a peer's addr
// list (as IP:port, also when we listen on every interface) is neither
// dialled nor listed among unconnected or bad peers; another address
// from the same list is.
func TestOwnAddressNeverListed(t *testing.T) {
	for _, listen := range []string{"127.0.0.1:0", "0.0.0.0:0"} {
		t.Run(listen, func(t *testing.T) {
			a := newNode(t, nodeOpts{listen: listen})
			port := a.srv.Addrs()[0].(interface{ AddrPort() netip.AddrPort }).AddrPort().Port()
			p := dialRaw(t, a, 61)
			p.expect(message.CmdGetAddr)
			other := freeAddr(t)
			otherAP := netip.MustParseAddrPort(other)
			lo := netip.MustParseAddr("127.0.0.1")
			now := uint32(time.Now().Unix())
			p.send(message.CmdAddr, &payload.AddrList{Addrs: []payload.NetworkAddress{
				payload.NewNetworkAddress(lo, now, capability.Capabilities{capability.NewTCPServer(port)}),
				payload.NewNetworkAddress(lo, now, capability.Capabilities{capability.NewTCPServer(otherAP.Port())}),
			}})
			own := "127.0.0.1:" + strconv.Itoa(int(port))
			require.Eventually(t, func() bool {
				return contains2(a.srv.UnconnectedPeers(), other) || contains2(a.srv.BadPeers(), other)
			}, waitFor, 10*time.Millisecond)
			require.NotContains(t, a.srv.UnconnectedPeers(), own)
			require.NotContains(t, a.srv.BadPeers(), own)
			conns, _ := a.srv.PeerCount()
			require.Equal(t, 1, conns, "only the raw peer: we did not dial ourselves")
		})
	}
}

func contains2(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
