package network

import (
	"bufio"
	"io"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/network/memnet"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/stretchr/testify/require"
)

// TestTimeoutsOnFakeClock: the first-byte and handshake timeouts are
// timers of the server's clock. On a fake clock a connection is cut
// exactly when the clock passes its deadline: the timer closes it in
// Advance, so the count of connections is final when Advance returns.
func TestTimeoutsOnFakeClock(t *testing.T) {
	mem := newMemNet(t, true)
	a := newNode(t, nodeOpts{mem: mem, host: 1, cfg: func(c *Config) {
		c.FirstByteTimeout, c.HandshakeTimeout = 500*time.Millisecond, 2*time.Second
	}})
	conns := func() int { n, _ := a.srv.PeerCount(); return n }

	silent := a.dialConn(t)
	require.Eventually(t, func() bool { return conns() == 1 }, waitFor, time.Millisecond)
	mem.fake.Advance(499 * time.Millisecond)
	require.Equal(t, 1, conns())
	mem.fake.Advance(time.Millisecond)
	require.Equal(t, 0, conns(), "cut at the first-byte timeout")
	_, err := io.ReadAll(silent) // our version, then EOF
	require.NoError(t, err)

	// A peer that speaks but never finishes the handshake has the whole
	// handshake timeout from its connection. It reads our version and
	// verack; the clock moves once the server's writes are done (a jump
	// of the clock during a write counts as a write that long).
	talker := a.dialConn(t)
	require.Eventually(t, func() bool { return conns() == 1 }, waitFor, time.Millisecond)
	_, err = talker.Write(versionFrame(t, a.srv.cfg.Magic, 77))
	require.NoError(t, err)
	r := &rawPeer{t: t, c: talker, r: bufio.NewReader(talker)}
	r.expect(message.CmdVerack)
	require.Eventually(t, func() bool { return writesDone(a.srv) }, waitFor, time.Millisecond)
	heard := func() bool {
		a.srv.mu.Lock()
		defer a.srv.mu.Unlock()
		for p := range a.srv.mu.peers {
			return p.heard.Load()
		}
		return false
	}
	require.Eventually(t, heard, waitFor, time.Millisecond)
	mem.fake.Advance(2*time.Second - time.Millisecond)
	require.Equal(t, 1, conns(), "past the first-byte timeout, within the handshake timeout")
	mem.fake.Advance(time.Millisecond)
	require.Equal(t, 0, conns(), "cut at the handshake timeout")
	require.Zero(t, a.srv.HandshakingPeers())
}

// TestWriteTimeoutOnFakeClock: a peer that stops reading is cut when a
// write stays blocked for the send timeout of the server's clock. The
// link buffers 16 bytes and the peer reads nothing: the server's first
// write (its version) blocks while the peer's version and verack still
// complete the handshake.
func TestWriteTimeoutOnFakeClock(t *testing.T) {
	mem := newMemNet(t, true)
	mem.net = memnet.New(memnet.Config{Clock: mem.clock, BufferSize: 16})
	t.Cleanup(mem.net.Close)
	a := newNode(t, nodeOpts{mem: mem, host: 1})
	c := a.dialConn(t)
	_, err := c.Write(versionFrame(t, a.srv.cfg.Magic, 5))
	require.NoError(t, err)
	verack, err := message.New(message.CmdVerack, nil)
	require.NoError(t, err)
	_, err = c.Write(verack.Bytes(false))
	require.NoError(t, err)
	blocked := func() bool {
		a.srv.mu.Lock()
		defer a.srv.mu.Unlock()
		for p := range a.srv.mu.peers {
			return p.handshaked.Load() && p.writing.Load()
		}
		return false
	}
	require.Eventually(t, blocked, waitFor, time.Millisecond)
	mem.fake.Advance(a.srv.cfg.sendTimeout() - time.Millisecond)
	require.Equal(t, 1, a.handshaked())
	mem.fake.Advance(time.Millisecond)
	require.Equal(t, 0, a.handshaked(), "cut once a write stayed blocked for the send timeout")
}

// TestSocketOptionsOnlyOnTCP: the TCP_QUICKACK reader is not put on a
// connection that is no socket.
func TestSocketOptionsOnlyOnTCP(t *testing.T) {
	mem := newMemNet(t, false)
	a := newNode(t, nodeOpts{mem: mem, host: 1})
	c := a.dialConn(t)
	require.Equal(t, io.Reader(c), io.Reader(newAckReader(c)))
}

// writesDone reports whether no peer of s is writing and none has a
// message queued.
func writesDone(s *Server) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p := range s.mu.peers {
		if p.writing.Load() {
			return false
		}
		for _, q := range p.queues {
			if len(q) > 0 {
				return false
			}
		}
	}
	return true
}
