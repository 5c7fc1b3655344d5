package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

type refAppLog struct {
	Hash   string          `json:"hash"`
	Height uint32          `json:"height"`
	Kind   string          `json:"kind"`
	Result json.RawMessage `json:"result"`
}

// maskExceptions replaces FAULT texts (implementation text, not compared)
// by a marker, keeping null ones.
func maskExceptions(t testing.TB, v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if k == "exception" && e != nil {
				x[k] = "<fault>"
				continue
			}
			x[k] = maskExceptions(t, e)
		}
	case []any:
		for i := range x {
			x[i] = maskExceptions(t, x[i])
		}
	}
	return v
}

func TestGetApplicationLog(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		logs := conformance.ReadJSONL[refAppLog](t, filepath.Join(n.dir, "applogs.jsonl"))
		for _, l := range logs {
			got := n.result(t, "getapplicationlog", l.Hash)
			require.Equal(t, maskExceptions(t, decode(t, l.Result)), maskExceptions(t, decode(t, got)), "%s %s", l.Kind, l.Hash)
			if l.Kind == "block" {
				require.Equal(t, []string{"blockhash", "executions"}, keyOrder(t, got))
				// The trigger filter keeps one of the two executions.
				for _, trig := range []string{"OnPersist", "PostPersist"} {
					var f result.ApplicationLog
					var aux struct {
						Executions []struct {
							Trigger string `json:"trigger"`
						} `json:"executions"`
					}
					require.NoError(t, json.Unmarshal(n.result(t, "getapplicationlog", l.Hash, trig), &aux))
					require.Len(t, aux.Executions, 1, f)
					require.Equal(t, trig, aux.Executions[0].Trigger)
				}
				var aux struct {
					Executions []json.RawMessage `json:"executions"`
				}
				require.NoError(t, json.Unmarshal(n.result(t, "getapplicationlog", l.Hash, "Application"), &aux))
				require.Empty(t, aux.Executions)
			} else {
				require.Equal(t, []string{"txid", "executions"}, keyOrder(t, got))
			}
		}
	})
}

// TestGetRawTransaction checks every transaction against the reference
// block that holds it and its application log.
func TestGetRawTransaction(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		blocks := conformance.ReadJSONL[refBlockLine](t, filepath.Join(n.dir, "blocks.jsonl"))
		vmstate := map[string]string{}
		for _, l := range conformance.ReadJSONL[refAppLog](t, filepath.Join(n.dir, "applogs.jsonl")) {
			var r struct {
				Executions []struct {
					VMState string `json:"vmstate"`
				} `json:"executions"`
			}
			require.NoError(t, json.Unmarshal(l.Result, &r))
			if l.Kind == "tx" {
				vmstate[l.Hash] = r.Executions[0].VMState
			}
		}
		count := 0
		for _, b := range blocks {
			var ref struct {
				Hash string            `json:"hash"`
				Time uint64            `json:"time"`
				Tx   []json.RawMessage `json:"tx"`
			}
			require.NoError(t, json.Unmarshal(b.Block, &ref))
			for _, tx := range ref.Tx {
				var h struct {
					Hash string `json:"hash"`
				}
				require.NoError(t, json.Unmarshal(tx, &h))
				want := decode(t, tx).(map[string]any)
				want["blockhash"] = ref.Hash
				want["confirmations"] = json.Number(jsonNum(int(n.chain.BlockHeight() - b.Index + 1)))
				want["blocktime"] = json.Number(jsonNum(int(ref.Time)))
				want["vmstate"] = vmstate[h.Hash]
				got := n.result(t, "getrawtransaction", h.Hash, true)
				require.Equal(t, want, decode(t, got), "tx %s", h.Hash)
				keys := keyOrder(t, got)
				require.Equal(t, []string{"blockhash", "confirmations", "blocktime", "vmstate"}, keys[len(keys)-4:])
				requireJSON(t, []byte(jsonNum(int(b.Index))), n.result(t, "gettransactionheight", h.Hash))
				// Raw: the transaction's bytes inside the raw block, hashing
				// to its hash.
				var raw []byte
				require.NoError(t, json.Unmarshal(n.result(t, "getrawtransaction", strings.TrimPrefix(h.Hash, "0x")), &raw))
				blockRaw, err := base64.StdEncoding.DecodeString(b.Raw)
				require.NoError(t, err)
				require.True(t, bytes.Contains(blockRaw, raw))
				dec, err := transaction.NewTransactionFromBytes(raw)
				require.NoError(t, err)
				require.Equal(t, h.Hash, dec.Hash().String())
				count++
			}
		}
		require.Positive(t, count)
	})
}

func TestGetStateRoot(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		roots := conformance.ReadJSONL[json.RawMessage](t, filepath.Join(n.dir, "stateroots.jsonl"))
		blocks := conformance.ReadJSONL[refBlockLine](t, filepath.Join(n.dir, "blocks.jsonl"))
		for i, r := range roots {
			requireJSON(t, r, n.result(t, "getstateroot", i), "root %d", i)
			requireJSON(t, r, n.result(t, "getstateroot", blocks[i].Hash), "root %d", i)
		}
		gov := readJSON[map[string]json.RawMessage](t, filepath.Join(n.dir, "governance.json"))
		requireJSON(t, gov["getstateheight"], n.result(t, "getstateheight"))
	})
}
