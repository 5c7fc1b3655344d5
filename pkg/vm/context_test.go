package vm

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// initScript is a contract-shaped script: "main" at 0 returns static 0
// plus its argument, "_initialize" at the returned offset sets static 0.
func initScript(t *testing.T) ([]byte, int) {
	b := emit.NewBuilder()
	b.Instruction(opcode.INITSLOT, []byte{0, 1})
	b.Opcodes(opcode.LDSFLD0, opcode.LDARG0, opcode.ADD, opcode.RET)
	init := b.Len()
	b.Instruction(opcode.INITSSLOT, []byte{1}).Int(40).Opcodes(opcode.STSFLD0, opcode.RET)
	s, err := b.Script()
	require.NoError(t, err)
	return s, init
}

// TestCloneSharesStatics runs an initializer in a clone of the called
// context, as the reference does for _initialize: the clone sets the
// static fields the method then reads, its RET leaves nothing on the
// shared stack and does not release the shared statics.
func TestCloneSharesStatics(t *testing.T) {
	s, init := initScript(t)
	v := New()
	ctx, err := v.LoadScriptWithRetCount(s, 1, 0)
	require.NoError(t, err)
	ctx.Estack().PushInt(2)
	cl := ctx.Clone(init)
	require.Equal(t, init, cl.IP())
	require.Equal(t, 0, cl.RetCount())
	require.Same(t, ctx.Estack(), cl.Estack())
	require.Same(t, ctx.ScriptRef(), cl.ScriptRef())
	require.NoError(t, v.LoadContext(cl))
	require.NoError(t, v.Run())
	require.Equal(t, 1, v.ResultStack().Len())
	n, err := v.ResultStack().PopBigInt()
	require.NoError(t, err)
	require.EqualValues(t, 42, n.Int64())
	require.Equal(t, 0, v.References())

	// Without the initializer the static slot does not exist: FAULT.
	v = New()
	ctx, err = v.LoadScriptWithRetCount(s, 1, 0)
	require.NoError(t, err)
	ctx.Estack().PushInt(2)
	require.ErrorIs(t, v.Run(), ErrSlot)
}

func TestCloneOutOfScript(t *testing.T) {
	s, _ := initScript(t)
	v := New()
	ctx, err := v.LoadScript(s)
	require.NoError(t, err)
	require.ErrorIs(t, v.LoadContext(ctx.Clone(len(s)+1)), ErrJump)
	require.ErrorIs(t, v.LoadContext(ctx.Clone(-1)), ErrJump)
	require.NoError(t, v.LoadContext(ctx.Clone(len(s)))) // RET at the end
	require.Equal(t, 2, v.InvocationDepth())
}
