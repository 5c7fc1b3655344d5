package vm

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// TestFaultError checks that a FAULT keeps its sentinel for errors.Is and
// the failing instruction, while reading as the reference Go node words
// it. The expected texts are neo-go v0.122.0's for the same scripts
// (../core/native/testdata/faulttexts.jsonl, which the whole-node table
// test compares in full).
func TestFaultError(t *testing.T) {
	withGas := func(v *VM) { v.SetExecFeeFactor(30); v.SetGasLimit(0) }
	failing := func(v *VM) {
		v.SyscallHandler = func(*VM, uint32) error {
			return Fault(ErrSyscall, "System.Runtime.Log failed: message length shouldn't exceed 1024", nil)
		}
	}
	for _, tc := range []struct {
		name   string
		script []byte
		setup  func(*VM)
		kind   error
		ip     int
		op     opcode.Opcode
		text   string
	}{
		{"abort", []byte{byte(opcode.NOP), byte(opcode.NOP), byte(opcode.ABORT)}, nil, ErrAbort, 2, opcode.ABORT,
			"at instruction 2 (ABORT): ABORT"},
		{"invalid opcode", []byte{0xff}, nil, ErrBadScript, 0, 0xff,
			"at instruction 0 (Opcode(255)): incorrect opcode Opcode(255)"},
		{"gas", []byte{byte(opcode.PUSH1), byte(opcode.RET)}, withGas, ErrOutOfGas, 0, opcode.PUSH1,
			"at instruction 0 (PUSH1): GAS limit exceeded"},
		{"throw", []byte{byte(opcode.PUSHDATA1), 4, 'b', 'o', 'o', 'm', byte(opcode.THROW)}, nil, ErrUnhandled, 6, opcode.THROW,
			`at instruction 6 (THROW): unhandled exception: "boom"`},
		{"throw int", []byte{byte(opcode.PUSH5), byte(opcode.THROW)}, nil, ErrUnhandled, 1, opcode.THROW,
			`at instruction 1 (THROW): unhandled exception: "\x05"`},
		{"throw map", []byte{byte(opcode.NEWMAP), byte(opcode.THROW)}, nil, ErrUnhandled, 1, opcode.THROW,
			"at instruction 1 (THROW): unhandled exception"},
		{"div", []byte{byte(opcode.PUSH1), byte(opcode.PUSH0), byte(opcode.DIV)}, nil, ErrDivideByZero, 2, opcode.DIV,
			"at instruction 2 (DIV): division by zero"},
		{"jump", []byte{byte(opcode.JMP), 100}, nil, ErrJump, 0, opcode.JMP,
			"at instruction 0 (JMP): invalid offset 100 ip at 0"},
		{"syscall text", []byte{byte(opcode.SYSCALL), 1, 2, 3, 4}, failing, ErrSyscall, 0, opcode.SYSCALL,
			"at instruction 0 (SYSCALL): System.Runtime.Log failed: message length shouldn't exceed 1024"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := run(t, tc.script, tc.setup)
			require.Equal(t, FaultState, v.State())
			err := v.FaultException()
			require.ErrorIs(t, err, tc.kind)
			var fe *FaultError
			require.True(t, errors.As(err, &fe))
			require.Equal(t, tc.ip, fe.IP)
			require.Equal(t, tc.op, fe.Op)
			require.Equal(t, tc.text, err.Error())
		})
	}
}
