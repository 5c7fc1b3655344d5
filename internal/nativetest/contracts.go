package nativetest

import (
	"math/big"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// Method is one method of a hand-written test contract: its name,
// parameter count, return type and code (appended to the contract's
// script in order).
type Method struct {
	Name   string
	Params int
	Return smartcontract.ParamType
	Code   []byte
}

// Deploy stores a contract with hash h (any value: tests choose it), id
// and the given methods straight into ContractManagement storage; its
// manifest may call anything and declares events (each with Any
// parameters, count given).
func (c *Chain) Deploy(h util.Uint160, id int32, methods []Method, events map[string]int) *state.Contract {
	c.t.Helper()
	m := manifest.DefaultManifest("test" + h.StringLE()[:8])
	var script []byte
	for _, md := range methods {
		ps := make([]manifest.Parameter, md.Params)
		for i := range ps {
			ps[i] = manifest.NewParameter(string(rune('a'+i)), smartcontract.AnyType)
		}
		m.ABI.Methods = append(m.ABI.Methods, manifest.Method{Name: md.Name, Parameters: ps,
			ReturnType: md.Return, Offset: len(script)})
		script = append(script, md.Code...)
	}
	for name, n := range events {
		ps := make([]manifest.Parameter, n)
		for i := range ps {
			ps[i] = manifest.NewParameter(string(rune('a'+i)), smartcontract.AnyType)
		}
		m.ABI.Events = append(m.ABI.Events, manifest.Event{Name: name, Parameters: ps})
	}
	f, err := nef.NewFile("nativetest", "", []nef.MethodToken{}, script)
	require.NoError(c.t, err)
	cs := &state.Contract{ID: id, Hash: h, NEF: *f, Manifest: *m}
	require.NoError(c.t, c.DAO.PutContract(cs))
	return cs
}

// NotifyArgs is code that packs the method's n arguments into an array
// and notifies it as event name, returning nothing.
func NotifyArgs(t testing.TB, name string, n int) []byte {
	return Script(t, emit.NewBuilder().Int(int64(n)).Opcodes(opcode.PACK).String(name).
		Syscall("System.Runtime.Notify").Opcodes(opcode.RET))
}

// PaymentReceiver deploys a contract whose onNEP17Payment notifies
// "Payment" with [from, amount, data].
func (c *Chain) PaymentReceiver(h util.Uint160, id int32) *state.Contract {
	c.t.Helper()
	return c.Deploy(h, id, []Method{{Name: "onNEP17Payment", Params: 3, Return: smartcontract.VoidType,
		Code: NotifyArgs(c.t, "Payment", 3)}}, map[string]int{"Payment": 3})
}

// Rejecter deploys a contract whose onNEP17Payment throws.
func (c *Chain) Rejecter(h util.Uint160, id int32) *state.Contract {
	c.t.Helper()
	code := Script(c.t, emit.NewBuilder().String("rejected").Opcodes(opcode.THROW))
	return c.Deploy(h, id, []Method{{Name: "onNEP17Payment", Params: 3, Return: smartcontract.VoidType, Code: code}}, nil)
}

// Proxy deploys a contract whose method call(hash, method, args) does
// System.Contract.Call(hash, method, All, args) and returns the result, so
// that a native sees the proxy as its caller.
func (c *Chain) Proxy(h util.Uint160, id int32) *state.Contract {
	c.t.Helper()
	code := Script(c.t, emit.NewBuilder().Instruction(opcode.INITSLOT, []byte{0, 3}).
		Opcodes(opcode.LDARG2, opcode.PUSH15, opcode.LDARG1, opcode.LDARG0).
		Syscall("System.Contract.Call").Opcodes(opcode.RET))
	return c.Deploy(h, id, []Method{
		{Name: "call", Params: 3, Return: smartcontract.AnyType, Code: code},
		{Name: "onNEP17Payment", Params: 3, Return: smartcontract.VoidType, Code: NotifyArgs(c.t, "Payment", 3)},
	}, map[string]int{"Payment": 3})
}

// ProxyCall is the script calling method of contract target with args
// through proxy.
func ProxyCall(t testing.TB, proxy, target util.Uint160, method string, args ...any) []byte {
	t.Helper()
	return CallScript(t, proxy, "call", target, method, args)
}

// Halt requires r to have HALTed with one result and returns it.
func (r *Result) Halt(t testing.TB) stackitem.Item {
	t.Helper()
	require.Equal(t, vm.HaltState, r.State, "fault: %v", r.Fault)
	require.Len(t, r.Stack, 1)
	return r.Stack[0]
}

// Faults requires r to have FAULTed with an error containing substr.
func (r *Result) Faults(t testing.TB, substr string) {
	t.Helper()
	require.Equal(t, vm.FaultState, r.State)
	require.ErrorContains(t, r.Fault, substr)
}

// EventsNamed returns r's notifications called name from contract h.
func (r *Result) EventsNamed(h util.Uint160, name string) []state.NotificationEvent {
	var out []state.NotificationEvent
	for _, e := range r.Events {
		if e.ScriptHash == h && e.Name == name {
			out = append(out, e)
		}
	}
	return out
}

// Int converts it to an int64.
func Int(t testing.TB, it stackitem.Item) int64 {
	t.Helper()
	n := BigInt(t, it)
	require.True(t, n.IsInt64(), n)
	return n.Int64()
}

// BigInt converts it to an integer.
func BigInt(t testing.TB, it stackitem.Item) *big.Int {
	t.Helper()
	n, err := it.BigInt()
	require.NoError(t, err)
	return n
}

// Bool converts it to a boolean.
func Bool(t testing.TB, it stackitem.Item) bool {
	t.Helper()
	b, err := it.Bool()
	require.NoError(t, err)
	return b
}

// Bytes converts it to bytes.
func Bytes(t testing.TB, it stackitem.Item) []byte {
	t.Helper()
	b, err := it.Bytes()
	require.NoError(t, err)
	return b
}

// Items returns the elements of an Array or Struct.
func Items(t testing.TB, it stackitem.Item) []stackitem.Item {
	t.Helper()
	a, ok := it.(*stackitem.Array)
	require.True(t, ok, "not an array: %T", it)
	return a.Items()
}

// Hashes of the natives, for scripts.
var (
	NeoHash      = smartcontract.CreateNativeContractHash(native.NeoName)
	GasHash      = smartcontract.CreateNativeContractHash(native.GasName)
	PolicyHash   = smartcontract.CreateNativeContractHash(native.PolicyName)
	DesignHash   = smartcontract.CreateNativeContractHash(native.DesignateName)
	OracleHash   = smartcontract.CreateNativeContractHash(native.OracleName)
	NotaryHash   = smartcontract.CreateNativeContractHash(native.NotaryName)
	TreasuryHash = smartcontract.CreateNativeContractHash(native.TreasuryName)
)
