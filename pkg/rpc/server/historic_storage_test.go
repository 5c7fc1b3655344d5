package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

// TestFindStorageHistoric pages through the GAS accounts and the Storage
// contract's items at every state root and compares them with the
// replayed reference storage; getstoragehistoric reads each item.
func TestFindStorageHistoric(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		states := storageAt(t, n)
		type query struct {
			contract any
			id       int32
			prefix   []byte
		}
		queries := []query{{gasHash, -6, []byte{0x14}}, {"-6", -6, []byte{0x14}}, {6, 6, []byte{0x01}}}
		var items int
		for h, st := range states {
			sr, err := n.chain.StateRoot(uint32(h))
			require.NoError(t, err)
			for _, q := range queries {
				p := storageKey(q.id, q.prefix...)
				var want []result.KeyValue
				for k, v := range st {
					if strings.HasPrefix(k, p) {
						want = append(want, result.KeyValue{Key: []byte(k[4:]), Value: v})
					}
				}
				slices.SortFunc(want, func(a, b result.KeyValue) int { return strings.Compare(string(a.Key), string(b.Key)) })
				var got []result.KeyValue
				for next := 0; ; {
					var page result.FindStorage
					require.NoError(t, json.Unmarshal(n.result(t, "findstoragehistoric", sr.Root.String(), q.contract, q.prefix, next), &page))
					require.NotNil(t, page.Results)
					got = append(got, page.Results...)
					require.Equal(t, next+len(page.Results), page.Next)
					if !page.Truncated {
						break
					}
					next = page.Next
				}
				require.Equal(t, len(want), len(got), "%d %v", h, q.contract)
				for i := range want {
					require.Equal(t, want[i].Key, got[i].Key)
					require.Equal(t, want[i].Value, got[i].Value)
				}
				for _, kv := range want[:min(len(want), 8)] {
					requireJSON(t, mustJSON(t, kv.Value), n.result(t, "getstoragehistoric", sr.Root.String(), q.id, kv.Key))
					items++
				}
			}
		}
		require.Positive(t, items)
		top, err := n.chain.StateRoot(n.chain.BlockHeight())
		require.NoError(t, err)
		n.fail(t, result.UnknownStorageItemCode, "getstoragehistoric", top.Root.String(), -6, []byte{0x14, 0xff})
		// Unknown roots read as empty, as neo-go's.
		unknown := "0x" + strings.Repeat("11", 32)
		n.fail(t, result.UnknownStorageItemCode, "getstoragehistoric", unknown, -6, []byte{0x0b})
		requireJSON(t, []byte(`{"results":[],"next":0,"truncated":false}`), n.result(t, "findstoragehistoric", unknown, -6, []byte{0x14}))
	})
}

func TestStorageHistoricErrors(t *testing.T) {
	n := node(t, "testblocks")
	old, err := n.chain.StateRoot(5)
	require.NoError(t, err)
	top, err := n.chain.StateRoot(n.chain.BlockHeight())
	require.NoError(t, err)
	e := n.fail(t, result.InvalidParamsCode, "getstoragehistoric", "x", -6, "Cw==")
	require.Equal(t, "invalid stateroot", e.Data)
	n.fail(t, result.InvalidParamsCode, "getstoragehistoric", old.Root.String(), -6)
	e = n.fail(t, result.InvalidParamsCode, "findstoragehistoric", old.Root.String(), -6, "FA==", "x")
	require.Contains(t, e.Data, "invalid start")
	e = n.fail(t, result.InvalidParamsCode, "findstoragehistoric", old.Root.String(), 6, "!!")
	require.Contains(t, e.Data, "invalid prefix")
	// The Storage contract (block 22) is unknown at 5 by hash.
	e = n.fail(t, result.UnknownContractCode, "findstoragehistoric", old.Root.String(), storageHash, "AQ==")
	require.Contains(t, e.Data, "Failed to get historical contract state")
	// Native names resolve.
	requireJSON(t, n.result(t, "getstoragehistoric", old.Root.String(), -6, "Cw=="),
		n.result(t, "getstoragehistoric", old.Root.String(), "gastoken", "Cw=="))

	latest := n.variant(t, func(*config.RPC) {})
	latest.srv.cfg.KeepOnlyLatestState = true
	e = latest.fail(t, result.UnsupportedStateCode, "getstoragehistoric", old.Root.String(), -6, "Cw==")
	require.Equal(t, "state-based methods are not supported for old states: 'KeepOnlyLatestState' setting is enabled", e.Data)
	// At the current root: getstorage's answer.
	requireJSON(t, n.result(t, "getstorage", -6, "Cw=="), n.result(t, "getstoragehistoric", top.Root.String(), -6, "Cw=="))
}
