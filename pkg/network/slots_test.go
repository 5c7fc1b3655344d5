package network

import (
	"net"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// flood keeps up to n silent connections to addr open from the local
// address from, opening a new one whenever the server closes one, until
// stop is called.
func flood(t *testing.T, addr, from string, n int) (opened func() int, stop func()) {
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	var (
		mu    sync.Mutex
		conns = make(map[net.Conn]bool)
		total int
		quit  = make(chan struct{})
		wg    sync.WaitGroup
	)
	slots := make(chan struct{}, n)
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-quit:
				return
			case slots <- struct{}{}:
			}
			c, err := d.Dial("tcp", addr)
			if err != nil {
				<-slots
				continue
			}
			mu.Lock()
			conns[c] = true
			total++
			mu.Unlock()
			wg.Add(1)
			go func() {
				defer wg.Done()
				var b [1]byte
				_, _ = c.Read(b[:]) // returns when the server closes it (or stop does)
				mu.Lock()
				delete(conns, c)
				mu.Unlock()
				c.Close()
				<-slots
			}()
		}
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			close(quit)
			mu.Lock()
			for c := range conns {
				c.Close()
			}
			mu.Unlock()
			wg.Wait()
		})
	}
	t.Cleanup(stop)
	opened = func() int {
		mu.Lock()
		defer mu.Unlock()
		return total
	}
	return opened, stop
}

// TestHonestPeerGetsInDuringSilentFlood: many more silent connections
// than MaxPeers and the handshake slots, reopened as soon as the server
// closes them, from one address (127.0.0.2) and from several
// (127.0.0.3-6), do not keep an honest node (on 127.0.0.1) from
// connecting; the silent ones hold no MaxPeers slot and at most
// MaxHandshaking slots.
func TestHonestPeerGetsInDuringSilentFlood(t *testing.T) {
	for _, from := range [][]string{{"127.0.0.2"}, {"127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"}} {
		t.Run(from[0], func(t *testing.T) {
			a := newNode(t, nodeOpts{cfg: func(c *Config) {
				c.MaxPeers = 3
				c.MaxHandshaking = 8
				c.HandshakeTimeout = 10 * time.Second // a silent one would hold a slot that long without the first-byte limit
				c.FirstByteTimeout = 5 * time.Second
			}})
			var stops []func()
			for _, ip := range from {
				opened, stop := flood(t, a.addr(), ip, 40)
				require.Eventually(t, func() bool { return opened() >= 40 }, waitFor, 10*time.Millisecond)
				stops = append(stops, stop)
			}
			require.LessOrEqual(t, a.srv.HandshakingPeers(), 8)

			b := newNode(t, nodeOpts{seeds: []string{a.addr()}})
			require.Eventually(t, func() bool { return a.handshaked() == 1 && b.handshaked() == 1 }, waitFor, 10*time.Millisecond)
			require.LessOrEqual(t, a.srv.HandshakingPeers(), 8)
			for _, stop := range stops {
				stop()
			}
			// With the flood gone, the handshake slots empty and MaxPeers
			// is still counted in handshaked peers only.
			require.Eventually(t, func() bool { return a.srv.HandshakingPeers() == 0 }, waitFor, 10*time.Millisecond)
			require.Equal(t, 1, a.handshaked())
		})
	}
}

// TestFirstByteTimeout: a connection that sends nothing is closed after
// FirstByteTimeout, long before HandshakeTimeout; one that has spoken
// keeps its handshake time.
func TestFirstByteTimeout(t *testing.T) {
	a := newNode(t, nodeOpts{cfg: func(c *Config) {
		c.HandshakeTimeout = time.Minute
		c.FirstByteTimeout = 200 * time.Millisecond
	}})
	silent, err := net.Dial("tcp", a.addr())
	require.NoError(t, err)
	defer silent.Close()
	closedByPeer(t, silent, 10*time.Second)

	talker, err := net.Dial("tcp", a.addr())
	require.NoError(t, err)
	defer talker.Close()
	_, err = talker.Write(versionFrame(t, a.srv.cfg.Magic, 41)[:3]) // a partial frame
	require.NoError(t, err)
	// Still open well past the first-byte limit: the silent one above
	// was closed in that time; the talker waits for its handshake.
	other, err := net.Dial("tcp", a.addr())
	require.NoError(t, err)
	defer other.Close()
	closedByPeer(t, other, 10*time.Second)
	require.Eventually(t, func() bool { return a.srv.HandshakingPeers() == 1 }, waitFor, 10*time.Millisecond)
}

// TestSlotVictimFromBusiestIP: with every handshake slot held, a newcomer
// from a new address takes over a slot of the address holding the most,
// never the single slot of another address, even when that one is the
// oldest and has not been heard yet (its first bytes not read: a loaded
// node). Before, the oldest silent connection of any address was taken,
// so a flood from several addresses could evict an honest peer again and
// again.
func TestSlotVictimFromBusiestIP(t *testing.T) {
	s := &Server{cfg: Config{MaxHandshaking: 4, MaxPeers: 3}}
	s.mu.peers = make(map[*peer]struct{})
	at := func(ip string, age time.Duration) *peer {
		p := &peer{remote: netip.AddrPortFrom(netip.MustParseAddr(ip), 1), created: time.Now().Add(-age)}
		s.mu.peers[p] = struct{}{}
		return p
	}
	honest := at("127.0.0.1", time.Hour) // the oldest, silent so far
	at("127.0.0.3", time.Minute)
	flood := at("127.0.0.4", 2*time.Minute)
	at("127.0.0.4", time.Second)
	s.mu.Lock()
	c := s.handshakingLocked(netip.MustParseAddr("127.0.0.9"))
	s.mu.Unlock()
	require.Equal(t, 4, c.n)
	require.NotSame(t, honest, c.victim)
	require.Same(t, flood, c.victim, "the oldest slot of the address holding two")
}
