package server

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/stretchr/testify/require"
)

// refNotification is a reference notification with its container.
type refNotification struct {
	Container string          `json:"container"`
	Contract  string          `json:"contract"`
	Name      string          `json:"eventname"`
	State     json.RawMessage `json:"state"`
}

type refBlockNotifications struct {
	OnPersist   []refNotification `json:"onpersist,omitempty"`
	Application []refNotification `json:"application,omitempty"`
	PostPersist []refNotification `json:"postpersist,omitempty"`
}

// refNotifications builds getblocknotifications of every height from the
// reference application logs: the notifications of HALTed executions by
// trigger, transactions in block order.
func refNotifications(t *testing.T, n *testNode) []refBlockNotifications {
	type execution struct {
		Trigger       string            `json:"trigger"`
		VMState       string            `json:"vmstate"`
		Notifications []refNotification `json:"notifications"`
	}
	type appLog struct {
		Executions []execution `json:"executions"`
	}
	out := make([]refBlockNotifications, n.chain.BlockHeight()+1)
	byTx := map[string][]refNotification{}
	for _, l := range conformance.ReadJSONL[refAppLog](t, filepath.Join(n.dir, "applogs.jsonl")) {
		var a appLog
		require.NoError(t, json.Unmarshal(l.Result, &a))
		for _, e := range a.Executions {
			if e.VMState != "HALT" {
				continue
			}
			for _, ne := range e.Notifications {
				ne.Container = l.Hash
				switch e.Trigger {
				case "OnPersist":
					out[l.Height].OnPersist = append(out[l.Height].OnPersist, ne)
				case "PostPersist":
					out[l.Height].PostPersist = append(out[l.Height].PostPersist, ne)
				default:
					byTx[l.Hash] = append(byTx[l.Hash], ne)
				}
			}
		}
	}
	for i := range out {
		h, ok := n.chain.GetHeaderHash(uint32(i))
		require.True(t, ok)
		b, err := n.chain.GetBlock(h)
		require.NoError(t, err)
		for _, tx := range b.Transactions {
			out[i].Application = append(out[i].Application, byTx[tx.Hash().String()]...)
		}
	}
	return out
}

func TestGetBlockNotifications(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		ref := refNotifications(t, n)
		var total int
		for i, want := range ref {
			got := n.result(t, "getblocknotifications", i)
			requireJSON(t, mustJSON(t, want), got, i)
			h, _ := n.chain.GetHeaderHash(uint32(i))
			requireJSON(t, got, n.result(t, "getblocknotifications", h.String()), i)
			total += len(want.OnPersist) + len(want.Application) + len(want.PostPersist)
		}
		require.Positive(t, total)
	})
}

func TestGetBlockNotificationsFilter(t *testing.T) {
	n := node(t, "testblocks")
	ref := refNotifications(t, n)
	keep := func(want refBlockNotifications, f func(ne refNotification) bool) refBlockNotifications {
		var out refBlockNotifications
		for _, l := range []struct{ in, out *[]refNotification }{{&want.OnPersist, &out.OnPersist},
			{&want.Application, &out.Application}, {&want.PostPersist, &out.PostPersist}} {
			for _, ne := range *l.in {
				if f(ne) {
					*l.out = append(*l.out, ne)
				}
			}
		}
		return out
	}
	// The third state item of every Transfer of the NFSO token at 21.
	var amount json.RawMessage
	for _, ne := range ref[21].Application {
		if ne.Contract == nfsoHash {
			var st struct {
				Value []json.RawMessage `json:"value"`
			}
			require.NoError(t, json.Unmarshal(ne.State, &st))
			amount = st.Value[2]
		}
	}
	require.NotNil(t, amount)
	var amountItem struct{ Value string }
	require.NoError(t, json.Unmarshal(amount, &amountItem))
	for i, want := range ref {
		got := n.result(t, "getblocknotifications", i, map[string]any{"contract": nfsoHash})
		requireJSON(t, mustJSON(t, keep(want, func(ne refNotification) bool { return ne.Contract == nfsoHash })), got, i)
		got = n.result(t, "getblocknotifications", i, map[string]any{"name": "Transfer",
			"parameters": []any{map[string]string{"type": "Any"}, map[string]string{"type": "Any"},
				map[string]string{"type": "Integer", "value": amountItem.Value}}})
		requireJSON(t, mustJSON(t, keep(want, func(ne refNotification) bool {
			var st struct {
				Value []json.RawMessage `json:"value"`
			}
			require.NoError(t, json.Unmarshal(ne.State, &st))
			return ne.Name == "Transfer" && len(st.Value) > 2 && string(st.Value[2]) == string(amount)
		})), got, i)
	}
	// neo-go 0.120.0's errors.
	e := n.fail(t, result.InvalidParamsCode, "getblocknotifications", 21, map[string]any{"bad": 1})
	require.Equal(t, `invalid filter: json: unknown field "bad"`, e.Data)
	e = n.fail(t, result.InvalidParamsCode, "getblocknotifications", 21,
		map[string]any{"name": "Transfer", "parameters": []any{map[string]string{"type": "Any"}}})
	require.Equal(t, "invalid filter: invalid subscription filter: NotificationFilter cannot have all parameters of type Any", e.Data)
	n.fail(t, result.UnknownHeightCode, "getblocknotifications", n.chain.BlockHeight()+1)
	n.fail(t, result.UnknownBlockCode, "getblocknotifications",
		"0x0000000000000000000000000000000000000000000000000000000000000001")
	n.fail(t, result.InvalidParamsCode, "getblocknotifications")
}
