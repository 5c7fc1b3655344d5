package memnet

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/stretchr/testify/require"
)

var (
	ipA = netip.MustParseAddr("10.0.0.1")
	ipB = netip.MustParseAddr("10.0.0.2")
	t0  = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
)

// pipe returns the two ends of a connection from host A to a listener
// of host B.
func pipe(t *testing.T, n *Network) (client, server net.Conn) {
	t.Helper()
	l, err := n.Host(ipB).Listen(context.Background(), ":0")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	client, err = n.Host(ipA).Dial(context.Background(), l.Addr().String())
	require.NoError(t, err)
	server, err = l.Accept()
	require.NoError(t, err)
	t.Cleanup(func() { client.Close(); server.Close() })
	return client, server
}

func TestDialListenAddresses(t *testing.T) {
	n := New(Config{})
	l, err := n.Host(ipB).Listen(context.Background(), "0.0.0.0:20333")
	require.NoError(t, err)
	require.Equal(t, "10.0.0.2:20333", l.Addr().String())
	require.Equal(t, "memnet", l.Addr().Network())
	_, err = n.Host(ipB).Listen(context.Background(), "10.0.0.2:20333")
	require.Error(t, err, "in use")
	_, err = n.Host(ipB).Listen(context.Background(), "10.0.0.1:1")
	require.ErrorIs(t, err, ErrAddress)
	_, err = n.Host(ipA).Dial(context.Background(), "10.0.0.2:1")
	require.ErrorIs(t, err, ErrRefused)
	_, err = n.Host(ipA).Dial(context.Background(), "seed.example:1")
	require.ErrorIs(t, err, ErrAddress)

	c, err := n.Host(ipA).Dial(context.Background(), "10.0.0.2:20333")
	require.NoError(t, err)
	s, err := l.Accept()
	require.NoError(t, err)
	require.Equal(t, c.LocalAddr().String(), s.RemoteAddr().String())
	require.Equal(t, "10.0.0.2:20333", c.RemoteAddr().String())
	ap, err := netip.ParseAddrPort(s.RemoteAddr().String())
	require.NoError(t, err)
	require.Equal(t, ipA, ap.Addr())
	require.Equal(t, 2, n.Conns())

	require.NoError(t, l.Close())
	_, err = l.Accept()
	require.ErrorIs(t, err, net.ErrClosed)
	_, err = n.Host(ipA).Dial(context.Background(), "10.0.0.2:20333")
	require.ErrorIs(t, err, ErrRefused)
	n.Close()
	require.Zero(t, n.Conns())
	_, err = c.Read(make([]byte, 1))
	require.ErrorIs(t, err, net.ErrClosed)
}

func TestStreamBuffersAndCloses(t *testing.T) {
	n := New(Config{BufferSize: 8})
	c, s := pipe(t, n)
	// A writer is not blocked by a reader that has not come yet, up to
	// the buffer size.
	k, err := c.Write([]byte("12345678"))
	require.NoError(t, err)
	require.Equal(t, 8, k)
	// The next write blocks until the reader drains.
	done := make(chan error, 1)
	go func() { _, err := c.Write([]byte("9abc")); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("write into a full buffer returned %v", err)
	default:
	}
	got := make([]byte, 0, 12)
	buf := make([]byte, 5)
	for len(got) < 12 {
		k, err := s.Read(buf)
		require.NoError(t, err)
		got = append(got, buf[:k]...)
	}
	require.NoError(t, <-done)
	require.Equal(t, "123456789abc", string(got))

	// Close: the other end reads what is left, then EOF; its writes fail.
	_, err = c.Write([]byte("xy"))
	require.NoError(t, err)
	require.NoError(t, c.Close())
	require.ErrorIs(t, c.Close(), net.ErrClosed)
	all, err := io.ReadAll(s)
	require.NoError(t, err)
	require.Equal(t, "xy", string(all))
	_, err = s.Write([]byte("z"))
	require.ErrorIs(t, err, ErrReset)
}

func TestDeadlines(t *testing.T) {
	n := New(Config{})
	c, s := pipe(t, n)
	require.NoError(t, s.SetReadDeadline(time.Now().Add(20*time.Millisecond)))
	_, err := s.Read(make([]byte, 1))
	require.ErrorIs(t, err, os.ErrDeadlineExceeded)
	// A deadline moved while a reader waits applies to it.
	require.NoError(t, s.SetReadDeadline(time.Time{}))
	got := make(chan error, 1)
	go func() { _, err := s.Read(make([]byte, 1)); got <- err }()
	require.NoError(t, s.SetReadDeadline(time.Now()))
	require.ErrorIs(t, <-got, os.ErrDeadlineExceeded)
	require.NoError(t, s.SetDeadline(time.Time{}))
	_, err = c.Write([]byte("a"))
	require.NoError(t, err)
	k, err := s.Read(make([]byte, 4))
	require.NoError(t, err)
	require.Equal(t, 1, k)
}

// TestLinkOnFakeClock: latency and bandwidth delay delivery on the
// network's clock; the order of writes is kept.
func TestLinkOnFakeClock(t *testing.T) {
	f := clock.NewFake(t0)
	n := New(Config{Clock: f})
	n.SetLink(ipA, ipB, Link{Latency: 100 * time.Millisecond, Bandwidth: 1000})
	c, s := pipe(t, n)
	_, err := c.Write(make([]byte, 100)) // 100 ms on the wire + 100 ms latency
	require.NoError(t, err)
	_, err = c.Write([]byte{1}) // behind it: 101 ms + 100 ms
	require.NoError(t, err)
	read := make(chan int, 2)
	go func() {
		buf := make([]byte, 200)
		for range 2 {
			k, err := s.Read(buf)
			if err != nil {
				return
			}
			read <- k
		}
	}()
	require.True(t, f.WaitPending(1, nil)) // the reader waits on the clock
	f.Advance(199 * time.Millisecond)
	select {
	case k := <-read:
		t.Fatalf("read %d bytes before the delivery time", k)
	default:
	}
	f.Advance(time.Millisecond)
	require.Equal(t, 100, <-read)
	require.True(t, f.WaitPending(1, nil))
	f.Advance(time.Millisecond)
	require.Equal(t, 1, <-read)

	// The other direction has the default link: no delay.
	_, err = s.Write([]byte("pong"))
	require.NoError(t, err)
	k, err := c.Read(make([]byte, 8))
	require.NoError(t, err)
	require.Equal(t, 4, k)
}

// TestLossDelaysWrites: a lost write arrives after the retransmission
// delay; the seeded draws repeat.
func TestLossDelaysWrites(t *testing.T) {
	at := func(seed uint64) []time.Time {
		n := New(Config{Clock: clock.NewFake(t0), Seed: seed})
		n.SetLink(ipA, ipB, Link{Loss: 0.5, Jitter: 10 * time.Millisecond})
		c, _ := pipe(t, n)
		for range 20 {
			_, err := c.Write([]byte{0})
			require.NoError(t, err)
		}
		cc := c.(*conn)
		var out []time.Time
		for _, ch := range cc.out.chunks {
			out = append(out, ch.at)
		}
		return out
	}
	a, b := at(7), at(7)
	require.Equal(t, a, b)
	require.NotEqual(t, a, at(8))
	for i := range a[1:] {
		require.False(t, a[i+1].Before(a[i]), "order kept")
	}
	// A lost write holds the ones behind it (head-of-line, as TCP).
	require.GreaterOrEqual(t, a[len(a)-1].Sub(t0), defaultRetransmit)
}

// TestPartitionHoldsAndHeals: a down link holds the bytes and refuses
// dials; once up, the bytes arrive. Cut resets the connections.
func TestPartitionHoldsAndHeals(t *testing.T) {
	n := New(Config{})
	c, s := pipe(t, n)
	n.Partition([]netip.Addr{ipA}, []netip.Addr{ipB}, true)
	_, err := n.Host(ipA).Dial(context.Background(), s.LocalAddr().String())
	require.ErrorIs(t, err, ErrUnreachable)
	_, err = c.Write([]byte("held"))
	require.NoError(t, err)
	got := make(chan string, 1)
	go func() {
		buf := make([]byte, 8)
		k, _ := s.Read(buf)
		got <- string(buf[:k])
	}()
	select {
	case v := <-got:
		t.Fatalf("read %q across a partition", v)
	default:
	}
	n.Partition([]netip.Addr{ipA}, []netip.Addr{ipB}, false)
	require.Equal(t, "held", <-got)

	require.Equal(t, 1, n.Cut(ipA, ipB))
	_, err = s.Read(make([]byte, 1))
	require.True(t, errors.Is(err, ErrReset) || errors.Is(err, net.ErrClosed), "%v", err)
	_, err = c.Write([]byte("x"))
	require.Error(t, err)
}

// TestSentCountsWrites: Sent counts each host's written bytes and Write
// calls, per sender.
func TestSentCountsWrites(t *testing.T) {
	n := New(Config{})
	defer n.Close()
	c, s := pipe(t, n)
	_, err := c.Write([]byte("hello"))
	require.NoError(t, err)
	_, err = c.Write([]byte("!!"))
	require.NoError(t, err)
	_, err = s.Write([]byte("x"))
	require.NoError(t, err)
	b, w := n.Sent(ipA)
	require.Equal(t, [2]uint64{7, 2}, [2]uint64{b, w})
	b, w = n.Sent(ipB)
	require.Equal(t, [2]uint64{1, 1}, [2]uint64{b, w})
}
