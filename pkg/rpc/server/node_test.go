package server

import (
	"encoding/json"
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

func TestGovernance(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		gov := readJSON[map[string]json.RawMessage](t, filepath.Join(n.dir, "governance.json"))
		for _, m := range []string{"getcommittee", "getnextblockvalidators", "getcandidates"} {
			requireJSON(t, gov[m], n.result(t, m), m)
		}
	})
}

// TestGetVersion compares everything but what depends on the node: nonce,
// user agent and port (the session settings are the configuration's, the
// same as the reference node's).
func TestGetVersion(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		ref := decode(t, mustRead(t, filepath.Join(n.dir, "version.json"))).(map[string]any)
		raw := n.result(t, "getversion")
		require.Equal(t, []string{"tcpport", "nonce", "useragent", "protocol", "rpc"}, keyOrder(t, raw))
		got := decode(t, raw).(map[string]any)
		for _, k := range []string{"nonce", "useragent", "tcpport"} {
			require.Contains(t, got, k)
			delete(got, k)
			delete(ref, k)
		}
		require.Equal(t, n.cfg.ApplicationConfiguration.RPC.SessionEnabled, got["rpc"].(map[string]any)["sessionenabled"])
		require.Equal(t, ref, got)
	})
}

func mustRead(t testing.TB, path string) []byte {
	return mustJSON(t, readJSON[json.RawMessage](t, path))
}

type refTokens struct {
	NEP17 map[string]json.RawMessage `json:"nep17"`
}

func TestNEP17(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		balances := readJSON[refTokens](t, filepath.Join(n.dir, "balances.json"))
		transfers := readJSON[refTokens](t, filepath.Join(n.dir, "transfers.json"))
		require.NotEmpty(t, balances.NEP17)
		for addr, want := range balances.NEP17 {
			got := n.result(t, "getnep17balances", addr)
			require.Equal(t, sortedBalances(t, want), sortedBalances(t, got), addr)
			h, err := address.StringToUint160(addr)
			require.NoError(t, err)
			requireJSON(t, got, n.result(t, "getnep17balances", h.String()))
		}
		for addr, want := range transfers.NEP17 {
			got := n.result(t, "getnep17transfers", addr, 0, math.MaxInt64)
			requireJSON(t, want, got, addr)
			// Pages of one transfer cover the same list.
			var all result.NEP17Transfers
			require.NoError(t, json.Unmarshal(got, &all))
			total := len(all.Sent) + len(all.Received)
			var paged int
			for page := 0; ; page++ {
				var p result.NEP17Transfers
				require.NoError(t, json.Unmarshal(n.result(t, "getnep17transfers", addr, 0, math.MaxInt64, 1, page), &p))
				if len(p.Sent)+len(p.Received) == 0 {
					break
				}
				require.Equal(t, 1, len(p.Sent)+len(p.Received))
				paged++
			}
			require.Equal(t, total, paged, addr)
		}
	})
}

// sortedBalances orders a getnep17balances answer by asset (the
// reference's order comes from a Go map).
func sortedBalances(t testing.TB, raw []byte) any {
	v := decode(t, raw).(map[string]any)
	bs := v["balance"].([]any)
	slices.SortFunc(bs, func(a, b any) int {
		x, y := a.(map[string]any)["assethash"].(string), b.(map[string]any)["assethash"].(string)
		return map[bool]int{true: -1, false: 1}[x < y]
	})
	return v
}

func TestValidateAddress(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		addrs := readJSON[map[string]json.RawMessage](t, filepath.Join(n.dir, "addresses.json"))
		require.NotEmpty(t, addrs)
		for a := range addrs {
			requireJSON(t, []byte(`{"address":"`+a+`","isvalid":true}`), n.result(t, "validateaddress", a))
			bad := a[:len(a)-1] + string("12"[min(1, int(a[len(a)-1]-'1'))])
			requireJSON(t, []byte(`{"address":"`+bad+`","isvalid":false}`), n.result(t, "validateaddress", bad))
		}
		requireJSON(t, []byte(`{"address":1,"isvalid":false}`), n.result(t, "validateaddress", 1))
		n.fail(t, result.InvalidParamsCode, "validateaddress")
		n.fail(t, result.InvalidParamsCode, "validateaddress", nil)
		n.fail(t, result.InvalidParamsCode, "validateaddress", []int{1})
	})
}
