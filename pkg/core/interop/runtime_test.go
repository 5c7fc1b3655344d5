package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

func TestRuntimeValues(t *testing.T) {
	e := newEnv()
	s := script(t, func(b *emit.Builder) {
		b.Syscall(interop.RuntimePlatform).Syscall(interop.RuntimeGetNetwork).
			Syscall(interop.RuntimeGetAddressVersion).Syscall(interop.RuntimeGetTrigger).
			Syscall(interop.RuntimeGetTime).Syscall(interop.RuntimeGetExecutingScriptHash).
			Syscall(interop.RuntimeGetEntryScriptHash).Syscall(interop.RuntimeGetCallingScriptHash).
			Syscall(interop.RuntimeGetInvocationCounter).Syscall(interop.ContractGetCallFlags).
			Syscall(interop.RuntimeCurrentSigners)
	})
	st := e.halt(t, s)
	h := hash.Hash160(s)
	want := []stackitem.Item{
		stackitem.ByteString("NEO"), stackitem.NewInt(42), stackitem.NewInt(0x35),
		stackitem.NewInt(0x40), stackitem.NewInt(1234), stackitem.ByteString(h.BytesLE()),
		stackitem.ByteString(h.BytesLE()), stackitem.Null{}, stackitem.NewInt(1),
		stackitem.NewInt(int64(callflag.All)), stackitem.Null{},
	}
	require.Len(t, st, len(want))
	for i := range want {
		require.True(t, want[i].Equals(st[i]), "item %d: %s vs %s", i, want[i], st[i])
	}
}

// TestSyscallPrice checks the fixed price × exec fee factor on top of the
// opcode prices.
func TestSyscallPrice(t *testing.T) {
	e := newEnv()
	ic := e.run(t, script(t, func(b *emit.Builder) { b.Syscall(interop.RuntimeGetNetwork) }))
	require.Equal(t, vm.HaltState, ic.VM().State())
	want := (vm.OpcodePrice(opcode.SYSCALL) + vm.OpcodePrice(opcode.RET) + 1<<3) * 30
	require.Equal(t, want, ic.VM().GasConsumed())
}

func TestMissingFlagsAndUnknown(t *testing.T) {
	e := newEnv()
	ic := interop.NewContext(e.cfg, e.d)
	_, err := ic.LoadScript(script(t, func(b *emit.Builder) { b.Int(1).Syscall(interop.RuntimeLog) }), callflag.ReadOnly, -1, 0)
	require.NoError(t, err)
	require.ErrorIs(t, ic.Run(), interop.ErrMissingFlags)
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.SyscallID(0x01020304) })), interop.ErrUnknownSyscall)
	// Local storage syscalls do not exist before Faun.
	e.cfg.HardforkEnabled = func(hf protocol.Hardfork, _ uint32) bool { return hf < protocol.HFFaun }
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.Bytes([]byte{1}).Syscall(interop.StorageLocalGet) })), interop.ErrUnknownSyscall)
}

func TestBurnGasAndRandom(t *testing.T) {
	e := newEnv()
	ic := e.run(t, script(t, func(b *emit.Builder) { b.Int(1000).Syscall(interop.RuntimeBurnGas) }))
	require.Equal(t, vm.HaltState, ic.VM().State())
	require.Equal(t, (vm.OpcodePrice(opcode.PUSHINT16)+vm.OpcodePrice(opcode.SYSCALL)+vm.OpcodePrice(opcode.RET)+1<<4)*30+1000, ic.VM().GasConsumed())
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.Int(0).Syscall(interop.RuntimeBurnGas) })), interop.ErrInvalidArgument)

	st := e.halt(t, script(t, func(b *emit.Builder) {
		b.Syscall(interop.RuntimeGetRandom).Syscall(interop.RuntimeGetRandom)
	}))
	require.False(t, st[0].Equals(st[1]), "two draws differ")
	st2 := e.halt(t, script(t, func(b *emit.Builder) {
		b.Syscall(interop.RuntimeGetRandom).Syscall(interop.RuntimeGetRandom)
	}))
	require.True(t, st[0].Equals(st2[0]), "deterministic for the same container and block")
}

func TestNotifyValidation(t *testing.T) {
	e := newEnv()
	c := testContract(t, e.d, 1, "n", []method{
		{name: "notify", params: []smartcontract.ParamType{smartcontract_Int}, ret: voidT, code: func(b *emit.Builder) {
			b.Opcodes(opcode.PUSH1, opcode.PACK).String("Ev").Syscall(interop.RuntimeNotify).Opcodes(opcode.RET)
		}},
		{name: "bad", ret: voidT, code: func(b *emit.Builder) {
			b.String("x").Opcodes(opcode.PUSH1, opcode.PACK).String("Ev").Syscall(interop.RuntimeNotify).Opcodes(opcode.RET)
		}},
		{name: "unknown", ret: voidT, code: func(b *emit.Builder) {
			b.Opcodes(opcode.PUSH0, opcode.PACK).String("Nope").Syscall(interop.RuntimeNotify).Opcodes(opcode.RET)
		}},
	})
	ic := e.run(t, script(t, func(b *emit.Builder) { b.AppCall(c.Hash, "notify", byte(callflag.All), 5) }))
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	require.Len(t, ic.Notifications(), 1)
	n := ic.Notifications()[0]
	require.Equal(t, c.Hash, n.ScriptHash)
	require.Equal(t, "Ev", n.Name)
	require.True(t, stackitem.NewInt(5).Equals(n.Item.At(0)))
	// The dynamic call of a void method leaves Null.
	require.Equal(t, []stackitem.Item{stackitem.Null{}}, ic.VM().ResultStack().Items())

	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.AppCall(c.Hash, "bad", byte(callflag.All)) })), interop.ErrInvalidArgument)
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.AppCall(c.Hash, "unknown", byte(callflag.All)) })), interop.ErrNotAllowed)
	// Dynamic scripts may not notify.
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) {
		b.Opcodes(opcode.PUSH0, opcode.PACK).String("Ev").Syscall(interop.RuntimeNotify)
	})), interop.ErrNotAllowed)
	// Before Basilisk the manifest is not consulted.
	e.cfg.HardforkEnabled = func(protocol.Hardfork, uint32) bool { return false }
	ic = e.run(t, script(t, func(b *emit.Builder) { b.AppCall(c.Hash, "unknown", byte(callflag.All)) }))
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
}

// TestOpcodeHardforkHeight: without a persisting block the reference picks
// the jump table by the Ledger's height, while syscalls see configured
// hardforks as enabled. SHL by zero shows which table is in force: before
// Gorgon it leaves the ByteString untouched.
func TestOpcodeHardforkHeight(t *testing.T) {
	e := newEnv()
	e.cfg.HardforkEnabled = func(hf protocol.Hardfork, h uint32) bool { return hf != protocol.HFGorgon || h >= 100 }
	s := script(t, func(b *emit.Builder) { b.Bytes([]byte{1, 2}).Int(0).Opcodes(opcode.SHL) })
	typ := func() stackitem.Type {
		st := e.halt(t, s)
		require.Len(t, st, 1)
		return st[0].Type()
	}
	e.cfg.Block.Index = 99
	require.Equal(t, stackitem.ByteArrayT, typ())
	e.cfg.Block.Index = 100
	require.Equal(t, stackitem.IntegerT, typ())

	e.cfg.Block = nil
	require.Equal(t, stackitem.IntegerT, typ()) // no height given: configured means enabled
	h := uint32(50)
	e.cfg.OpcodeHeight = &h
	require.Equal(t, stackitem.ByteArrayT, typ())
	require.True(t, interop.NewContext(e.cfg, e.d).IsHardforkEnabled(protocol.HFGorgon), "syscalls: configured")
	h = 100
	require.Equal(t, stackitem.IntegerT, typ())
}
