package server

import (
	"encoding/json"
	"math"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/stretchr/testify/require"
)

type refNEP11 struct {
	NEP11 map[string]json.RawMessage `json:"nep11"`
}

// TestNEP11 compares getnep11balances and getnep11transfers with the
// reference's for every address of the chains (a divisible token, NFSO,
// and a non-divisible one, NNS, on testblocks).
func TestNEP11(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		balances := readJSON[refNEP11](t, filepath.Join(n.dir, "balances.json"))
		transfers := readJSON[refNEP11](t, filepath.Join(n.dir, "transfers.json"))
		var tokens, moves int
		for addr, want := range balances.NEP11 {
			got := n.result(t, "getnep11balances", addr)
			require.Equal(t, sortedBalances(t, want), sortedBalances(t, got), addr)
			var b result.NEP11Balances
			require.NoError(t, json.Unmarshal(got, &b))
			for _, a := range b.Balances {
				tokens += len(a.Tokens)
			}
		}
		for addr, want := range transfers.NEP11 {
			got := n.result(t, "getnep11transfers", addr, 0, math.MaxInt64)
			requireJSON(t, want, got, addr)
			var all result.NEP11Transfers
			require.NoError(t, json.Unmarshal(got, &all))
			moves += len(all.Sent) + len(all.Received)
			// Pages of one cover the same list, newest first.
			var paged []result.NEP11Transfer
			for page := 0; ; page++ {
				var p result.NEP11Transfers
				require.NoError(t, json.Unmarshal(n.result(t, "getnep11transfers", addr, 0, math.MaxInt64, 1, page), &p))
				if len(p.Sent)+len(p.Received) == 0 {
					break
				}
				require.Equal(t, 1, len(p.Sent)+len(p.Received))
				paged = append(paged, append(p.Sent, p.Received...)...)
			}
			require.Len(t, paged, len(all.Sent)+len(all.Received), addr)
			for i := 1; i < len(paged); i++ {
				require.GreaterOrEqual(t, paged[i-1].Timestamp, paged[i].Timestamp)
			}
		}
		if n.name == "testblocks" {
			require.Equal(t, 3, tokens)
			require.Equal(t, 6, moves)
		}
	})
}

// TestNEP11Divisible checks the ABI test on the reference contracts: the
// tokens whose reference balances are not all "1" are the divisible ones.
func TestNEP11Divisible(t *testing.T) {
	n := node(t, "testblocks")
	cs := readJSON[struct {
		Deployed map[string]struct {
			Manifest json.RawMessage `json:"manifest"`
		} `json:"deployed"`
	}](t, filepath.Join(n.dir, "contracts.json"))
	got := map[string]bool{}
	for h, c := range cs.Deployed {
		var m manifest.Manifest
		require.NoError(t, json.Unmarshal(c.Manifest, &m))
		got[h] = nep11Divisible(&m)
	}
	require.Equal(t, true, got[nfsoHash])
	require.Equal(t, false, got[nnsHash])
	for h, d := range got {
		if h != nfsoHash {
			require.False(t, d, h)
		}
	}
}

// TestNEP11Properties compares with neo-go 0.120.0's answers on the
// testblocks chain: known properties as strings, others as base64, Null as
// null.
func TestNEP11Properties(t *testing.T) {
	n := node(t, "testblocks")
	requireJSON(t, []byte(`{"admin":null,"expiration":"lhbLRl0B","name":"neo.com"}`),
		n.result(t, "getnep11properties", nnsHash, "6e656f2e636f6d"))
	requireJSON(t, []byte(`{"containerID":"QVFJREFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQT0=",`+
		`"name":"NeoFS Object fiRP/WqoX7FXnS7SLpt2GrYuNIY=",`+
		`"objectID":"QkFVR0FBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQT0="}`),
		n.result(t, "getnep11properties", nfsoHash, "7e244ffd6aa85fb1579d2ed22e9b761ab62e3486"))
	// An unknown token FAULTs the call.
	e := n.fail(t, result.ExecutionFailedCode, "getnep11properties", nnsHash, "00")
	require.Contains(t, e.Data, "Failed to get NEP-11 properties")
	n.fail(t, result.InvalidParamsCode, "getnep11properties", nnsHash)
}

// TestNEP11TokenLimit: MaxNEP11Tokens bounds the tokens of all contracts.
func TestNEP11TokenLimit(t *testing.T) {
	n := node(t, "testblocks")
	owner := "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn" // holds NFSO and NNS tokens
	for limit, want := range map[int]int{1: 1, 2: 2, 3: 2} {
		v := n.variant(t, func(r *config.RPC) { r.MaxNEP11Tokens = limit })
		var b result.NEP11Balances
		require.NoError(t, json.Unmarshal(v.result(t, "getnep11balances", owner), &b))
		var count int
		for _, a := range b.Balances {
			count += len(a.Tokens)
		}
		require.Equal(t, want, count, limit)
	}
	// Unknown accounts have no tokens.
	requireJSON(t, []byte(`{"balance":[],"address":"NKuyBkoGdZZSLyPbJEetheRhMjeznFZszf"}`),
		n.result(t, "getnep11balances", "0x0000000000000000000000000000000000000000"))
}
