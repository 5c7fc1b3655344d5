package mpt

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// threeRoots writes three versions of a small state, one block each.
func threeRoots(t *testing.T, mode Mode) (*mapStore, [3]util.Uint256) {
	tr, s := newTestTrie(t, mode)
	s.missing = errTestNotFound
	var roots [3]util.Uint256
	for i := range 20 {
		require.NoError(t, tr.Put([]byte{byte(i), 1}, []byte{byte(i)}))
	}
	require.NoError(t, tr.Flush(1))
	roots[0] = tr.StateRoot()
	for i := range 10 {
		require.NoError(t, tr.Put([]byte{byte(i), 1}, []byte{byte(i + 100)}))
	}
	require.NoError(t, tr.Flush(2))
	roots[1] = tr.StateRoot()
	for i := range 5 {
		require.NoError(t, tr.Delete([]byte{byte(i), 1}))
	}
	require.NoError(t, tr.Flush(3))
	roots[2] = tr.StateRoot()
	return s, roots
}

// readAll reads every key the trie of root can have; it returns the first
// error.
func readAll(s *mapStore, mode Mode, root util.Uint256) error {
	tr, err := New(root, testConfig(s, mode))
	if err != nil {
		return err
	}
	for i := range 20 {
		if _, err := tr.Get([]byte{byte(i), 1}); err != nil && err != ErrNotFound {
			return err
		}
	}
	return nil
}

func TestModeAllKeepsEveryRoot(t *testing.T) {
	s, roots := threeRoots(t, ModeAll)
	for _, r := range roots {
		require.NoError(t, readAll(s, ModeAll, r))
	}
}

func TestModeLatestDropsOldNodes(t *testing.T) {
	s, roots := threeRoots(t, ModeLatest)
	require.NoError(t, readAll(s, ModeLatest, roots[2]))
	require.ErrorIs(t, readAll(s, ModeLatest, roots[0]), ErrMissingNode)
	require.ErrorIs(t, readAll(s, ModeLatest, roots[1]), ErrMissingNode)
	checkRefCounts(t, s, roots[2], ModeLatest)
}

func TestModeGCSweep(t *testing.T) {
	s, roots := threeRoots(t, ModeGC)
	checkRefCounts(t, s, roots[2], ModeGC)
	// Unreferenced nodes are kept, marked with the block that dropped them:
	// old roots stay readable through a ModeLatest view, not a ModeGC one.
	for _, r := range roots {
		require.NoError(t, readAll(s, ModeLatest, r))
	}
	require.ErrorIs(t, readAll(s, ModeGC, roots[0]), ErrMissingNode)
	// A sweep up to block 2 removes what blocks 1..2 dropped.
	sweep(s, 2)
	require.ErrorIs(t, readAll(s, ModeLatest, roots[0]), ErrMissingNode)
	require.NoError(t, readAll(s, ModeLatest, roots[1]))
	require.NoError(t, readAll(s, ModeGC, roots[2]))
	sweep(s, 3)
	require.ErrorIs(t, readAll(s, ModeLatest, roots[1]), ErrMissingNode)
	require.NoError(t, readAll(s, ModeGC, roots[2]))
	checkRefCounts(t, s, roots[2], ModeGC)
}

func sweep(s *mapStore, upTo uint32) {
	for k, v := range s.m {
		if Collectible(v, upTo) {
			delete(s.m, k)
		}
	}
}

func TestModeGCReactivates(t *testing.T) {
	tr, s := newTestTrie(t, ModeGC)
	require.NoError(t, tr.Put([]byte{1}, []byte{1}))
	require.NoError(t, tr.Put([]byte{2}, []byte{2}))
	require.NoError(t, tr.Flush(1))
	first := tr.StateRoot()
	require.NoError(t, tr.Put([]byte{1}, []byte{3}))
	require.NoError(t, tr.Flush(2))
	rec := s.m[string(nodeKeyOf(first))]
	require.True(t, Collectible(rec, 2))
	require.False(t, Collectible(rec, 1))
	// Back to the first state: its nodes become active again.
	require.NoError(t, tr.Put([]byte{1}, []byte{1}))
	require.NoError(t, tr.Flush(3))
	require.Equal(t, first, tr.StateRoot())
	rec = s.m[string(nodeKeyOf(first))]
	require.False(t, Collectible(rec, 10))
	checkRefCounts(t, s, first, ModeGC)
}

func TestCollectible(t *testing.T) {
	require.False(t, Collectible(nil, 10))
	require.False(t, Collectible([]byte{1, 2, 3, 4, 5}, 10))
	require.False(t, Collectible(rcRecord([]byte{2, 0}, false, true, 1), 10))
	require.True(t, Collectible(rcRecord([]byte{2, 0}, false, false, 10), 10))
	require.False(t, Collectible(rcRecord([]byte{2, 0}, false, false, 11), 10))
}

func TestCorruptedRefCount(t *testing.T) {
	tr, s := newTestTrie(t, ModeLatest)
	require.NoError(t, tr.Put([]byte{1}, []byte{1}))
	require.NoError(t, tr.Put([]byte{2}, []byte{2}))
	require.NoError(t, tr.Flush(1))
	// Someone else deleted the root record: dropping it cannot be counted.
	delete(s.m, string(nodeKeyOf(tr.StateRoot())))
	require.NoError(t, tr.Put([]byte{1}, []byte{5}))
	require.ErrorIs(t, tr.Flush(2), ErrCorrupted)
	// A record too short to hold a count.
	s.m[string(nodeKeyOf(util.Uint256{9}))] = []byte{1, 2}
	tr2, err := New(util.Uint256{9}, testConfig(s, ModeLatest))
	require.NoError(t, err)
	_, err = tr2.Get([]byte{1})
	require.ErrorIs(t, err, ErrCorrupted)
}

func nodeKeyOf(h util.Uint256) []byte {
	c := Config{Prefix: testPrefix}
	return c.nodeKey(h)
}

func TestFlushSkipsReadsOfDroppedNodes(t *testing.T) {
	// {12: a, 13: b}: extension → branch → two leaves.
	tr, s := newTestTrie(t, ModeLatest)
	require.NoError(t, tr.Put([]byte{0x12}, []byte{0xa}))
	require.NoError(t, tr.Put([]byte{0x13}, []byte{0xb}))
	require.NoError(t, tr.Flush(1))
	tr.Collapse(0)
	// Changing 12 reads extension, branch and leaf a back from the store.
	require.NoError(t, tr.Put([]byte{0x12}, []byte{0xc}))
	gets := s.gets
	require.NoError(t, tr.Flush(2))
	// Three new nodes need their stored count read; the three dropped ones,
	// read this cycle with count 1, are deleted without a read.
	require.Equal(t, 3, s.gets-gets)
	checkRefCounts(t, s, tr.StateRoot(), ModeLatest)

	// Next cycle: counts read in an earlier cycle are not trusted.
	require.NoError(t, tr.Put([]byte{0x12}, []byte{0xd}))
	gets = s.gets
	require.NoError(t, tr.Flush(3))
	require.Equal(t, 6, s.gets-gets)
	checkRefCounts(t, s, tr.StateRoot(), ModeLatest)
}
