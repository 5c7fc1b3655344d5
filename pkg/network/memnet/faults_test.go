package memnet

import (
	"io"
	"net/netip"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// TestPauseReadsStopsDraining: a paused host reads nothing, so its
// sender's writes block once the buffer is full; resumed, every byte
// arrives in order. Dials still work.
func TestPauseReadsStopsDraining(t *testing.T) {
	n := New(Config{BufferSize: 16})
	defer n.Close()
	c, s := pipe(t, n)
	n.PauseReads(ipB, true)
	msg := []byte("0123456789abcdefXYZ") // 19 bytes: 3 more than the buffer
	require.NoError(t, c.SetWriteDeadline(time.Now().Add(30*time.Millisecond)))
	k, err := c.Write(msg)
	require.ErrorIs(t, err, os.ErrDeadlineExceeded, "the writer blocks on a reader that does not drain")
	require.Equal(t, 16, k)
	require.NoError(t, s.SetReadDeadline(time.Now().Add(30*time.Millisecond)))
	_, err = s.Read(make([]byte, 4))
	require.ErrorIs(t, err, os.ErrDeadlineExceeded, "a paused host reads nothing")
	// The other direction still flows.
	_, err = s.Write([]byte("pong"))
	require.NoError(t, err)
	got := make([]byte, 4)
	_, err = io.ReadFull(c, got)
	require.NoError(t, err)
	require.Equal(t, "pong", string(got))

	n.PauseReads(ipB, false)
	require.NoError(t, s.SetReadDeadline(time.Time{}))
	require.NoError(t, c.SetWriteDeadline(time.Time{}))
	done := make(chan error, 1)
	go func() { _, err := c.Write(msg[16:]); done <- err }()
	all := make([]byte, len(msg))
	_, err = io.ReadFull(s, all)
	require.NoError(t, err)
	require.NoError(t, <-done)
	require.Equal(t, string(msg), string(all))
}

// TestHealedLinkFollowsTheDefault: after a partition heals, the link is
// the default one again, and a later SetDefaultLink (a loss burst)
// applies to it.
func TestHealedLinkFollowsTheDefault(t *testing.T) {
	n := New(Config{})
	defer n.Close()
	a, b := []netip.Addr{ipA}, []netip.Addr{ipB}
	n.Partition(a, b, true)
	n.SetDefaultLink(Link{Loss: 0.5}) // a loss burst during the partition
	n.mu.Lock()
	require.True(t, n.linkLocked(ipA, ipB).Down)
	n.mu.Unlock()
	n.Partition(a, b, false)
	n.mu.Lock()
	defer n.mu.Unlock()
	require.Equal(t, 0.5, n.linkLocked(ipA, ipB).Loss)
	require.Equal(t, 0.5, n.linkLocked(ipB, ipA).Loss)
	require.False(t, n.linkLocked(ipA, ipB).Down)
	require.Empty(t, n.links)
}
