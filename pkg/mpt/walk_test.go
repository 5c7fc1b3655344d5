package mpt

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestWalkFeedsRestorer: the nodes Walk yields from a root, in batches cut
// anywhere (as getmptdata answers are), rebuild the whole trie in a fresh
// store with a Restorer, in every mode.
func TestWalkFeedsRestorer(t *testing.T) {
	for _, mode := range []Mode{ModeAll, ModeLatest, ModeGC} {
		t.Run(mode.String(), func(t *testing.T) {
			src, root, model := restoreSource(t, mode)
			_, dst := newTestTrie(t, mode)
			dst.missing = errTestNotFound
			leaves := leafSink{}
			r, err := NewRestorer(root, testConfig(dst, mode), leaves.add(t))
			require.NoError(t, err)
			rounds := 0
			for !r.Done() {
				rounds++
				require.Less(t, rounds, 10000)
				seen := map[util.Uint256]bool{}
				var batch [][]byte
				for _, h := range r.Missing(4) {
					err := Walk(testConfig(src, mode), h, func(h util.Uint256, enc []byte) WalkAction {
						if seen[h] {
							return WalkSkip
						}
						require.Equal(t, h, hash.DoubleSha256(enc))
						if len(batch) == 7 {
							return WalkStop
						}
						seen[h] = true
						batch = append(batch, append([]byte(nil), enc...))
						return WalkOn
					})
					require.NoError(t, err)
				}
				require.NotEmpty(t, batch)
				for _, n := range batch {
					_, err := r.AddNode(n)
					require.NoError(t, err)
				}
			}
			require.Len(t, leaves, len(model))
			for k, v := range model {
				require.Equal(t, v, leaves[k], "key %x", k)
			}
		})
	}
}

// TestWalkMissing: a node absent from the store is an error.
func TestWalkMissing(t *testing.T) {
	src, _, _ := restoreSource(t, ModeAll)
	err := Walk(testConfig(src, ModeAll), util.Uint256{1}, func(util.Uint256, []byte) WalkAction { return WalkOn })
	require.ErrorIs(t, err, ErrMissingNode)
}
