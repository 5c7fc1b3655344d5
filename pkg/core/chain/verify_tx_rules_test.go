package chain

import (
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

var push1 = []byte{byte(opcode.PUSH1)}

// requireHalted checks that the transactions of the last block ran.
func (kc *keyChain) requireHalted(txs ...*transaction.Transaction) {
	for _, tx := range txs {
		res, err := kc.c.GetAppExecResults(tx.Hash(), trigger.Application)
		require.NoError(kc.t, err)
		require.Equal(kc.t, vm.HaltState, res[0].VMState, res[0].FaultException)
	}
}

// deployVerify deploys a contract whose verify method returns true and
// returns its hash.
func (kc *keyChain) deployVerify() util.Uint160 {
	f, err := nef.NewFile("n3d-test", "", nil, []byte{byte(opcode.PUSHT), byte(opcode.RET)})
	require.NoError(kc.t, err)
	raw, err := f.Bytes()
	require.NoError(kc.t, err)
	m := manifest.DefaultManifest("AlwaysTrue")
	m.ABI.Methods = []manifest.Method{{Name: "verify", ReturnType: smartcontract.BoolType, Safe: true,
		Parameters: []manifest.Parameter{}}}
	mj, err := m.MarshalJSON()
	require.NoError(kc.t, err)
	mgmt := kc.natives().Core.Management.Metadata().Hash
	deploy := kc.tx(script(kc.t, emit.NewBuilder().AppCall(mgmt, "deploy", byte(callflag.All), raw, mj).Opcodes(opcode.DROP)),
		func(tx *transaction.Transaction) { tx.SystemFee = 20_0000_0000 })
	kc.add(deploy)
	kc.requireHalted(deploy)
	return smartcontract.CreateContractHash(kc.acc, f.Checksum, "AlwaysTrue")
}

// TestVerifyTxRules breaks every verification rule once, each time next
// to a transaction that differs only in the broken detail and passes.
func TestVerifyTxRules(t *testing.T) {
	kc := newKeyChain(t)
	c := kc.c
	notaryAssisted := transaction.Attribute{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 1}}
	require.ErrorContains(t, c.VerifyTx(kc.tx(push1, attrs(notaryAssisted))), "NotaryAssisted before Echidna")
	for c.BlockHeight() < 5 { // Echidna
		kc.add()
	}
	gas := kc.natives().Governance.GAS.Metadata().Hash
	policy := kc.natives().Core.Policy.Metadata().Hash
	blocked := util.Uint160{3}
	setup := []*transaction.Transaction{
		kc.tx(kc.call(gas, "transfer", kc.acc, kc.acc2, 10_0000_0000, nil)),
		kc.tx(kc.call(policy, "blockAccount", blocked)),
		kc.tx(script(t, emit.NewBuilder().AppCall(policy, "setAttributeFee", byte(callflag.All),
			int64(transaction.AttrConflicts), 1000))),
	}
	kc.add(setup...)
	kc.requireHalted(setup...)
	h := c.BlockHeight()

	ok := func(t *testing.T, tx *transaction.Transaction) { t.Helper(); require.NoError(t, c.VerifyTx(tx)) }
	fails := func(t *testing.T, tx *transaction.Transaction, want error, text string) {
		t.Helper()
		err := c.VerifyTx(tx)
		require.ErrorIs(t, err, want)
		require.ErrorContains(t, err, text)
		require.ErrorContains(t, err, tx.Hash().String())
	}
	ok(t, kc.tx(push1))

	t.Run("size", func(t *testing.T) {
		big := transaction.Attribute{Type: transaction.AttrOracleResponse,
			Value: &transaction.OracleResponse{ID: 1, Result: make([]byte, transaction.MaxOracleResultSize)}}
		long := make([]byte, 40000)
		fails(t, kc.tx(long, attrs(big)), ErrTxTooBig, "102400")
	})
	t.Run("script", func(t *testing.T) {
		fails(t, kc.tx([]byte{0xff}), ErrTxInvalidScript, "")
	})
	t.Run("signature", func(t *testing.T) {
		tx := kc.tx(push1)
		tx.Witnesses[0].InvocationScript[5] ^= 1
		fails(t, tx, ErrWitness, "invalid multisignature")
		tx = kc.tx(push1, signers(kc.acc, kc.acc2))
		tx.Witnesses[1].InvocationScript[5] ^= 1
		fails(t, tx, ErrWitness, "invalid signature")
	})
	t.Run("valid until block", func(t *testing.T) {
		vub := func(v uint32) func(*transaction.Transaction) {
			return func(tx *transaction.Transaction) { tx.ValidUntilBlock = v }
		}
		maxInc := c.proto.Genesis.MaxValidUntilBlockIncrement // Policy's value from Echidna
		fails(t, kc.tx(push1, vub(h)), ErrTxValidUntilBlock, "")
		fails(t, kc.tx(push1, vub(h+maxInc+1)), ErrTxValidUntilBlock, "")
		ok(t, kc.tx(push1, vub(h+1)))
		ok(t, kc.tx(push1, vub(h+maxInc)))
	})
	t.Run("blocked signer", func(t *testing.T) {
		fails(t, kc.tx(push1, signers(kc.acc, blocked)), ErrTxBlockedSigner, blocked.String())
	})
	t.Run("funds", func(t *testing.T) {
		sysFee := func(f int64) func(*transaction.Transaction) {
			return func(tx *transaction.Transaction) { tx.SystemFee = f }
		}
		// acc2 holds 10 GAS: 11 GAS of fees is too much, two of 6 GAS in
		// one block too (the block's verification context adds them up).
		fails(t, kc.tx(push1, signers(kc.acc2), sysFee(11_0000_0000)), ErrTxInsufficientFunds, kc.acc2.String())
		a, b := kc.tx(push1, signers(kc.acc2), sysFee(6_0000_0000)), kc.tx(push1, signers(kc.acc2), sysFee(6_0000_0000))
		ok(t, a)
		ok(t, b)
		err := c.verifyBlockTxs(kc.block(a, b))
		require.ErrorIs(t, err, ErrTxInsufficientFunds)
		require.ErrorContains(t, err, b.Hash().String())
		require.NoError(t, c.verifyBlockTxs(kc.block(a)))
	})
	t.Run("network fee", func(t *testing.T) {
		tx := kc.tx(push1)
		tx.NetworkFee--
		fails(t, kc.sign(tx), ErrTxNetworkFee, "exceeds the verification budget")
		// Conflicts cost Policy's attribute fee per signer (set to 1000).
		two := kc.tx(push1, signers(kc.acc, kc.acc2), attrs(conflicts(util.Uint256{9})))
		ok(t, two)
		two.NetworkFee -= 2 * 1000
		fails(t, kc.sign(two), ErrTxNetworkFee, "budget")
	})
	t.Run("attributes", func(t *testing.T) {
		high := transaction.Attribute{Type: transaction.AttrHighPriority}
		fails(t, kc.tx(push1, signers(kc.acc2), attrs(high)), ErrTxInvalidAttribute, "committee")
		ok(t, kc.tx(push1, attrs(high)))
		nvb := func(v uint32) transaction.Attribute {
			return transaction.Attribute{Type: transaction.AttrNotValidBefore, Value: &transaction.NotValidBefore{Height: v}}
		}
		fails(t, kc.tx(push1, attrs(nvb(h+1))), ErrTxInvalidAttribute, "not valid before")
		ok(t, kc.tx(push1, attrs(nvb(h))))
		fails(t, kc.tx(push1, attrs(notaryAssisted)), ErrTxInvalidAttribute, "Notary")
	})
	t.Run("oracle response", func(t *testing.T) {
		resp := transaction.Attribute{Type: transaction.AttrOracleResponse,
			Value: &transaction.OracleResponse{ID: 7, Code: transaction.OracleSuccess}}
		fails(t, kc.tx(push1, attrs(resp)), ErrTxInvalidAttribute, "scope")
		none := func(tx *transaction.Transaction) { tx.Signers[0].Scopes = transaction.None }
		fails(t, kc.tx(push1, none, attrs(resp)), ErrTxInvalidAttribute, "oracle response script")
		fails(t, kc.tx(oracleResponseScript, none, attrs(resp)), ErrTxInvalidAttribute, "no oracle request 7")
	})
	t.Run("contract witness", func(t *testing.T) {
		h := kc.deployVerify()
		tx := kc.tx(push1, signers(kc.acc, h))
		ok(t, tx)
		vmFee, err := c.VerifyWitness(h, tx, &tx.Witnesses[1], MaxVerificationGas)
		require.NoError(t, err)
		require.Equal(t, 30*(vm.OpcodePrice(opcode.PUSHT)+vm.OpcodePrice(opcode.RET)), vmFee)
		// The VM runs within what is left of the network fee: one datoshi
		// short and it runs out of GAS.
		tx.NetworkFee--
		fails(t, kc.sign(tx), ErrWitness, "GAS limit exceeded")
	})
	t.Run("system fee", func(t *testing.T) {
		fails(t, kc.tx(push1, func(tx *transaction.Transaction) { tx.SystemFee = c.proto.MaxBlockSystemFee + 1 }),
			ErrTxSystemFee, "")
	})
}

// TestVerifyTxOnChain checks duplicates and conflicts against the chain
// and inside a block.
func TestVerifyTxOnChain(t *testing.T) {
	kc := newKeyChain(t)
	c := kc.c
	gas := kc.natives().Governance.GAS.Metadata().Hash
	fund := kc.tx(kc.call(gas, "transfer", kc.acc, kc.acc2, 10_0000_0000, nil))
	kc.add(fund)
	require.ErrorIs(t, c.VerifyTx(fund), ErrAlreadyExists)
	has, err := c.HasTransaction(fund.Hash())
	require.NoError(t, err)
	require.True(t, has)

	// A Conflicts attribute naming an on-chain transaction is invalid.
	require.ErrorIs(t, c.VerifyTx(kc.tx(push1, attrs(conflicts(fund.Hash())))), ErrTxInvalidAttribute)

	// victim is declared conflicting by an on-chain transaction of a
	// common signer: refused; the same script from acc2 alone is not.
	victim := kc.tx(push1)
	other := kc.tx(push1, signers(kc.acc2))
	kc.add(kc.tx(push1, attrs(conflicts(victim.Hash()), conflicts(other.Hash()))))
	require.ErrorIs(t, c.VerifyTx(victim), ErrTxConflicts)
	require.NoError(t, c.VerifyTx(other))
	// The same from a filter rebuilt from the records (as at open): it
	// holds the conflict records' hashes too.
	f, err := c.rebuildBloom()
	require.NoError(t, err)
	c.bloom = f
	require.ErrorIs(t, c.VerifyTx(victim), ErrTxConflicts)
	require.ErrorIs(t, c.VerifyTx(fund), ErrAlreadyExists)

	// Inside a block the earlier transactions count as on chain.
	a, b := kc.tx(push1), kc.tx(push1)
	bConflictsA := kc.tx(push1, attrs(conflicts(a.Hash())))
	cases := map[string]struct {
		txs []*transaction.Transaction
		err error
	}{
		"duplicate":           {[]*transaction.Transaction{a, b, a}, ErrAlreadyExists},
		"declared before":     {[]*transaction.Transaction{bConflictsA, a}, ErrTxConflicts},
		"conflicting earlier": {[]*transaction.Transaction{a, bConflictsA}, ErrTxInvalidAttribute},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			blk := kc.block(tc.txs...)
			err := blockError(&blk.Header, c.verifyBlockTxs(blk))
			require.ErrorIs(t, err, tc.err)
			last := tc.txs[len(tc.txs)-1]
			require.True(t, strings.HasPrefix(err.Error(), "block "), err.Error())
			require.ErrorContains(t, err, last.Hash().String())
		})
	}
	require.NoError(t, c.verifyBlockTxs(kc.block(a, b)))
}
