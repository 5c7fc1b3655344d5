package vm

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func script(t *testing.T, f func(b *emit.Builder)) []byte {
	b := emit.NewBuilder()
	f(b)
	s, err := b.Script()
	require.NoError(t, err)
	return s
}

func run(t *testing.T, s []byte, setup func(v *VM)) *VM {
	v := New()
	if setup != nil {
		setup(v)
	}
	_, err := v.LoadScript(s)
	require.NoError(t, err)
	_ = v.Run() // callers check the state
	return v
}

func preGorgon(v *VM) {
	v.SetHardforkChecker(func(hf protocol.Hardfork) bool { return hf < protocol.HFGorgon })
}

func TestShiftByZeroHardfork(t *testing.T) {
	s := script(t, func(b *emit.Builder) { b.Bytes([]byte{1, 2}).Int(0).Opcodes(opcode.SHL) })
	v := run(t, s, nil)
	require.Equal(t, HaltState, v.State())
	it, err := v.ResultStack().Peek(0)
	require.NoError(t, err)
	require.Equal(t, stackitem.IntegerT, it.Type()) // converted since Gorgon

	v = run(t, s, preGorgon)
	require.Equal(t, HaltState, v.State())
	it, err = v.ResultStack().Peek(0)
	require.NoError(t, err)
	require.Equal(t, stackitem.ByteArrayT, it.Type()) // untouched before
}

func TestHasKeyBoundHardfork(t *testing.T) {
	s := script(t, func(b *emit.Builder) { b.Opcodes(opcode.NEWARRAY0).Int(200000).Opcodes(opcode.HASKEY) })
	require.Equal(t, FaultState, run(t, s, nil).State())
	v := run(t, s, preGorgon)
	require.Equal(t, HaltState, v.State())
	ok, err := v.ResultStack().PopBool()
	require.NoError(t, err)
	require.False(t, ok)
}

func TestPickItemBigIndexHardfork(t *testing.T) {
	// TRY { PICKITEM with index 2^40 } CATCH { push 7 }
	s := script(t, func(b *emit.Builder) {
		b.Instruction(opcode.TRY, []byte{3 + 1 + 9 + 1 + 2, 0})
		b.Opcodes(opcode.NEWARRAY0).Int(1 << 40).Opcodes(opcode.PICKITEM)
		b.Jump(opcode.ENDTRY, 4)
		b.Opcodes(opcode.DROP).Int(7).Opcodes(opcode.RET)
	})
	v := run(t, s, nil)
	require.Equal(t, HaltState, v.State(), "%v", v.FaultException())
	require.Equal(t, 1, v.ResultStack().Len())
	require.Equal(t, FaultState, run(t, s, preGorgon).State())
}

func TestGasAccounting(t *testing.T) {
	s := script(t, func(b *emit.Builder) { b.Int(1).Int(2).Opcodes(opcode.ADD, opcode.DROP) })
	var want int64
	for _, op := range []opcode.Opcode{opcode.PUSH1, opcode.PUSH2, opcode.ADD, opcode.DROP, opcode.RET} {
		want += OpcodePrice(op) * 30
	}
	v := run(t, s, func(v *VM) { v.SetExecFeeFactor(30) })
	require.Equal(t, HaltState, v.State())
	require.Equal(t, want, v.GasConsumed())

	v = run(t, s, func(v *VM) { v.SetExecFeeFactor(30); v.SetGasLimit(want - 1) })
	require.Equal(t, FaultState, v.State())
	require.ErrorIs(t, v.FaultException(), ErrOutOfGas)
}

func TestSyscallsAndCallT(t *testing.T) {
	id := emit.InteropID("Test.Push")
	s := script(t, func(b *emit.Builder) {
		b.SyscallID(id).Instruction(opcode.CALLT, []byte{5, 0})
	})
	var gotToken uint16
	v := run(t, s, func(v *VM) {
		v.SyscallHandler = func(v *VM, got uint32) error {
			if got != id {
				return errors.New("unexpected")
			}
			v.Estack().PushInt(42)
			return nil
		}
		v.CallTHandler = func(v *VM, tok uint16) error { gotToken = tok; return nil }
	})
	require.Equal(t, HaltState, v.State(), "%v", v.FaultException())
	require.Equal(t, uint16(5), gotToken)
	n, err := v.ResultStack().PopBigInt()
	require.NoError(t, err)
	require.EqualValues(t, 42, n.Int64())

	v = run(t, s, nil)
	require.ErrorIs(t, v.FaultException(), ErrSyscall)
}

func TestThrowFromSyscallIsCatchable(t *testing.T) {
	s := script(t, func(b *emit.Builder) {
		b.Instruction(opcode.TRY, []byte{3 + 5 + 2, 0})
		b.SyscallID(1)
		b.Jump(opcode.ENDTRY, 3)
		b.Opcodes(opcode.RET) // catch: the exception stays on the stack
	})
	v := run(t, s, func(v *VM) {
		v.SyscallHandler = func(v *VM, _ uint32) error { return v.Throw(stackitem.ByteString("boom")) }
	})
	require.Equal(t, HaltState, v.State(), "%v", v.FaultException())
	msg, err := v.ResultStack().PopBytes()
	require.NoError(t, err)
	require.Equal(t, "boom", string(msg))
}

func TestContextsAndHashes(t *testing.T) {
	inner := script(t, func(b *emit.Builder) { b.Int(5) })
	outer := script(t, func(b *emit.Builder) { b.SyscallID(1) })
	var sawCalling, sawEntry bool
	v := run(t, outer, func(v *VM) {
		v.SyscallHandler = func(v *VM, _ uint32) error {
			ctx, err := v.LoadScriptWithRetCount(inner, 1, 0)
			if err != nil {
				return err
			}
			sawCalling = v.CallingContext().ScriptHash() == hash.Hash160(outer)
			sawEntry = v.EntryContext().ScriptHash() == hash.Hash160(outer) && ctx.ScriptHash() == hash.Hash160(inner)
			return nil
		}
	})
	require.Equal(t, HaltState, v.State(), "%v", v.FaultException())
	require.True(t, sawCalling)
	require.True(t, sawEntry)
	require.Equal(t, 1, v.ResultStack().Len())
}

func TestInvocationLimit(t *testing.T) {
	s := script(t, func(b *emit.Builder) { b.Jump(opcode.CALL, 0) }) // calls itself forever
	v := run(t, s, nil)
	require.Equal(t, FaultState, v.State())
	require.ErrorIs(t, v.FaultException(), ErrInvocationOverflow)
}

func TestStackLimit(t *testing.T) {
	s := script(t, func(b *emit.Builder) { b.Int(2047).Opcodes(opcode.NEWARRAY, opcode.DUP) })
	v := run(t, s, nil)
	require.Equal(t, FaultState, v.State())
	require.ErrorIs(t, v.FaultException(), ErrStackOverflow)
}

func TestSetItemBigIndexHardfork(t *testing.T) {
	// TRY { SETITEM with index 2^40 } CATCH { push 7 }
	s := script(t, func(b *emit.Builder) {
		b.Instruction(opcode.TRY, []byte{3 + 1 + 9 + 1 + 1 + 2, 0})
		b.Opcodes(opcode.NEWARRAY0).Int(1<<40).Opcodes(opcode.PUSH1, opcode.SETITEM)
		b.Jump(opcode.ENDTRY, 4)
		b.Opcodes(opcode.DROP).Int(7).Opcodes(opcode.RET)
	})
	v := run(t, s, nil)
	require.Equal(t, HaltState, v.State(), "%v", v.FaultException())
	require.Equal(t, []stackitem.Item{stackitem.NewInt(7)}, v.ResultStack().Items())
	require.Equal(t, FaultState, run(t, s, preGorgon).State()) // the int32 cast is not catchable
}

// TestSubstrOverflowHardfork: before Echidna the reference's SUBSTR
// (ApplicationEngine.VulnerableSubStr) added index and count without an
// overflow check; the wrapped sum passed the bounds check but slicing
// then threw, so both forms FAULT and the VM needs no switch for it.
func TestSubstrOverflowHardfork(t *testing.T) {
	preEchidna := func(v *VM) {
		v.SetHardforkChecker(func(hf protocol.Hardfork) bool { return hf < protocol.HFEchidna })
	}
	for _, c := range []struct{ index, count int64 }{{math.MaxInt32, 1}, {1, math.MaxInt32}, {2, 2}} {
		s := script(t, func(b *emit.Builder) { b.Bytes([]byte{1, 2, 3}).Int(c.index).Int(c.count).Opcodes(opcode.SUBSTR) })
		for _, setup := range []func(*VM){nil, preEchidna, preGorgon} {
			v := run(t, s, setup)
			require.Equal(t, FaultState, v.State(), "%d+%d", c.index, c.count)
			require.ErrorIs(t, v.FaultException(), ErrOutOfRange)
		}
	}
	s := script(t, func(b *emit.Builder) { b.Bytes([]byte{1, 2, 3}).Int(1).Int(2).Opcodes(opcode.SUBSTR) })
	for _, setup := range []func(*VM){nil, preEchidna} {
		v := run(t, s, setup)
		require.Equal(t, HaltState, v.State())
		b, err := v.ResultStack().PopBytes()
		require.NoError(t, err)
		require.Equal(t, []byte{2, 3}, b)
	}
}

// TestResetRunsLikeNew: a VM reset after a FAULT with a caught and an
// uncaught exception, a full invocation stack and leftover items runs the
// next script exactly as a new VM with the same handlers does.
func TestResetRunsLikeNew(t *testing.T) {
	id := emit.InteropID("Test.Push")
	handler := func(v *VM, got uint32) error {
		if got != id {
			return errors.New("unexpected")
		}
		v.Estack().PushInt(7)
		return nil
	}
	dirty := script(t, func(b *emit.Builder) {
		b.Int(1).Int(2).SyscallID(id).Opcodes(opcode.NEWARRAY0, opcode.THROW)
	})
	clean := script(t, func(b *emit.Builder) {
		b.SyscallID(id).Int(5).Opcodes(opcode.ADD, opcode.NEWARRAY0, opcode.DROP)
	})
	fresh := run(t, clean, func(v *VM) { v.SyscallHandler = handler; v.SetExecFeeFactor(30) })
	require.Equal(t, HaltState, fresh.State())

	v := run(t, dirty, func(v *VM) { v.SyscallHandler = handler; v.SetExecFeeFactor(30); v.SetGasLimit(1000) })
	require.Equal(t, FaultState, v.State())
	v.Reset()
	require.Equal(t, BreakState, v.State())
	require.Zero(t, v.GasConsumed())
	require.Equal(t, int64(-1), v.GasLimit())
	require.Zero(t, v.InvocationDepth())
	require.Zero(t, v.References())
	require.Zero(t, v.ResultStack().Len())
	require.Nil(t, v.UncaughtException())
	require.NoError(t, v.FaultException())
	v.SetExecFeeFactor(30)
	_, err := v.LoadScript(clean)
	require.NoError(t, err)
	require.NoError(t, v.Run())
	require.Equal(t, fresh.GasConsumed(), v.GasConsumed())
	require.Equal(t, fresh.ResultStack().Items(), v.ResultStack().Items())
	require.Equal(t, fresh.References(), v.References())
}
