package server

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

const (
	gasHash    = "0xd2a4cff31913016155e38e474a2c06d08be276cf"
	ledgerHash = "0xda65b600f7124ce6c79950c1772a36403104f2be"
	// storageHash is testblocks' "Storage" contract (id 6, deployed in
	// block 22): iterateOverValues returns Find(0x01, ValuesOnly).
	storageHash = "0xc3b3a914d94326a0aff9197c4d6db418dd4b1b35"
)

// storageAt replays the reference storage diffs: the contract storage
// (key = int32 LE id ‖ key) after each block.
func storageAt(t *testing.T, n *testNode) []map[string][]byte {
	type diff struct {
		Block   uint32 `json:"block"`
		Storage []struct {
			Key   []byte `json:"key"`
			State string `json:"state"`
			Value []byte `json:"value"`
		} `json:"storage"`
	}
	cur := map[string][]byte{}
	var out []map[string][]byte
	diffs := conformance.ReadJSONL[diff](t, filepath.Join(n.dir, "storagediff.jsonl"))
	if len(diffs) != 0 && diffs[0].Block == 1 { // no genesis diff: start from the genesis storage
		for name, items := range readJSON[refStorage](t, filepath.Join(n.dir, "storage", "genesis.json")).Contracts {
			id, err := strconv.ParseInt(strings.SplitN(name, ":", 2)[0], 10, 32)
			require.NoError(t, err)
			for _, it := range items {
				cur[storageKey(int32(id), it.Key...)] = it.Value
			}
		}
		out = append(out, maps.Clone(cur))
	}
	for _, d := range diffs {
		require.Equal(t, uint32(len(out)), d.Block)
		for _, e := range d.Storage {
			if e.State == "Deleted" {
				delete(cur, string(e.Key))
			} else {
				cur[string(e.Key)] = e.Value
			}
		}
		out = append(out, maps.Clone(cur))
	}
	require.Len(t, out, int(n.chain.BlockHeight())+1)
	return out
}

// storageKey is the reference key of item key of contract id.
func storageKey(id int32, key ...byte) string {
	return string(binary.LittleEndian.AppendUint32(nil, uint32(id))) + string(key)
}

// TestInvokeHistoricGAS reads every GAS balance the chains ever held at
// every height through invokefunctionhistoric (by index, by block hash and
// by state root) and compares with the reference storage at that height.
func TestInvokeHistoricGAS(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		states := storageAt(t, n)
		prefix := storageKey(native.GasID, 0x14)
		var accounts []string
		for _, st := range states {
			for k := range st {
				if len(k) == len(prefix)+util.Uint160Size && k[:len(prefix)] == prefix && !slices.Contains(accounts, k) {
					accounts = append(accounts, k)
				}
			}
		}
		require.NotEmpty(t, accounts)
		for h, st := range states {
			hash, _ := n.chain.GetHeaderHash(uint32(h))
			sr, err := n.chain.StateRoot(uint32(h))
			require.NoError(t, err)
			for i, k := range accounts {
				want := "0"
				if raw, ok := st[k]; ok {
					it, err := stackitem.Deserialize(raw)
					require.NoError(t, err)
					bal, err := it.(*stackitem.Array).At(0).BigInt()
					require.NoError(t, err)
					want = bal.String()
				}
				acc, err := util.Uint160DecodeBytesLE([]byte(k[len(prefix):]))
				require.NoError(t, err)
				arg := []any{map[string]any{"type": "Hash160", "value": acc.String()}}
				// Index, block hash and state root name the same state.
				point := []any{h, hash.String(), sr.Root.String()}[i%3]
				r, _ := n.invoke(t, "invokefunctionhistoric", point, gasHash, "balanceOf", arg)
				require.Equal(t, "HALT", r.State)
				requireJSON(t, mustJSON(t, map[string]string{"type": "Integer", "value": want}), r.Stack[0], "%d %s", h, acc)
			}
			// The Ledger sees that block as the current one.
			r, _ := n.invoke(t, "invokefunctionhistoric", h, ledgerHash, "currentIndex", []any{})
			requireJSON(t, mustJSON(t, map[string]string{"type": "Integer", "value": strconv.Itoa(h)}), r.Stack[0])
			r2, _ := n.invoke(t, "invokescripthistoric", h, base64.StdEncoding.EncodeToString(r.Script))
			require.Equal(t, r.Stack, r2.Stack)
		}
	})
}

// TestInvokeHistoricIterator iterates over the storage of a contract at
// the height of its deployment and before (sessions on: the trie-backed
// values are traversed after the call).
func TestInvokeHistoricIterator(t *testing.T) {
	n := node(t, "testblocks").variant(t, func(r *config.RPC) { r.SessionEnabled = true })
	states := storageAt(t, n)
	const deployed = 22
	var want []json.RawMessage
	var keys []string
	for k := range states[deployed] {
		if k[:5] == storageKey(6, 0x01) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		want = append(want, mustJSON(t, map[string]string{"type": "ByteString",
			"value": base64.StdEncoding.EncodeToString(states[deployed][k])}))
	}
	require.Greater(t, len(want), n.cfg.ApplicationConfiguration.RPC.MaxIteratorResultItems)

	for _, h := range []uint32{deployed, n.chain.BlockHeight()} {
		var r sessionInvoke
		require.NoError(t, json.Unmarshal(n.result(t, "invokefunctionhistoric", h, storageHash, "iterateOverValues", []any{}), &r))
		var it iteratorJSON
		require.NoError(t, json.Unmarshal(r.Stack[0], &it))
		got := n.traverseAll(t, r.Session, it.ID, 100)
		require.Len(t, got, len(want))
		for i := range want {
			requireJSON(t, want[i], got[i], i)
		}
	}
	// Before its deployment the contract does not exist.
	r, _ := n.invoke(t, "invokefunctionhistoric", deployed-1, storageHash, "iterateOverValues", []any{})
	require.Equal(t, "FAULT", r.State)
}

func TestInvokeHistoricVerify(t *testing.T) {
	n := node(t, "testblocks")
	const verify = "0x7f732d9aa2e877a36142344822826721522f2524" // "Verify", id 2
	top := n.chain.BlockHeight()
	_, cur := n.invoke(t, "invokecontractverify", verify)
	_, old := n.invoke(t, "invokecontractverifyhistoric", top, verify)
	requireJSON(t, cur, old)
	// Deployed after block 1.
	n.fail(t, result.UnknownContractCode, "invokecontractverifyhistoric", 1, verify)
}

func TestInvokeHistoricErrors(t *testing.T) {
	n := node(t, "testblocks")
	top := n.chain.BlockHeight()
	for _, m := range []string{"invokefunctionhistoric", "invokescripthistoric", "invokecontractverifyhistoric"} {
		n.fail(t, result.InvalidParamsCode, m)
		n.fail(t, result.InvalidParamsCode, m, 3)
		e := n.fail(t, result.InvalidParamsCode, m, top+1, "x")
		require.Contains(t, e.Data, "invalid block hash or index or stateroot hash")
		e = n.fail(t, result.InvalidParamsCode, m, "0x1"+strings.Repeat("0", 63), "x")
		require.Contains(t, e.Data, "unknown block or stateroot")
	}
	latest := n.variant(t, func(*config.RPC) {})
	latest.srv.cfg.KeepOnlyLatestState = true
	e := latest.fail(t, result.UnsupportedStateCode, "invokefunctionhistoric", 1, ledgerHash, "currentIndex")
	require.Equal(t, "only latest state is supported: 'KeepOnlyLatestState' setting is enabled", e.Data)
}
