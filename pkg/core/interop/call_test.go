package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// TestInitializeSharesStatics calls a contract whose _initialize sets a
// static field the called method reads: the reference runs _initialize in
// a clone of the method's context before the method.
func TestInitializeSharesStatics(t *testing.T) {
	e := newEnv()
	c := testContract(t, e.d, 1, "init", []method{
		{name: "get", ret: smartcontract_Int, code: func(b *emit.Builder) {
			b.Opcodes(opcode.LDSFLD0, opcode.LDSFLD1, opcode.ADD, opcode.RET)
		}},
		{name: "_initialize", ret: voidT, code: func(b *emit.Builder) {
			b.Instruction(opcode.INITSSLOT, []byte{2}).Int(40).Opcodes(opcode.STSFLD0).
				Syscall(interop.RuntimeGetInvocationCounter).Opcodes(opcode.STSFLD1, opcode.RET)
		}},
	})
	st := e.halt(t, script(t, func(b *emit.Builder) {
		b.AppCall(c.Hash, "get", byte(callflag.All))
		b.AppCall(c.Hash, "get", byte(callflag.All))
	}))
	// Each call initialises afresh; the invocation counter grows.
	require.Equal(t, []stackitem.Item{stackitem.NewInt(41), stackitem.NewInt(42)}, st)
}

// loadScriptCall emits System.Runtime.LoadScript(s, flags, args).
func loadScriptCall(b *emit.Builder, s []byte, flags callflag.CallFlag, args ...any) {
	b.Array(args...).Int(int64(flags)).Bytes(s).Syscall(interop.RuntimeLoadScript)
}

// TestDynamicCallReturnCount: a dynamic script returning nothing leaves
// Null, one value is passed up, several FAULT (reference
// ContextUnloaded), and a contract method's declared count is enforced by
// the VM's RET.
func TestDynamicCallReturnCount(t *testing.T) {
	e := newEnv()
	st := e.halt(t, script(t, func(b *emit.Builder) {
		loadScriptCall(b, []byte{byte(opcode.RET)}, callflag.All)
		loadScriptCall(b, []byte{byte(opcode.PUSH5)}, callflag.All)
		loadScriptCall(b, []byte{byte(opcode.NOP)}, callflag.All, 7) // arguments are the callee's stack
	}))
	require.Len(t, st, 3)
	require.Equal(t, stackitem.Null{}, st[0])
	require.True(t, stackitem.NewInt(5).Equals(st[1]))
	require.True(t, stackitem.NewInt(7).Equals(st[2]))

	err := e.fault(t, script(t, func(b *emit.Builder) {
		loadScriptCall(b, []byte{byte(opcode.NOP)}, callflag.All, 7, 8)
	}))
	require.ErrorContains(t, err, "multiple return values")
	// It is a FAULT, not an exception: TRY does not catch it.
	err = e.fault(t, tryCatch(t, script(t, func(b *emit.Builder) {
		loadScriptCall(b, []byte{byte(opcode.NOP)}, callflag.All, 7, 8)
	})))
	require.ErrorContains(t, err, "multiple return values")

	c := testContract(t, e.d, 1, "two", []method{{name: "two", ret: smartcontract_Int, code: func(b *emit.Builder) {
		b.Opcodes(opcode.PUSH1, opcode.PUSH2, opcode.RET)
	}}})
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.AppCall(c.Hash, "two", byte(callflag.All)) })), vm.ErrReturnCount)
}

// fakeNative is a native contract whose every method calls method
// "target" of contract callee through CallFromNative.
type fakeNative struct {
	hash, callee util.Uint160
	after        int
}

func (n *fakeNative) Hash() util.Uint160                     { return n.hash }
func (n *fakeNative) IsActive(*interop.Context, uint32) bool { return true }
func (n *fakeNative) OnPersist(*interop.Context) error       { return nil }
func (n *fakeNative) PostPersist(*interop.Context) error     { return nil }
func (n *fakeNative) ByHash(h util.Uint160) interop.NativeContract {
	if h == n.hash {
		return n
	}
	return nil
}
func (n *fakeNative) List() []interop.NativeContract { return []interop.NativeContract{n} }

func (n *fakeNative) Invoke(ic *interop.Context, _ byte) error {
	return ic.CallFromNative(n.hash, n.callee, "target", nil, false, func(*interop.Context) error {
		n.after++
		return nil
	})
}

// TestCallFromNativeThrowFaults: an exception escaping a contract that a
// native called FAULTs the VM even under the caller's TRY; a normal return
// runs the native's continuation.
func TestCallFromNativeThrowFaults(t *testing.T) {
	for _, throw := range []bool{false, true} {
		e := newEnv()
		target := testContract(t, e.d, 1, "target", []method{{name: "target", ret: voidT, code: func(b *emit.Builder) {
			if throw {
				b.String("boom").Opcodes(opcode.THROW)
			}
			b.Opcodes(opcode.RET)
		}}})
		nat := testContract(t, e.d, -1, "native", []method{{name: "run", ret: voidT, code: func(b *emit.Builder) {
			b.Opcodes(opcode.PUSH0).Syscall(interop.ContractCallNative).Opcodes(opcode.RET)
		}}})
		n := &fakeNative{hash: nat.Hash, callee: target.Hash}
		e.cfg.Natives = n
		// TRY { native.run() } CATCH { DROP; PUSH7 }
		call := script(t, func(b *emit.Builder) { b.AppCall(nat.Hash, "run", byte(callflag.All)) })
		ic := e.run(t, tryCatch(t, call))
		if !throw {
			require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
			require.Equal(t, 1, n.after)
			continue
		}
		require.Equal(t, vm.FaultState, ic.VM().State())
		require.ErrorContains(t, ic.VM().FaultException(), "context unload callback failed: unhandled exception, uncaught exception: ByteString")
		require.Equal(t, 0, n.after)
		ex := ic.Execution()
		require.Equal(t, vm.FaultState, ex.VMState)
		require.NotEmpty(t, ex.FaultException)
	}
}

// tryCatch wraps body in TRY { body } CATCH { DROP; PUSH7 }.
func tryCatch(t *testing.T, body []byte) []byte {
	t.Helper()
	b := emit.NewBuilder()
	// TRY_L catch offset: TRY_L(9) + body + ENDTRY_L(5).
	catch := 9 + len(body) + 5
	b.Instruction(opcode.TRY_L, append(le32(catch), le32(0)...))
	s, err := b.Script()
	require.NoError(t, err)
	s = append(s, body...)
	end := emit.NewBuilder().Jump(opcode.ENDTRY_L, 5+2).Opcodes(opcode.DROP, opcode.PUSH7)
	tail, err := end.Script()
	require.NoError(t, err)
	return append(s, tail...)
}

func le32(n int) []byte { return []byte{byte(n), byte(n >> 8), byte(n >> 16), byte(n >> 24)} }

// TestLoadScript: flags are those asked for, limited by the caller's and
// by ReadOnly; the script is validated in strict mode; the loaded script
// is its own executing and entry-relative context.
func TestLoadScript(t *testing.T) {
	e := newEnv()
	entry := script(t, func(b *emit.Builder) {
		loadScriptCall(b, script(t, func(b *emit.Builder) { b.Syscall(interop.ContractGetCallFlags) }), callflag.All)
		loadScriptCall(b, script(t, func(b *emit.Builder) { b.Syscall(interop.ContractGetCallFlags) }), callflag.ReadStates)
		loadScriptCall(b, script(t, func(b *emit.Builder) { b.Syscall(interop.RuntimeGetCallingScriptHash) }), callflag.None)
	})
	st := e.halt(t, entry)
	require.Len(t, st, 3)
	require.True(t, stackitem.NewInt(int64(callflag.ReadOnly)).Equals(st[0]), "All & ReadOnly")
	require.True(t, stackitem.NewInt(int64(callflag.ReadStates)).Equals(st[1]))
	require.Equal(t, stackitem.ByteString(hash.Hash160(entry).BytesLE()), st[2])

	// Strict mode: a jump into an operand, a truncated instruction or an
	// undefined opcode FAULT at load time, even under TRY.
	for _, bad := range [][]byte{
		{byte(opcode.JMP), 3, byte(opcode.PUSHINT8), 5, byte(opcode.RET)},
		{byte(opcode.PUSHDATA1), 5},
		{byte(opcode.RET), 0xff},
	} {
		err := e.fault(t, tryCatch(t, script(t, func(b *emit.Builder) { loadScriptCall(b, bad, callflag.All) })))
		require.ErrorIs(t, err, vm.ErrBadScript)
	}
	// Call flags outside All.
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) {
		loadScriptCall(b, []byte{byte(opcode.RET)}, callflag.All+1)
	})), interop.ErrInvalidArgument)
	// It needs AllowCall.
	ic := interop.NewContext(e.cfg, e.d)
	_, err := ic.LoadScript(script(t, func(b *emit.Builder) { loadScriptCall(b, []byte{byte(opcode.RET)}, callflag.All) }), callflag.ReadStates, -1, 0)
	require.NoError(t, err)
	require.ErrorIs(t, ic.Run(), interop.ErrMissingFlags)
}
