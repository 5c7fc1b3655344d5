package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// withTokens redeploys c with the given method tokens in its NEF.
func withTokens(t *testing.T, d *dao.DAO, c *state.Contract, tokens []nef.MethodToken) *state.Contract {
	t.Helper()
	nf, err := nef.NewFile("test", "", tokens, c.NEF.Script)
	require.NoError(t, err)
	cp := *c
	cp.NEF = *nf
	require.NoError(t, d.PutContract(&cp))
	return &cp
}

func callt(tok uint16) func(b *emit.Builder) {
	return func(b *emit.Builder) {
		b.Instruction(opcode.CALLT, []byte{byte(tok), byte(tok >> 8)}).Opcodes(opcode.RET)
	}
}

// TestCallT runs CALLT the reference way (OnCallT): the token's argument
// count is popped (first argument on top), the token's flags are
// intersected with the caller's, the return flag must match the method,
// and the current context needs ReadStates|AllowCall and a contract.
func TestCallT(t *testing.T) {
	e := newEnv()
	intT := smartcontract.IntegerType
	callee := testContract(t, e.d, 1, "callee", []method{
		{name: "sub", params: []smartcontract.ParamType{intT, intT}, ret: intT, code: func(b *emit.Builder) {
			b.Instruction(opcode.INITSLOT, []byte{0, 2}).Opcodes(opcode.LDARG0, opcode.LDARG1, opcode.SUB, opcode.RET)
		}},
		{name: "flags", ret: intT, code: func(b *emit.Builder) { b.Syscall(interop.ContractGetCallFlags).Opcodes(opcode.RET) }},
		{name: "void", ret: voidT, code: func(b *emit.Builder) { b.Opcodes(opcode.RET) }},
	})
	caller := testContract(t, e.d, 2, "caller", []method{
		{name: "sub", ret: intT, code: func(b *emit.Builder) { b.Int(2).Int(7); callt(0)(b) }},
		{name: "flags", ret: intT, code: callt(1)},
		{name: "void", ret: voidT, code: callt(2)},
		{name: "mismatch", ret: voidT, code: callt(3)},
		{name: "outofrange", ret: voidT, code: callt(9)},
		{name: "underflow", ret: intT, code: func(b *emit.Builder) { b.Int(1); callt(0)(b) }},
		{name: "missing", ret: voidT, code: callt(4)},
	})
	caller = withTokens(t, e.d, caller, []nef.MethodToken{
		{Hash: callee.Hash, Method: "sub", ParamCount: 2, HasReturn: true, CallFlag: callflag.All},
		{Hash: callee.Hash, Method: "flags", HasReturn: true, CallFlag: callflag.ReadStates | callflag.AllowNotify},
		{Hash: callee.Hash, Method: "void", CallFlag: callflag.All},
		{Hash: callee.Hash, Method: "void", HasReturn: true, CallFlag: callflag.All},
		{Hash: util.Uint160{1, 2, 3}, Method: "void", CallFlag: callflag.All},
	})
	call := func(m string, f callflag.CallFlag) []byte {
		return script(t, func(b *emit.Builder) { b.AppCall(caller.Hash, m, byte(f)) })
	}
	st := e.halt(t, call("sub", callflag.All))
	require.Equal(t, []stackitem.Item{stackitem.NewInt(5)}, st, "7 - 2: the first argument is the top item")
	st = e.halt(t, call("flags", callflag.All))
	require.Equal(t, []stackitem.Item{stackitem.NewInt(int64(callflag.ReadStates | callflag.AllowNotify))}, st)
	st = e.halt(t, call("flags", callflag.ReadStates|callflag.AllowCall))
	require.Equal(t, []stackitem.Item{stackitem.NewInt(int64(callflag.ReadStates))}, st, "limited by the caller's flags")
	st = e.halt(t, call("void", callflag.All))
	require.Equal(t, []stackitem.Item{stackitem.Null{}}, st) // the caller's dynamic call of a void method

	for _, m := range []string{"mismatch", "outofrange", "underflow"} {
		require.ErrorIs(t, e.fault(t, call(m, callflag.All)), vm.ErrCallT, m)
	}
	require.ErrorIs(t, e.fault(t, call("missing", callflag.All)), interop.ErrContractNotFound)
	require.ErrorIs(t, e.fault(t, call("sub", callflag.ReadStates)), interop.ErrMissingFlags)
	require.ErrorIs(t, e.fault(t, call("sub", callflag.AllowCall)), interop.ErrMissingFlags)
	// A script that is not a contract has no tokens.
	require.ErrorIs(t, e.fault(t, script(t, callt(0))), interop.ErrInvalidArgument)

}
