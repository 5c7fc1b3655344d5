package state_test

import (
	"encoding/json"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/state/itemjson"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

func sampleExecution() state.AppExecResult {
	m := stackitem.NewMap()
	_ = m.Add(stackitem.ByteString("k"), stackitem.NewInt(-5))
	return state.AppExecResult{
		Container: util.Uint256{9},
		Execution: state.Execution{
			Trigger: trigger.Application, VMState: vm.HaltState, GasConsumed: 12345,
			Stack: []stackitem.Item{
				stackitem.NewInt(1), stackitem.Bool(true), stackitem.Null{}, m,
				stackitem.NewBuffer([]byte{1, 2}), stackitem.NewInterop(42),
				stackitem.NewStruct([]stackitem.Item{stackitem.ByteString("x")}),
			},
			Events: []state.NotificationEvent{{
				ScriptHash: util.Uint160{1}, Name: "Transfer",
				Item: stackitem.NewArray([]stackitem.Item{stackitem.Null{}, stackitem.NewInt(7)}),
			}},
		},
	}
}

func encodeAER(t testing.TB, a *state.AppExecResult) []byte {
	w := io.NewBufBinWriter()
	a.EncodeBinary(w.BinWriter)
	require.NoError(t, w.Err)
	return w.Bytes()
}

func TestAppExecResultRoundTrip(t *testing.T) {
	a := sampleExecution()
	b := encodeAER(t, &a)
	var back state.AppExecResult
	r := io.NewBinReaderFromBuf(b)
	back.DecodeBinary(r)
	require.NoError(t, r.Err)
	require.Equal(t, encodeAER(t, &a), encodeAER(t, &back))
	j1, err := json.Marshal(a)
	require.NoError(t, err)
	j2, err := json.Marshal(back)
	require.NoError(t, err)
	require.JSONEq(t, string(j1), string(j2))

	a.VMState = vm.FaultState
	a.FaultException = "boom"
	js, err := json.Marshal(a.Execution)
	require.NoError(t, err)
	var e state.Execution
	require.NoError(t, json.Unmarshal(js, &e))
	require.Equal(t, "boom", e.FaultException)
	require.Equal(t, vm.FaultState, e.VMState)
}

func TestItemJSONErrors(t *testing.T) {
	a := stackitem.NewArray(nil)
	require.NoError(t, a.Append(a))
	_, err := itemjson.Marshal(a)
	require.ErrorIs(t, err, itemjson.ErrCircular)
	_, err = itemjson.MarshalLimited(stackitem.ByteString("abcdef"), 10)
	require.ErrorIs(t, err, itemjson.ErrTooBig)
	for _, bad := range []string{`{"type":"Foo"}`, `{"type":"Integer","value":"x"}`, `{"type":"ByteString","value":"!"}`, `[]`} {
		_, err := itemjson.Unmarshal([]byte(bad))
		require.ErrorIs(t, err, itemjson.ErrInvalid, bad)
	}
	// A notification whose state cannot be converted prints an error text.
	js, err := json.Marshal(state.NotificationEvent{Item: a})
	require.NoError(t, err)
	require.Contains(t, string(js), `"state":"error: `)
}

func FuzzAppExecResultDecode(f *testing.F) {
	a := sampleExecution()
	f.Add(encodeAER(f, &a))
	f.Fuzz(func(t *testing.T, b []byte) {
		var x state.AppExecResult
		r := io.NewBinReaderFromBuf(b)
		x.DecodeBinary(r)
		if r.Err != nil {
			return
		}
		var y state.AppExecResult
		r2 := io.NewBinReaderFromBuf(encodeAER(t, &x))
		y.DecodeBinary(r2)
		require.NoError(t, r2.Err)
	})
}

func FuzzContractFromBytes(f *testing.F) {
	f.Add([]byte{0x40, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := state.ContractFromBytes(b)
		if err != nil {
			return
		}
		_, _ = c.Bytes() // must not panic
	})
}

func FuzzItemJSON(f *testing.F) {
	f.Add([]byte(`{"type":"Array","value":[{"type":"Integer","value":"1"},{"type":"Map","value":[{"key":{"type":"ByteString","value":"AA=="},"value":{"type":"Any"}}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		it, err := itemjson.Unmarshal(b)
		if err != nil {
			return
		}
		out, err := itemjson.Marshal(it)
		require.NoError(t, err)
		it2, err := itemjson.Unmarshal(out)
		require.NoError(t, err)
		out2, err := itemjson.Marshal(it2)
		require.NoError(t, err)
		require.Equal(t, out, out2)
	})
}
