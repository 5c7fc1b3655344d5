package chain

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// waitDone waits for ch with a generous deadline (a hang fails the test
// instead of blocking it; nothing is asserted about timing).
func waitDone(t *testing.T, ch <-chan bool) bool {
	t.Helper()
	select {
	case ok := <-ch:
		return ok
	case <-time.After(time.Minute):
		t.Fatal("acquire did not return")
		return false
	}
}

func TestByteBudget(t *testing.T) {
	b := newByteBudget(10)
	// A record larger than the whole budget still goes through when nothing
	// is held, or the read-ahead would stop for good.
	require.True(t, b.acquire(25))
	b.release(25)
	require.True(t, b.acquire(6))
	require.True(t, b.acquire(4)) // exactly the limit

	// Over the limit: the acquire waits for a release.
	got := make(chan bool, 1)
	go func() { got <- b.acquire(3) }()
	b.release(6)
	require.True(t, waitDone(t, got))
	b.mu.Lock()
	require.Equal(t, 7, b.used)
	b.mu.Unlock()

	// close fails a waiting acquire and every later one.
	go func() { got <- b.acquire(8) }()
	b.close()
	require.False(t, waitDone(t, got))
	require.False(t, b.acquire(1))
}
