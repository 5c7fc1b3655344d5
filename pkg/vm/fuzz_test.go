package vm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// FuzzVM runs random scripts under a gas limit: the VM must end in HALT or
// FAULT without panicking, within the limits.
func FuzzVM(f *testing.F) {
	f.Add([]byte{byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.ADD)})
	f.Add([]byte{byte(opcode.PUSH5), byte(opcode.NEWARRAY), byte(opcode.DUP), byte(opcode.PUSH0),
		byte(opcode.PUSH3), byte(opcode.SETITEM), byte(opcode.VALUES), byte(opcode.UNPACK)})
	f.Add([]byte{byte(opcode.TRY), 4, 0, byte(opcode.THROW), byte(opcode.ENDTRY), 2, byte(opcode.RET)})
	f.Add([]byte{byte(opcode.INITSLOT), 2, 0, byte(opcode.PUSH1), byte(opcode.STLOC0), byte(opcode.JMP), 0xfe})
	f.Fuzz(func(t *testing.T, script []byte) {
		v := New()
		v.SetExecFeeFactor(30)
		v.SetGasLimit(2_000_000)
		v.SyscallHandler = testSyscalls
		if _, err := v.LoadScript(script); err != nil {
			return
		}
		require.NotPanics(t, func() { _ = v.Run() })
		require.Contains(t, []State{HaltState, FaultState}, v.State())
		// A FAULT must come from a reference rule, never from a Go runtime
		// error recovered by the loop.
		require.NotErrorIs(t, v.FaultException(), ErrInternal)
		if v.State() == HaltState {
			require.LessOrEqual(t, v.References(), v.Limits().MaxStackSize)
		}
		// At most the price of the last instruction (CALLT is the dearest) may
		// pass the limit before the VM stops.
		require.LessOrEqual(t, v.GasConsumed(), 2_000_000+OpcodePrice(opcode.CALLT)*30)
	})
}
