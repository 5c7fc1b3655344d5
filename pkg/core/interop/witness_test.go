package interop_test

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// TestCheckWitness runs CheckWitness(account) from the entry script, from
// a contract the entry calls and from a contract that contract calls, for
// every scope and rule condition.
func TestCheckWitness(t *testing.T) {
	e := newEnv()
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	group := priv.PublicKey()
	acc := util.Uint160{0xaa}
	checker := testContract(t, e.d, 1, "checker", []method{{
		name: "check", params: []smartcontract.ParamType{smartcontract.Hash160Type}, ret: smartcontract.BoolType,
		code: func(b *emit.Builder) { b.Syscall(interop.RuntimeCheckWitness).Opcodes(opcode.RET) },
	}})
	// The checker belongs to a group (the signature is not verified here).
	grouped := *checker
	grouped.Manifest.Groups = []manifest.Group{{PublicKey: group, Signature: make([]byte, 64)}}
	require.NoError(t, e.d.PutContract(&grouped))
	proxy := testContract(t, e.d, 2, "proxy", []method{{
		name: "check", params: []smartcontract.ParamType{smartcontract.Hash160Type}, ret: smartcontract.BoolType,
		code: func(b *emit.Builder) {
			// args: [h]; call checker.check(h)
			b.Opcodes(opcode.PUSH1, opcode.PACK).Int(int64(callflag.All)).String("check").Bytes(checker.Hash.BytesLE()).
				Syscall(interop.ContractCall).Opcodes(opcode.RET)
		},
	}})
	var gp transaction.ECPoint
	copy(gp[:], group.Bytes())
	cond := func(c transaction.WitnessCondition) transaction.Signer {
		return transaction.Signer{Account: acc, Scopes: transaction.WitnessRules,
			Rules: []transaction.WitnessRule{{Action: transaction.WitnessAllow, Condition: c}}}
	}
	cases := []struct {
		name                  string
		signer                transaction.Signer
		entry, direct, nested bool
	}{
		{"None", transaction.Signer{Account: acc}, false, false, false},
		{"Global", transaction.Signer{Account: acc, Scopes: transaction.Global}, true, true, true},
		{"CalledByEntry", transaction.Signer{Account: acc, Scopes: transaction.CalledByEntry}, true, true, false},
		{"CustomContracts", transaction.Signer{Account: acc, Scopes: transaction.CustomContracts, AllowedContracts: []util.Uint160{checker.Hash}}, false, true, true},
		{"CustomGroups", transaction.Signer{Account: acc, Scopes: transaction.CustomGroups, AllowedGroups: []transaction.ECPoint{gp}}, false, true, true},
		{"Boolean", cond(transaction.WitnessCondition{Type: transaction.ConditionBoolean, Bool: true}), true, true, true},
		{"Not", cond(transaction.WitnessCondition{Type: transaction.ConditionNot, Expressions: []transaction.WitnessCondition{{Type: transaction.ConditionCalledByEntry}}}), false, false, true},
		{"And", cond(transaction.WitnessCondition{Type: transaction.ConditionAnd, Expressions: []transaction.WitnessCondition{
			{Type: transaction.ConditionCalledByEntry}, {Type: transaction.ConditionScriptHash, Hash: checker.Hash}}}), false, true, false},
		{"Or", cond(transaction.WitnessCondition{Type: transaction.ConditionOr, Expressions: []transaction.WitnessCondition{
			{Type: transaction.ConditionBoolean}, {Type: transaction.ConditionCalledByContract, Hash: proxy.Hash}}}), false, false, true},
		{"ScriptHash", cond(transaction.WitnessCondition{Type: transaction.ConditionScriptHash, Hash: checker.Hash}), false, true, true},
		{"Group", cond(transaction.WitnessCondition{Type: transaction.ConditionGroup, Group: gp}), false, true, true},
		{"CalledByEntry rule", cond(transaction.WitnessCondition{Type: transaction.ConditionCalledByEntry}), true, true, false},
		{"CalledByContract", cond(transaction.WitnessCondition{Type: transaction.ConditionCalledByContract, Hash: proxy.Hash}), false, false, true},
		{"CalledByGroup", cond(transaction.WitnessCondition{Type: transaction.ConditionCalledByGroup, Group: gp}), false, false, false},
		{"Deny", transaction.Signer{Account: acc, Scopes: transaction.WitnessRules, Rules: []transaction.WitnessRule{
			{Action: transaction.WitnessDeny, Condition: transaction.WitnessCondition{Type: transaction.ConditionBoolean, Bool: true}}}}, false, false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.cfg.Container = txWithSigners(c.signer)
			got := func(s []byte) bool {
				st := e.halt(t, s)
				require.Len(t, st, 1)
				b, err := st[0].Bool()
				require.NoError(t, err)
				return b
			}
			require.Equal(t, c.entry, got(script(t, func(b *emit.Builder) {
				b.Bytes(acc.BytesLE()).Syscall(interop.RuntimeCheckWitness)
			})), "entry")
			require.Equal(t, c.direct, got(script(t, func(b *emit.Builder) {
				b.AppCall(checker.Hash, "check", byte(callflag.All), acc.BytesLE())
			})), "direct")
			require.Equal(t, c.nested, got(script(t, func(b *emit.Builder) {
				b.AppCall(proxy.Hash, "check", byte(callflag.All), acc.BytesLE())
			})), "nested")
		})
	}
}

func TestCheckWitnessArguments(t *testing.T) {
	e := newEnv()
	priv, err := keys.NewPrivateKey()
	require.NoError(t, err)
	pub := priv.PublicKey()
	e.cfg.Container = txWithSigners(transaction.Signer{Account: pub.ScriptHash(), Scopes: transaction.CalledByEntry})
	st := e.halt(t, script(t, func(b *emit.Builder) { b.Bytes(pub.Bytes()).Syscall(interop.RuntimeCheckWitness) }))
	require.Equal(t, stackitem.Bool(true), st[0])
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.Bytes([]byte{1, 2}).Syscall(interop.RuntimeCheckWitness) })), interop.ErrInvalidArgument)
	// No container: false.
	e.cfg.Container = nil
	st = e.halt(t, script(t, func(b *emit.Builder) { b.Bytes(pub.Bytes()).Syscall(interop.RuntimeCheckWitness) }))
	require.Equal(t, stackitem.Bool(false), st[0])
}
