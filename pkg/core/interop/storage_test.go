package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

var byteArr = smartcontract.ByteArrayType

func storageContract(t *testing.T, d *dao.DAO) []method {
	return []method{
		{name: "put", params: []smartcontract.ParamType{byteArr, byteArr}, ret: voidT, code: func(b *emit.Builder) {
			b.Syscall(interop.StorageGetContext).Syscall(interop.StoragePut).Opcodes(opcode.RET)
		}},
		{name: "get", params: []smartcontract.ParamType{byteArr}, ret: byteArr, code: func(b *emit.Builder) {
			b.Syscall(interop.StorageGetContext).Syscall(interop.StorageGet).Opcodes(opcode.RET)
		}},
		{name: "putro", params: []smartcontract.ParamType{byteArr, byteArr}, ret: voidT, code: func(b *emit.Builder) {
			b.Syscall(interop.StorageGetReadOnlyContext).Syscall(interop.StoragePut).Opcodes(opcode.RET)
		}},
		{name: "putthrow", params: []smartcontract.ParamType{byteArr, byteArr}, ret: voidT, code: func(b *emit.Builder) {
			b.Syscall(interop.StorageGetContext).Syscall(interop.StoragePut).
				Int(1).Opcodes(opcode.PUSH1, opcode.PACK).String("Ev").Syscall(interop.RuntimeNotify).
				String("fail").Opcodes(opcode.THROW)
		}},
	}
}

func TestStoragePutGetFees(t *testing.T) {
	e := newEnv()
	c := testContract(t, e.d, 7, "st", storageContract(t, e.d))
	call := func(m string, args ...any) []byte {
		return script(t, func(b *emit.Builder) { b.AppCall(c.Hash, m, byte(callflag.All), args...) })
	}
	ic := e.run(t, call("put", []byte("k"), []byte("value")))
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	v, err := e.d.GetStorageItem(7, []byte("k"))
	require.NoError(t, err)
	require.Equal(t, []byte("value"), v)
	st := e.halt(t, call("get", []byte("k")))
	require.Equal(t, stackitem.ByteString("value"), st[0])
	st = e.halt(t, call("get", []byte("nokey")))
	require.Equal(t, stackitem.Null{}, st[0])
	require.ErrorIs(t, e.fault(t, call("putro", []byte("k"), []byte("v"))), interop.ErrNotAllowed)
	require.ErrorIs(t, e.fault(t, call("put", make([]byte, 65), []byte("v"))), interop.ErrInvalidArgument)
	// Storage needs a deployed contract.
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.Syscall(interop.StorageGetContext) })), interop.ErrNotAllowed)

	// Fee sizes of the reference Put.
	require.Equal(t, 1+5, interop.PutFeeSize(1, 5, 0, false))
	require.Equal(t, 0, interop.PutFeeSize(1, 0, 5, true))
	require.Equal(t, 1, interop.PutFeeSize(1, 4, 5, true))
	require.Equal(t, 2, interop.PutFeeSize(1, 5, 5, true))
	require.Equal(t, 7, interop.PutFeeSize(1, 7, 0, true))
	require.Equal(t, 2+3, interop.PutFeeSize(1, 8, 5, true))
}

// TestCallRollback: a callee's storage writes and notifications survive
// only if it returns; an exception caught by the caller drops them.
func TestCallRollback(t *testing.T) {
	e := newEnv()
	c := testContract(t, e.d, 7, "st", storageContract(t, e.d))
	b := emit.NewBuilder()
	b.AppCall(c.Hash, "put", byte(callflag.All), []byte("a"), []byte("1")).Opcodes(opcode.DROP)
	// TRY { putthrow("b","2"); DROP } CATCH { DROP }
	try := b.Len()
	b.Instruction(opcode.TRY, []byte{0, 0})
	b.AppCall(c.Hash, "putthrow", byte(callflag.All), []byte("b"), []byte("2")).Opcodes(opcode.DROP)
	endTry := b.Len()
	b.Instruction(opcode.ENDTRY, []byte{0})
	catch := b.Len()
	b.Opcodes(opcode.DROP)
	end := b.Len()
	s, err := b.Script()
	require.NoError(t, err)
	s[try+1] = byte(catch - try)
	s[endTry+1] = byte(end - endTry)
	ic := e.run(t, s)
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	_, err = e.d.GetStorageItem(7, []byte("a"))
	require.NoError(t, err)
	_, err = e.d.GetStorageItem(7, []byte("b"))
	require.True(t, dao.IsNotFound(err), "the write of the failed call is dropped")
	require.Empty(t, ic.Notifications(), "the notification of the failed call is dropped")
}
