package network

import (
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/network/capability"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/stretchr/testify/require"
)

// versionFrame is a version message for the given magic and nonce.
func versionFrame(t *testing.T, magic, nonce uint32) []byte {
	m, err := message.New(message.CmdVersion, &payload.Version{Network: magic, Timestamp: uint32(time.Now().Unix()),
		Nonce: nonce, UserAgent: "/raw/", Capabilities: capability.Capabilities{capability.NewFullNode(0)}})
	require.NoError(t, err)
	return m.Bytes(true)
}

// closedByPeer reads until the server closes the connection; it fails if
// the connection is still open after the timeout.
func closedByPeer(t *testing.T, c net.Conn, timeout time.Duration) {
	t.Helper()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(timeout)))
	_, err := io.Copy(io.Discard, c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("connection still open after %s", timeout)
	}
}

func TestHostilePeersDisconnected(t *testing.T) {
	a := newNode(t, nodeOpts{restore: true, cfg: func(c *Config) { c.HandshakeTimeout = 500 * time.Millisecond }})
	magic := a.srv.cfg.Magic
	ping, err := message.New(message.CmdPing, &payload.Ping{})
	require.NoError(t, err)
	verack, err := message.New(message.CmdVerack, nil)
	require.NoError(t, err)
	badInv := []byte{0, byte(message.CmdInv), 2, 0x01, 0} // inventory type 0x01
	cases := []struct {
		name      string
		send      []byte
		handshake bool
	}{
		{"garbage version payload", []byte{0, byte(message.CmdVersion), 5, 1, 2, 3, 4, 5}, false},
		{"wrong magic", versionFrame(t, magic+1, 7), false},
		{"oversized payload", []byte{0, byte(message.CmdBlock), 0xfe, 0x01, 0x00, 0x00, 0x02}, false},
		{"huge length", []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, false},
		{"bad compression", []byte{1, byte(message.CmdVersion), 6, 10, 0, 0, 0, 0xff, 0xff}, false},
		{"ping before handshake", ping.Bytes(true), false},
		{"verack before version", verack.Bytes(true), false},
		{"silent", nil, false},
		{"version twice", append(versionFrame(t, magic, 8), versionFrame(t, magic, 8)...), false},
		{"bad inventory after handshake", badInv, true},
		{"version after handshake", versionFrame(t, magic, 10), true},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", a.addr())
			require.NoError(t, err)
			defer c.Close()
			if tc.handshake {
				_, err = c.Write(append(versionFrame(t, magic, uint32(100+i)), verack.Bytes(true)...))
				require.NoError(t, err)
				require.Eventually(t, func() bool { return a.handshaked() == 1 }, waitFor, 5*time.Millisecond)
			}
			if tc.send != nil {
				_, err = c.Write(tc.send)
				require.NoError(t, err)
			}
			closedByPeer(t, c, 5*time.Second)
			require.Eventually(t, func() bool { n, _ := a.srv.PeerCount(); return n == 0 }, waitFor, 5*time.Millisecond)
		})
	}

	// The server still works: an unknown command before the handshake is
	// dropped (the reference reads and ignores it) and the peer stays.
	c, err := net.Dial("tcp", a.addr())
	require.NoError(t, err)
	defer c.Close()
	unknown := []byte{0, 0x5f, 3, 1, 2, 3}
	_, err = c.Write(append(append(unknown, versionFrame(t, magic, 1000)...), verack.Bytes(true)...))
	require.NoError(t, err)
	require.Eventually(t, func() bool { return a.handshaked() == 1 }, waitFor, 5*time.Millisecond)

	// And a real node syncs from it.
	b := newNode(t, nodeOpts{seeds: []string{a.addr()}})
	require.Eventually(t, func() bool { return b.chain.BlockHeight() == a.chain.BlockHeight() }, waitFor, 10*time.Millisecond)
}
