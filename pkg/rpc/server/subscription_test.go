package server

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/stretchr/testify/require"
)

// refEvent is an expected notification: its method and its payload
// (params[0]) as generic JSON.
type refEvent struct {
	method  string
	payload map[string]any
	index   int // the block
}

// refChain is a reference chain's expected event stream, per block from
// index 1, in neo-go's documented order.
type refChain struct {
	events [][]refEvent // events[i-1]: block i
}

// all lists the events of every block.
func (r *refChain) all() []refEvent {
	var out []refEvent
	for _, evs := range r.events {
		out = append(out, evs...)
	}
	return out
}

// referenceEvents derives the notifications of every block from the
// reference's getblock, getblockheader and getapplicationlog answers: an
// event carries the record without getblock's size, confirmations and
// nextblockhash, and executions and notifications carry their container.
func referenceEvents(t *testing.T, dir string) *refChain {
	t.Helper()
	blocks := conformance.ReadJSONL[struct {
		Index int             `json:"index"`
		Block json.RawMessage `json:"block"`
	}](t, filepath.Join(dir, "blocks.jsonl"))
	headers := conformance.ReadJSONL[json.RawMessage](t, filepath.Join(dir, "headers.jsonl"))
	logs := map[string]map[string]any{}
	for _, l := range conformance.ReadJSONL[refAppLog](t, filepath.Join(dir, "applogs.jsonl")) {
		logs[l.Hash] = decode(t, l.Result).(map[string]any)
	}
	r := &refChain{}
	for _, b := range blocks[1:] {
		blk := stripBlockMeta(decode(t, b.Block))
		hash := blk["hash"].(string)
		var evs []refEvent
		add := func(method string, p map[string]any) {
			evs = append(evs, refEvent{method: method, payload: p, index: b.Index})
		}
		execs := logs[hash]["executions"].([]any)
		require.Len(t, execs, 2, "block %d executions", b.Index)
		addExec := func(container string, e map[string]any, isTx bool) {
			ev := withContainer(container, e)
			if len(e["notifications"].([]any)) == 0 {
				ev["notifications"] = nil // neo-go sends its live record, with a nil list
			}
			add("transaction_executed", ev)
			if isTx && e["vmstate"] != "HALT" {
				return
			}
			for _, n := range e["notifications"].([]any) {
				add("notification_from_execution", withContainer(container, n.(map[string]any)))
			}
		}
		addExec(hash, execs[0].(map[string]any), false)
		for _, tx := range blk["tx"].([]any) {
			txm := tx.(map[string]any)
			txid := txm["hash"].(string)
			addExec(txid, logs[txid]["executions"].([]any)[0].(map[string]any), true)
			add("transaction_added", txm)
		}
		addExec(hash, execs[1].(map[string]any), false)
		add("header_of_added_block", stripBlockMeta(decode(t, headers[b.Index])))
		add("block_added", blk)
		r.events = append(r.events, evs)
	}
	return r
}

func stripBlockMeta(v any) map[string]any {
	m := v.(map[string]any)
	for _, k := range []string{"size", "confirmations", "nextblockhash"} {
		delete(m, k)
	}
	return m
}

// withContainer is m with a "container" field.
func withContainer(container string, m map[string]any) map[string]any {
	out := map[string]any{"container": container}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// normalize hides FAULT exception texts (implementation text, not
// compared, as the conformance README asks).
func normalize(m map[string]any) map[string]any {
	if e, ok := m["exception"]; ok && e != nil {
		out := withContainer(m["container"].(string), m)
		out["exception"] = "<fault>"
		return out
	}
	return m
}

// requireEvents checks notifications against expected events, in order.
func requireEvents(t *testing.T, want []refEvent, got []wsMessage) {
	t.Helper()
	require.Len(t, got, len(want))
	for i, m := range got {
		require.Equal(t, want[i].method, m.Method, "event %d (block %d): %s", i, want[i].index, m.raw)
		require.Len(t, m.Params, 1, string(m.raw))
		require.Equal(t, normalize(want[i].payload), normalize(decode(t, m.Params[0]).(map[string]any)),
			"event %d %s (block %d)", i, m.Method, want[i].index)
	}
}

// chainStreams are the streams the chain feeds.
var chainStreams = []string{"block_added", "header_of_added_block", "transaction_added",
	"notification_from_execution", "transaction_executed"}

func TestWSChainEventsMatchReference(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) {
			n := newWSNode(t, name, nil)
			ref := referenceEvents(t, n.dir)
			all := n.dial(t)
			for i, s := range chainStreams {
				require.Equal(t, strconv.Itoa(i), all.subscribe(s))
			}
			blocksOnly := n.dial(t)
			blocksOnly.subscribe("block_added")

			n.addBlocks(t, 1, len(n.blocks))
			for i, want := range ref.events {
				requireEvents(t, want, all.nextN(len(want)))
				got := blocksOnly.next()
				requireEvents(t, want[len(want)-1:], []wsMessage{got})
				if i == 0 {
					require.Equal(t, []string{"jsonrpc", "method", "params"}, keyOrder(t, got.raw))
					// neo-go's block JSON order.
					require.Equal(t, []string{"hash", "version", "previousblockhash", "merkleroot", "time", "nonce",
						"index", "nextconsensus", "primary", "witnesses", "tx"}, keyOrder(t, got.Params[0]))
				}
			}
		})
	}
}
