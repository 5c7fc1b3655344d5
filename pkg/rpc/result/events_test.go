package result

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// keys lists the keys of a JSON object in document order.
func keys(t *testing.T, obj []byte) []string {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(obj))
	tok, err := d.Token()
	require.NoError(t, err)
	require.Equal(t, json.Delim('{'), tok)
	var out []string
	for d.More() {
		k, err := d.Token()
		require.NoError(t, err)
		out = append(out, k.(string))
		var skip json.RawMessage
		require.NoError(t, d.Decode(&skip))
	}
	return out
}

// fields decodes a JSON object.
func fields(t *testing.T, obj []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(obj, &m))
	return m
}

// The key orders are those of neo-go's block.Header, block.Block,
// state.AppExecResult and state.ContainedNotificationEvent JSON.
func TestBlockAndHeaderEvents(t *testing.T) {
	b := &block.Block{Header: block.Header{Version: 0, Index: 7, Timestamp: 1468595301002, Nonce: 0x7C2BAC1D,
		PrimaryIndex: 3, Witness: transaction.Witness{VerificationScript: []byte{0x11}}}}
	got, err := json.Marshal(BlockEvent{Block: b})
	require.NoError(t, err)
	require.Equal(t, []string{"hash", "version", "previousblockhash", "merkleroot", "time", "nonce", "index",
		"nextconsensus", "primary", "witnesses", "tx"}, keys(t, got))
	// The same values as getblock, less size, confirmations and
	// nextblockhash.
	full, err := json.Marshal(Block{Block: b, BlockMetadata: BlockMetadata{Confirmations: 1}})
	require.NoError(t, err)
	want := fields(t, full)
	for _, k := range []string{"size", "confirmations", "nextblockhash"} {
		delete(want, k)
	}
	require.Equal(t, want, fields(t, got))
	require.Equal(t, []any{}, fields(t, got)["tx"])

	hdr, err := json.Marshal(HeaderEvent{Header: &b.Header})
	require.NoError(t, err)
	require.Equal(t, []string{"hash", "version", "previousblockhash", "merkleroot", "time", "nonce", "index",
		"nextconsensus", "primary", "witnesses"}, keys(t, hdr))
	delete(want, "tx")
	require.Equal(t, want, fields(t, hdr))
}

func TestExecutionEvent(t *testing.T) {
	r := &state.AppExecResult{Container: util.Uint256{1}, Execution: state.Execution{
		Trigger: trigger.Application, VMState: vm.FaultState, GasConsumed: 123,
		Stack: []stackitem.Item{stackitem.NewInt(5)}, FaultException: "boom",
		Events: []state.NotificationEvent{{ScriptHash: util.Uint160{9}, Name: "E", Item: stackitem.NewArray(nil)}}}}
	got, err := json.Marshal(ExecutionEvent{AppExecResult: r})
	require.NoError(t, err)
	require.Equal(t, []string{"container", "trigger", "vmstate", "gasconsumed", "stack", "notifications",
		"exception", "invocations"}, keys(t, got))
	// Everything but the container as getapplicationlog prints the
	// execution.
	l, err := json.Marshal(NewApplicationLog(r.Container, []state.AppExecResult{*r}, trigger.All))
	require.NoError(t, err)
	var log struct {
		Executions []map[string]any `json:"executions"`
	}
	require.NoError(t, json.Unmarshal(l, &log))
	want := log.Executions[0]
	want["container"] = r.Container.String()
	require.Equal(t, want, fields(t, got))

	r.VMState, r.FaultException, r.Events = vm.HaltState, "", nil
	got, err = json.Marshal(ExecutionEvent{AppExecResult: r})
	require.NoError(t, err)
	require.Nil(t, fields(t, got)["exception"])
	require.Contains(t, fields(t, got), "notifications")
	require.Nil(t, fields(t, got)["notifications"], "null, as neo-go's live record")
}

func TestNotificationEvent(t *testing.T) {
	ne := &state.NotificationEvent{ScriptHash: util.Uint160{2}, Name: "Transfer",
		Item: stackitem.NewArray([]stackitem.Item{stackitem.ByteString("a")})}
	got, err := json.Marshal(NotificationEvent{Container: util.Uint256{3}, NotificationEvent: ne})
	require.NoError(t, err)
	require.Equal(t, []string{"container", "contract", "eventname", "state"}, keys(t, got))
	plain, err := json.Marshal(ne)
	require.NoError(t, err)
	want := fields(t, plain)
	want["container"] = util.Uint256{3}.String()
	require.Equal(t, want, fields(t, got))

	// No state: an empty array, as getapplicationlog prints it.
	got, err = json.Marshal(NotificationEvent{NotificationEvent: &state.NotificationEvent{}})
	require.NoError(t, err)
	plain, err = json.Marshal(state.NotificationEvent{})
	require.NoError(t, err)
	require.Equal(t, fields(t, plain)["state"], fields(t, got)["state"])
}

func TestNotificationMessage(t *testing.T) {
	got, err := json.Marshal(Notification{JSONRPC: "2.0", Method: "event_missed", Params: []any{}})
	require.NoError(t, err)
	require.JSONEq(t, `{"jsonrpc":"2.0","method":"event_missed","params":[]}`, string(got))
	require.Equal(t, []string{"jsonrpc", "method", "params"}, keys(t, got))

	tx := &transaction.Transaction{Script: []byte{0x40}, Signers: []transaction.Signer{{}}}
	got, err = json.Marshal(MempoolEvent{Type: MempoolAdded, Tx: TxEvent{tx}})
	require.NoError(t, err)
	require.Equal(t, []string{"type", "transaction"}, keys(t, got))
	plain, err := json.Marshal(tx)
	require.NoError(t, err)
	require.Equal(t, fields(t, plain), fields(t, got)["transaction"], "getrawtransaction's values")
	ev, err := json.Marshal(TxEvent{tx})
	require.NoError(t, err)
	require.Equal(t, []string{"hash", "size", "version", "nonce", "sender", "sysfee", "netfee", "validuntilblock",
		"attributes", "signers", "script", "witnesses"}, keys(t, ev), "neo-go's order")
}
