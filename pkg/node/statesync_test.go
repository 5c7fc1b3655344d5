package node

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
)

// stateSyncProtocol: StateRootInHeader with P2PStateExchangeExtensions,
// sync points every interval blocks, a window of two intervals.
func stateSyncProtocol(cfg *config.Config, interval uint32) {
	p := &cfg.ProtocolConfiguration
	p.StateRootInHeader, p.P2PStateExchangeExtensions = true, true
	p.StateSyncInterval = int(interval)
	p.MaxTraceableBlocks, p.Genesis.MaxTraceableBlocks = 2*interval, 2*interval
	p.MaxValidUntilBlockIncrement = interval
}

// TestStateSyncFromN3dPeer: a single validator makes blocks; a node that
// joins at genesis with P2PStateExchangeExtensions and
// RemoveUntraceableBlocks takes the state at the last sync point from it
// (headers, trie nodes, the window's blocks) instead of executing every
// block, then follows the new blocks with the validator's state roots.
func TestStateSyncFromN3dPeer(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 35 blocks")
	}
	const interval = 10
	vcfg := singleConfig(t, true, 100*time.Millisecond)
	stateSyncProtocol(&vcfg, interval)
	v := startNode(t, vcfg)
	vc := v.n.Chain()
	require.True(t, waitCond(func() bool { return vc.BlockHeight() >= 3*interval+5 }, 60*time.Second),
		"the validator made %d blocks", vc.BlockHeight())

	scfg := singleConfig(t, false, 100*time.Millisecond)
	stateSyncProtocol(&scfg, interval)
	scfg.ApplicationConfiguration.RemoveUntraceableBlocks = true
	scfg.ApplicationConfiguration.P2P.MinPeers = 1
	scfg.ProtocolConfiguration.SeedList = []string{v.n.P2PAddrs()[0].String()}
	s := startNode(t, scfg)
	sc := s.n.Chain()
	target := vc.BlockHeight() + 5
	require.True(t, waitCond(func() bool { return sc.BlockHeight() >= target }, 60*time.Second),
		"the syncing node is at %d, the validator at %d", sc.BlockHeight(), vc.BlockHeight())

	done := s.logs.FilterMessage("state sync done: blocks are added as usual").All()
	require.Len(t, done, 1, "no state sync ran")
	point := done[0].ContextMap()["sync_point"].(uint32)
	require.GreaterOrEqual(t, point, uint32(2*interval))
	require.Zero(t, point%interval)
	for i := point; i <= target; i++ {
		want, err := vc.StateRoot(i)
		require.NoError(t, err)
		got, err := sc.StateRoot(i)
		require.NoError(t, err, "state root %d", i)
		require.Equal(t, want.Root, got.Root, "state root %d", i)
		wh, _ := vc.GetHeaderHash(i)
		gh, _ := sc.GetHeaderHash(i)
		require.Equal(t, wh, gh, "block %d", i)
	}
	_, err := sc.StateRoot(1)
	require.Error(t, err, "block 1 was executed: no state sync")

	// The synchronised node serves the next one, which knows only it
	// (getmptdata from the trie it rebuilt, headers, the window's blocks).
	tcfg := singleConfig(t, false, 100*time.Millisecond)
	stateSyncProtocol(&tcfg, interval)
	tcfg.ApplicationConfiguration.RemoveUntraceableBlocks = true
	tcfg.ApplicationConfiguration.P2P.MinPeers, tcfg.ApplicationConfiguration.P2P.MaxPeers = 1, 1
	tcfg.ProtocolConfiguration.SeedList = []string{s.n.P2PAddrs()[0].String()}
	third := startNode(t, tcfg)
	tc := third.n.Chain()
	top := sc.BlockHeight() + 5
	require.True(t, waitCond(func() bool { return tc.BlockHeight() >= top }, 60*time.Second),
		"the third node is at %d, its peer at %d", tc.BlockHeight(), sc.BlockHeight())
	done = third.logs.FilterMessage("state sync done: blocks are added as usual").All()
	require.Len(t, done, 1, "the third node ran no state sync")
	require.Greater(t, done[0].ContextMap()["sync_point"].(uint32), point, "synced from the first sync point only")
	want, err := sc.StateRoot(top)
	require.NoError(t, err)
	got, err := tc.StateRoot(top)
	require.NoError(t, err)
	require.Equal(t, want.Root, got.Root)
}
