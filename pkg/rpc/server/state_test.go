package server

import (
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

type refContracts struct {
	Deployed map[string]json.RawMessage `json:"deployed"`
	Native   []json.RawMessage          `json:"native"`
}

func TestGetContractState(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		ref := readJSON[refContracts](t, filepath.Join(n.dir, "contracts.json"))
		requireJSON(t, mustJSON(t, ref.Native), n.result(t, "getnativecontracts"))
		require.NotEmpty(t, ref.Deployed)
		for h, c := range ref.Deployed {
			got := n.result(t, "getcontractstate", h)
			requireJSON(t, c, got, "contract %s", h)
			require.Equal(t, []string{"id", "updatecounter", "hash", "nef", "manifest"}, keyOrder(t, got))
			requireJSON(t, c, n.result(t, "getcontractstate", strings.TrimPrefix(h, "0x")))
			var meta struct {
				ID       int32 `json:"id"`
				Manifest struct {
					Name string `json:"name"`
				} `json:"manifest"`
			}
			require.NoError(t, json.Unmarshal(c, &meta))
			requireJSON(t, c, n.result(t, "getcontractstate", meta.ID), "contract id %d", meta.ID)
			requireJSON(t, c, n.result(t, "getcontractstate", strconv.Itoa(int(meta.ID))))
			if meta.ID < 0 { // natives are also known by name, in any case
				requireJSON(t, c, n.result(t, "getcontractstate", strings.ToLower(meta.Manifest.Name)))
			}
		}
	})
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

type refStorage struct {
	Height    uint32                       `json:"height"`
	Root      string                       `json:"root"`
	Contracts map[string][]result.KeyValue `json:"contracts"`
}

// storageOf returns the reference final storage by contract id and hash.
func storageOf(t testing.TB, n *testNode) (refStorage, map[int32]string) {
	st := readJSON[refStorage](t, filepath.Join(n.dir, "storage", "final.json"))
	hashes := map[int32]string{}
	for k := range st.Contracts {
		parts := strings.SplitN(k, ":", 3)
		id, err := strconv.Atoi(parts[0])
		require.NoError(t, err)
		hashes[int32(id)] = parts[1]
	}
	return st, hashes
}

func contractKey(t testing.TB, st refStorage, id int32) string {
	for k := range st.Contracts {
		if strings.HasPrefix(k, strconv.Itoa(int(id))+":") {
			return k
		}
	}
	t.Fatalf("no contract %d", id)
	return ""
}

func TestGetStorage(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		st, hashes := storageOf(t, n)
		for id, h := range hashes {
			items := st.Contracts[contractKey(t, st, id)]
			for _, kv := range items {
				k := base64.StdEncoding.EncodeToString(kv.Key)
				want := mustJSON(t, kv.Value)
				if id == -4 { // LedgerContract: not in the trie, but in storage
					requireJSON(t, want, n.result(t, "getstorage", id, k))
					continue
				}
				requireJSON(t, want, n.result(t, "getstorage", h, k), "%d %s", id, k)
				requireJSON(t, want, n.result(t, "getstorage", id, k))
			}
		}
	})
}

func TestFindStorage(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		st, hashes := storageOf(t, n)
		page := n.srv.cfg.MaxFindStorageResultItems
		for id, h := range hashes {
			items := st.Contracts[contractKey(t, st, id)]
			slices.SortFunc(items, func(a, b result.KeyValue) int { return strings.Compare(string(a.Key), string(b.Key)) })
			// Pages of the whole storage.
			var got []result.KeyValue
			for next := 0; ; {
				var r result.FindStorage
				require.NoError(t, json.Unmarshal(n.result(t, "findstorage", h, "", next), &r))
				got = append(got, r.Results...)
				require.LessOrEqual(t, len(r.Results), page)
				if !r.Truncated {
					require.Equal(t, len(items), r.Next)
					break
				}
				require.Equal(t, next+page, r.Next)
				next = r.Next
			}
			require.Equal(t, len(items), len(got), "contract %d", id)
			// Nothing found is an empty list, as neo-go answers.
			none := n.result(t, "findstorage", h, base64.StdEncoding.EncodeToString([]byte("\xff\xff\xffnone")))
			require.Contains(t, string(none), `"results":[]`)
			for i := range items {
				require.Equal(t, items[i].Key, got[i].Key)
				require.Equal(t, items[i].Value, got[i].Value)
			}
			// A one-byte prefix.
			if len(items) > 0 && len(items[0].Key) > 0 {
				p := items[0].Key[:1]
				var want []result.KeyValue
				for _, kv := range items {
					if kv.Key[0] == p[0] {
						want = append(want, kv)
					}
				}
				var r result.FindStorage
				require.NoError(t, json.Unmarshal(n.result(t, "findstorage", id, base64.StdEncoding.EncodeToString(p)), &r))
				require.Equal(t, want[:min(len(want), page)], r.Results)
			}
		}
	})
}

// TestStates checks getstate, getproof, verifyproof and findstates at the
// final root against the final storage (LedgerContract, out of the trie,
// excluded).
func TestStates(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		st, hashes := storageOf(t, n)
		root := st.Root
		for id, h := range hashes {
			if id == -4 {
				continue
			}
			items := st.Contracts[contractKey(t, st, id)]
			slices.SortFunc(items, func(a, b result.KeyValue) int { return strings.Compare(string(a.Key), string(b.Key)) })
			for i, kv := range items {
				k := base64.StdEncoding.EncodeToString(kv.Key)
				want := mustJSON(t, kv.Value)
				requireJSON(t, want, n.result(t, "getstate", root, h, k))
				if i%7 != 0 { // proofs for a sample
					continue
				}
				var proof string
				require.NoError(t, json.Unmarshal(n.result(t, "getproof", root, h, k), &proof))
				requireJSON(t, want, n.result(t, "verifyproof", root, proof))
			}
			var r result.FindStates
			require.NoError(t, json.Unmarshal(n.result(t, "findstates", root, h, ""), &r))
			max := n.srv.cfg.MaxFindResultItems
			require.Equal(t, len(items) > max, r.Truncated)
			require.Equal(t, items[:min(len(items), max)], r.Results)
			if len(r.Results) > 0 {
				requireJSON(t, mustJSON(t, r.Results[0].Value), n.result(t, "verifyproof", root, r.FirstProof))
			}
			if len(r.Results) > 1 {
				requireJSON(t, mustJSON(t, r.Results[len(r.Results)-1].Value), n.result(t, "verifyproof", root, r.LastProof))
				// From the first key on (exclusive), at most 1 item.
				var r2 result.FindStates
				require.NoError(t, json.Unmarshal(n.result(t, "findstates", root, h, "",
					base64.StdEncoding.EncodeToString(items[0].Key), 1), &r2))
				require.Equal(t, items[1:2], r2.Results)
				require.Equal(t, len(items) > 2, r2.Truncated)
			}
		}
	})
}
