package interop_test

import (
	"math/big"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// nep17Transfer is the body of a NEP-17-shaped transfer(from, to, amount):
// CheckWitness(from), amount >= 0, balance[from] -= amount (asserting
// >= 0), balance[to] += amount, Notify("Transfer", [from, to, amount]),
// return true. Balances live under key 0x01 ‖ account.
func nep17Transfer(b *emit.Builder) {
	b.Instruction(opcode.INITSLOT, []byte{2, 3})
	b.Opcodes(opcode.LDARG0).Syscall(interop.RuntimeCheckWitness).Opcodes(opcode.ASSERT)
	b.Opcodes(opcode.LDARG2, opcode.PUSH0, opcode.GE, opcode.ASSERT)
	for i, sign := range []opcode.Opcode{opcode.SUB, opcode.ADD} {
		b.Syscall(interop.StorageGetContext).Opcodes(opcode.STLOC0)
		b.Bytes([]byte{1}).Opcodes(opcode.LDARG0+opcode.Opcode(i), opcode.CAT, opcode.STLOC1)
		b.Opcodes(opcode.LDLOC1, opcode.LDLOC0).Syscall(interop.StorageGet)
		b.Instruction(opcode.CONVERT, []byte{byte(stackitem.IntegerT)})
		b.Opcodes(opcode.LDARG2, sign, opcode.DUP, opcode.PUSH0, opcode.GE, opcode.ASSERT)
		b.Opcodes(opcode.LDLOC1, opcode.LDLOC0).Syscall(interop.StoragePut)
	}
	b.Opcodes(opcode.LDARG2, opcode.LDARG1, opcode.LDARG0, opcode.PUSH3, opcode.PACK)
	b.String("Transfer").Syscall(interop.RuntimeNotify).Opcodes(opcode.PUSHT, opcode.RET)
}

// BenchmarkNEP17Transfer runs one transfer as a transaction would: a new
// interop Context (and VM) over a private DAO layer, the entry script
// calling the deployed contract through System.Contract.Call, real
// storage, witness check and notification.
func BenchmarkNEP17Transfer(b *testing.B) {
	e := newEnv()
	h160, intT := smartcontract.Hash160Type, smartcontract.IntegerType
	c := testContract(b, e.d, 1, "token", []method{{
		name: "transfer", params: []smartcontract.ParamType{h160, h160, intT}, ret: smartcontract.BoolType, code: nep17Transfer,
	}})
	c.Manifest.ABI.Events = append(c.Manifest.ABI.Events, manifest.Event{Name: "Transfer", Parameters: []manifest.Parameter{
		manifest.NewParameter("from", h160), manifest.NewParameter("to", h160), manifest.NewParameter("amount", intT),
	}})
	require.NoError(b, e.d.PutContract(c))
	from, to := util.Uint160{1}, util.Uint160{2}
	require.NoError(b, e.d.PutStorageItem(c.ID, append([]byte{1}, from.BytesLE()...), bigint.ToBytes(big.NewInt(1_000_000_000))))
	require.NoError(b, e.d.PutStorageItem(c.ID, append([]byte{1}, to.BytesLE()...), bigint.ToBytes(big.NewInt(5))))
	e.cfg.Container = txWithSigners(transaction.Signer{Account: from, Scopes: transaction.CalledByEntry})
	e.cfg.GasLimit = 100_0000_0000
	entry := script(b, func(bb *emit.Builder) {
		bb.AppCall(c.Hash, "transfer", byte(callflag.All), from.BytesLE(), to.BytesLE(), 1000)
	})
	run := func() *interop.Context {
		ic := interop.NewContext(e.cfg, e.d.Private())
		if _, err := ic.LoadScript(entry, callflag.All, -1, 0); err != nil {
			b.Fatal(err)
		}
		if err := ic.Run(); err != nil {
			b.Fatal(err)
		}
		return ic
	}
	ic := run()
	require.Equal(b, []stackitem.Item{stackitem.Bool(true)}, ic.VM().ResultStack().Items())
	require.Len(b, ic.Notifications(), 1)
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
}
