package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// TestExecutionFaultStack: a FAULTed execution's application log carries
// the evaluation stack of the context that faulted, bottom first, as the
// reference Go node reports it (neo-go 0.120.0: a dynamic script returning
// three values leaves ["x", 7, 3], see testdata/neogo-diff in
// pkg/core/chain); a HALTed one the result stack.
func TestExecutionFaultStack(t *testing.T) {
	e := newEnv()
	// LoadScript(PUSH3, ReadOnly, 7, "x"): the callee's stack is its
	// arguments (first on top) and its result; three values FAULT.
	ic := e.run(t, script(t, func(b *emit.Builder) {
		b.Opcodes(opcode.PUSH1)
		loadScriptCall(b, []byte{byte(opcode.PUSH3)}, callflag.ReadOnly, 7, "x")
	}))
	require.Equal(t, vm.FaultState, ic.VM().State())
	ex := ic.Execution()
	require.Equal(t, []stackitem.Item{stackitem.ByteString("x"), stackitem.NewInt(7), stackitem.NewInt(3)}, ex.Stack)

	// THROW in the entry script: what is left under the exception.
	ic = e.run(t, script(t, func(b *emit.Builder) {
		b.Opcodes(opcode.PUSH4).String("boom").Opcodes(opcode.THROW)
	}))
	require.Equal(t, vm.FaultState, ic.VM().State())
	require.Equal(t, []stackitem.Item{stackitem.NewInt(4)}, ic.Execution().Stack)

	ic = e.run(t, script(t, func(b *emit.Builder) { b.Opcodes(opcode.PUSH4, opcode.PUSH5) }))
	require.Equal(t, vm.HaltState, ic.VM().State())
	require.Equal(t, []stackitem.Item{stackitem.NewInt(4), stackitem.NewInt(5)}, ic.Execution().Stack)
}

// TestExecutionFaultKeepsNotifications: a FAULTed execution's log keeps the
// notifications of contexts that returned before the fault (neo-go 0.120.0
// logs the callee's Echo of a call whose caller then ran out of GAS, see
// testdata/neogo-diff in pkg/core/chain); those of a context unloaded by a
// caught exception are dropped.
func TestExecutionFaultKeepsNotifications(t *testing.T) {
	e := newEnv()
	c := testContract(t, e.d, 1, "n", []method{
		{name: "emit", params: []smartcontract.ParamType{smartcontract_Int}, ret: voidT, code: func(b *emit.Builder) {
			b.Opcodes(opcode.PUSH1, opcode.PACK).String("Ev").Syscall(interop.RuntimeNotify).Opcodes(opcode.RET)
		}},
		{name: "emitThrow", params: []smartcontract.ParamType{smartcontract_Int}, ret: voidT, code: func(b *emit.Builder) {
			b.Opcodes(opcode.PUSH1, opcode.PACK).String("Ev").Syscall(interop.RuntimeNotify)
			b.String("boom").Opcodes(opcode.THROW)
		}},
	})
	caught := script(t, func(b *emit.Builder) { b.AppCall(c.Hash, "emitThrow", byte(callflag.All), 6) })
	ic := e.run(t, append(tryCatch(t, caught), script(t, func(b *emit.Builder) {
		b.AppCall(c.Hash, "emit", byte(callflag.All), 5).Opcodes(opcode.DROP)
		b.String("late").Opcodes(opcode.THROW)
	})...))
	require.Equal(t, vm.FaultState, ic.VM().State())
	ex := ic.Execution()
	require.NotEmpty(t, ex.FaultException)
	require.Len(t, ex.Events, 1)
	require.Equal(t, "Ev", ex.Events[0].Name)
	require.Equal(t, c.Hash, ex.Events[0].ScriptHash)
	require.True(t, stackitem.NewInt(5).Equals(ex.Events[0].Item.At(0)), "the emit call's, not the caught one's")
}
