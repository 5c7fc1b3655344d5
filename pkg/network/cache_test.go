package network

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestExtCacheDropsExpired: a payload the chain has passed is no longer
// served and its body is let go at the next put, but its hash stays known
// until evicted, and the cache stays bounded.
func TestExtCacheDropsExpired(t *testing.T) {
	c := newExtCache(3)
	ext := func(end uint32) *payload.Extensible {
		return &payload.Extensible{Category: "dBFT", ValidBlockStart: 0, ValidBlockEnd: end, Data: make([]byte, 1<<10)}
	}
	h1, h2, h3, h4 := util.Uint256{1}, util.Uint256{2}, util.Uint256{3}, util.Uint256{4}
	e1 := ext(5)
	c.put(h1, e1, 4)
	require.Same(t, e1, c.get(h1, 4))
	require.Nil(t, c.get(h1, 5), "expired at its ValidBlockEnd")
	require.Same(t, e1, c.m[h1], "kept until the next put")

	e2 := ext(6)
	c.put(h2, e2, 5)
	require.Nil(t, c.m[h1], "the expired body is let go")
	require.True(t, c.has(h1), "an expired payload is still known")
	require.Nil(t, c.get(h1, 4))
	require.Same(t, e2, c.get(h2, 5))

	c.put(h3, ext(6), 5)
	c.put(h4, ext(6), 5)
	require.False(t, c.has(h1), "the oldest is evicted")
	require.LessOrEqual(t, len(c.m), 3)
	require.True(t, c.has(h2) && c.has(h3) && c.has(h4))
}
