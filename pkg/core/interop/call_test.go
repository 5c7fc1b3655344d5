package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
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
