package network

import (
	stdio "io"
	"net"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// FuzzPeerStream feeds arbitrary bytes to a server as one peer's stream:
// whatever arrives, the server must neither panic nor leave the peer's
// goroutines behind. The seeds handshake and then send requests.
func FuzzPeerStream(f *testing.F) {
	s := newTestServer(f, func(c *Config) { c.HandshakeTimeout = time.Second })
	frame := func(cmd message.Command, p io.Serializable) []byte {
		m, err := message.New(cmd, p)
		if err != nil {
			f.Fatal(err)
		}
		return m.Bytes(true)
	}
	hs := append(versionFrameF(f, s.cfg.Magic, 5), frame(message.CmdVerack, nil)...)
	f.Add(hs)
	f.Add(append(hs, frame(message.CmdGetHeaders, &payload.GetBlockByIndex{IndexStart: 0, Count: -1})...))
	f.Add(append(hs, frame(message.CmdGetBlockByIndex, &payload.GetBlockByIndex{IndexStart: 0, Count: 3})...))
	f.Add(append(hs, frame(message.CmdInv, &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{{1}}})...))
	f.Add(append(hs, frame(message.CmdPing, &payload.Ping{LastBlockIndex: 9})...))
	f.Add(append(hs, frame(message.CmdGetAddr, nil)...))
	f.Add([]byte{0, 0x50, 1, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		c1, c2 := net.Pipe()
		done := make(chan struct{})
		go func() { _, _ = stdio.Copy(stdio.Discard, c2); close(done) }()
		s.addPeer(c1, "")
		_, _ = c2.Write(data)
		_ = c2.Close()
		<-done
		require.Eventually(t, func() bool { n, _ := s.PeerCount(); return n == 0 }, 5*time.Second, time.Millisecond,
			"peer not removed after its connection closed")
	})
}

// versionFrameF is versionFrame for fuzz setup.
func versionFrameF(tb testing.TB, magic, nonce uint32) []byte {
	m, err := message.New(message.CmdVersion, &payload.Version{Network: magic, Nonce: nonce, UserAgent: "/fuzz/"})
	if err != nil {
		tb.Fatal(err)
	}
	return m.Bytes(true)
}
