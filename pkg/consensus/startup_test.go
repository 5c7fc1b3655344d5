package consensus

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Four validators whose links come up well after the first round would
// have started (the clock is moved past the backups' view 0 timeout
// while no payload can pass) make block 1 in view 0, with no change
// view: each waits for its peers before the first round. The clock
// stands still once the links are up, so no timeout can help.
func TestFirstBlockWaitsForPeers(t *testing.T) {
	n := fourValidators(t)
	clock := newFakeClock(time.Now().Add(-time.Minute))
	n.clock = clock
	n.linksDown.Store(true)
	n.startAll()
	// Every service waits: a deadline and a poll timer each.
	clock.waitPending(t, 2*len(n.nodes), 0)
	for range 3 {
		clock.Advance(testTimePerBlock)
	}
	clock.waitPending(t, 2*len(n.nodes), 0) // polled again, still waiting
	require.Zero(t, n.logLen(), "a service started without peers")

	n.linksDown.Store(false)
	n.notifyPeers()
	n.waitHeight(1, 30*time.Second)
	for _, nd := range n.nodes {
		nd.stop()
	}
	n.requireSameChains(1)
	b, err := n.nodes[0].chain.GetBlockByIndex(1)
	require.NoError(t, err)
	require.Equal(t, byte(1), b.PrimaryIndex, "block 1 made by the view 0 primary")
	require.Zero(t, n.sentCount(ChangeViewType))
}

// The wait ends without peers after StartWait, and at once when a
// consensus payload arrives (the others run already).
func TestWaitForPeersEnds(t *testing.T) {
	t.Run("StartWait", func(t *testing.T) {
		n := fourValidators(t)
		clock := newFakeClock(time.Now())
		n.clock = clock
		nd := n.nodes[0]
		cfg := nd.config()
		cfg.StartWait = time.Second
		nd.startWith(cfg)
		clock.waitPending(t, 2, 0)
		require.Zero(t, n.logLen())
		clock.Advance(time.Second)
		n.waitSent(nd, RecoveryRequestType, 1) // the round started
	})
	t.Run("payload", func(t *testing.T) {
		n := fourValidators(t)
		clock := newFakeClock(time.Now())
		n.clock = clock
		a, b := n.nodes[0], n.nodes[1]
		cfg := a.config()
		cfg.MinPeers = 5 // more than there are
		a.startWith(cfg)
		clock.waitPending(t, 2, 0)
		cfg = b.config()
		cfg.ConnectedPeers = nil // starts at once and asks for recovery
		b.startWith(cfg)
		n.waitSent(b, RecoveryRequestType, 1)
		n.waitSent(a, RecoveryRequestType, 1)
	})
}
