package vm

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
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

// TestRetKeepsCalleeStack checks the reference RET: results are copied to
// the caller's stack and stay on the callee's, so the unload hook can
// count them; the reference count is not changed by the copy.
func TestRetKeepsCalleeStack(t *testing.T) {
	inner := script(t, func(b *emit.Builder) { b.Int(1).Int(2).Opcodes(opcode.NEWARRAY0) })
	outer := script(t, func(b *emit.Builder) { b.Int(9).SyscallID(1).Opcodes(opcode.DEPTH) })
	var calleeLen, callerLen, refs int
	v := run(t, outer, func(v *VM) {
		v.SyscallHandler = func(v *VM, _ uint32) error {
			_, err := v.LoadScript(inner)
			return err
		}
		v.OnContextUnloaded = func(v *VM, ctx *Context) error {
			if cur := v.Context(); cur != nil {
				calleeLen, callerLen, refs = ctx.Estack().Len(), cur.Estack().Len(), v.References()
			}
			return nil
		}
	})
	require.Equal(t, HaltState, v.State(), "%v", v.FaultException())
	require.Equal(t, 3, calleeLen)
	require.Equal(t, 4, callerLen)
	require.Equal(t, 4, refs)
	items := v.ResultStack().Items()
	require.Len(t, items, 5)
	require.Equal(t, stackitem.NewInt(4), items[4]) // DEPTH after the call
}

// TestUnloadHookFaults checks that an error of OnContextUnloaded FAULTs
// the VM with that error, on RET and while an exception unwinds.
func TestUnloadHookFaults(t *testing.T) {
	errHook := errors.New("hook refused")
	inner := script(t, func(b *emit.Builder) { b.Int(1) })
	throwing := script(t, func(b *emit.Builder) { b.Int(1).Opcodes(opcode.THROW) })
	for name, callee := range map[string][]byte{"RET": inner, "THROW": throwing} {
		t.Run(name, func(t *testing.T) {
			// TRY { SYSCALL (loads callee) } CATCH { } ; PUSH 5
			outer := script(t, func(b *emit.Builder) {
				b.Instruction(opcode.TRY, []byte{3 + 5 + 2, 0})
				b.SyscallID(1)
				b.Jump(opcode.ENDTRY, 3)
				b.Opcodes(opcode.DROP).Int(5)
			})
			calls := 0
			setup := func(fail bool) func(v *VM) {
				return func(v *VM) {
					v.SyscallHandler = func(v *VM, _ uint32) error {
						_, err := v.LoadScript(callee)
						return err
					}
					v.OnContextUnloaded = func(v *VM, ctx *Context) error {
						calls++
						if fail && v.Context() != nil {
							return errHook
						}
						return nil
					}
				}
			}
			v := run(t, outer, setup(false))
			require.Equal(t, HaltState, v.State(), "%v", v.FaultException())
			v = run(t, outer, setup(true))
			require.Equal(t, FaultState, v.State())
			require.ErrorIs(t, v.FaultException(), errHook)
			require.ErrorContains(t, v.FaultException(), ": context unload callback failed: hook refused")
			require.Positive(t, calls)
		})
	}
}

func TestUnloadContext(t *testing.T) {
	v := New()
	_, err := v.UnloadContext()
	require.ErrorIs(t, err, ErrNoContext)
	_, err = v.LoadScript([]byte{byte(opcode.RET)})
	require.NoError(t, err)
	errHook := errors.New("no")
	v.OnContextUnloaded = func(*VM, *Context) error { return errHook }
	_, err = v.UnloadContext()
	require.ErrorIs(t, err, errHook)
	require.Equal(t, FaultState, v.State())
}
