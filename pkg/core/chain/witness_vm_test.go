package chain

import (
	"encoding/binary"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

// Contracts of the testblocks chain (contracts.json): "Verify" returns
// whether the transaction's sender is verifyOwner, "Verify with args"
// whether its first argument is "good_string" (and the others match), and
// NameService has no verify method.
var (
	verifyContract     = mustHash("0x7f732d9aa2e877a36142344822826721522f2524")
	verifyArgsContract = mustHash("0xe7c553997feb14dc60b226a662b72f9a98bcdd41")
	nameService        = mustHash("0xc17da07ba65ba62a07134c171cf8c50d02f17995")
	verifyOwner        = mustHash("0xb248508f4ef7088e10c48f14d04be3272ca29eee")
)

func mustHash(s string) util.Uint160 {
	h, err := util.Uint160DecodeStringBE(s)
	if err != nil {
		panic(err)
	}
	return h
}

// restoredRefChain returns a reference chain restored to its tip.
func restoredRefChain(t *testing.T, name string) (*Chain, []*block.Block) {
	t.Helper()
	c := openRefChain(t, name)
	blocks := refChainBlocks(t, name)
	for _, b := range blocks[1:] {
		require.NoError(t, c.AddBlock(b))
	}
	return c, blocks
}

func testTx(sender util.Uint160, attrs ...transaction.Attribute) *transaction.Transaction {
	return &transaction.Transaction{Script: []byte{byte(opcode.PUSH1)}, ValidUntilBlock: 100,
		Signers:    []transaction.Signer{{Account: sender, Scopes: transaction.CalledByEntry}},
		Attributes: attrs, Witnesses: []transaction.Witness{{}}}
}

func script(t *testing.T, b *emit.Builder) []byte {
	s, err := b.Script()
	require.NoError(t, err)
	return s
}

// verifyContractUnits is the price of the Verify contract's verify method
// for a matching sender, instruction by instruction (NEF script in
// contracts.json; prices from the reference tables).
func verifyContractUnits() int64 {
	ops := []opcode.Opcode{opcode.INITSLOT, opcode.SYSCALL, opcode.STLOC0, opcode.PUSHDATA1,
		opcode.DUP, opcode.ISTYPE, opcode.JMPIF, opcode.CONVERT, opcode.STLOC1, opcode.LDLOC0,
		opcode.PUSH3, opcode.PICKITEM, opcode.DUP, opcode.ISTYPE, opcode.JMPIF, opcode.LDLOC1,
		opcode.DUP, opcode.ISTYPE, opcode.JMPIF, opcode.CONVERT, opcode.EQUAL, opcode.RET}
	units := int64(0)
	for _, op := range ops {
		units += vm.OpcodePrice(op)
	}
	for _, f := range interop.Functions() {
		if f.Name == interop.RuntimeGetScriptContainer {
			units += f.Price
		}
	}
	return units
}

func TestWitnessVMDeployedContracts(t *testing.T) {
	c, _ := restoredRefChain(t, "testblocks")
	vmv := c.defaultWitnessVM(nil)
	empty := &transaction.Witness{}

	fee, err := vmv.VerifyWitnessVM(testTx(verifyOwner), verifyContract, empty, MaxVerificationGas)
	require.NoError(t, err)
	require.Equal(t, 30*verifyContractUnits(), fee, "Policy exec fee factor 30")

	_, err = vmv.VerifyWitnessVM(testTx(verifyContract), verifyContract, empty, MaxVerificationGas)
	require.ErrorContains(t, err, "returned false")

	// Too little GAS: the run FAULTs.
	_, err = vmv.VerifyWitnessVM(testTx(verifyOwner), verifyContract, empty, fee-1)
	require.ErrorContains(t, err, "FAULT")

	args := func(s string, n int64) *transaction.Witness {
		return &transaction.Witness{InvocationScript: script(t, emit.NewBuilder().Bool(false).Int(n).String(s))}
	}
	_, err = vmv.VerifyWitnessVM(testTx(verifyOwner), verifyArgsContract, args("good_string", 4), MaxVerificationGas)
	require.NoError(t, err)
	_, err = vmv.VerifyWitnessVM(testTx(verifyOwner), verifyArgsContract, args("invalid_string", 4), MaxVerificationGas)
	require.ErrorContains(t, err, "returned false")

	// The invocation script is any valid script run without call flags
	// (the reference has no push-only rule): arithmetic is fine, a syscall
	// needing ReadStates FAULTs, an undecodable script is refused.
	computed := &transaction.Witness{InvocationScript: script(t, emit.NewBuilder().Bool(false).Int(2).Int(2).
		Opcodes(opcode.ADD).String("good_string"))}
	_, err = vmv.VerifyWitnessVM(testTx(verifyOwner), verifyArgsContract, computed, MaxVerificationGas)
	require.NoError(t, err)
	storage := &transaction.Witness{InvocationScript: script(t, emit.NewBuilder().Syscall(interop.StorageGetContext))}
	_, err = vmv.VerifyWitnessVM(testTx(verifyOwner), verifyContract, storage, MaxVerificationGas)
	require.ErrorContains(t, err, "FAULT")
	_, err = vmv.VerifyWitnessVM(testTx(verifyOwner), verifyContract,
		&transaction.Witness{InvocationScript: []byte{0xff}}, MaxVerificationGas)
	require.ErrorContains(t, err, "invalid invocation script")

	_, err = vmv.VerifyWitnessVM(testTx(verifyOwner), nameService, empty, MaxVerificationGas)
	require.ErrorContains(t, err, "no verify method")
	_, err = vmv.VerifyWitnessVM(testTx(verifyOwner), util.Uint160{1}, empty, MaxVerificationGas)
	require.ErrorContains(t, err, "no verification contract")
}

func TestWitnessVMNativeAccounts(t *testing.T) {
	c, _ := restoredRefChain(t, "testblocks")
	vmv := c.defaultWitnessVM(nil)
	natives := c.cfg.Natives
	oracle := natives.Governance.Oracle.Metadata().Hash
	require.Equal(t, oracle, oracleHash)
	require.Equal(t, natives.Governance.Notary.Metadata().Hash, notaryHash)

	// OracleContract.verify: true only for a transaction with an
	// OracleResponse attribute.
	resp := transaction.Attribute{Type: transaction.AttrOracleResponse,
		Value: &transaction.OracleResponse{ID: 1, Code: transaction.OracleSuccess}}
	fee, err := vmv.VerifyWitnessVM(testTx(oracle, resp), oracle, &transaction.Witness{}, MaxVerificationGas)
	require.NoError(t, err)
	require.Positive(t, fee)
	_, err = vmv.VerifyWitnessVM(testTx(oracle), oracle, &transaction.Witness{}, MaxVerificationGas)
	require.ErrorContains(t, err, "returned false")

	// A native's hash never verifies through a verification script.
	w := &transaction.Witness{VerificationScript: []byte{byte(opcode.PUSHT)}}
	_, err = vmv.VerifyWitnessVM(testTx(oracle), oracle, w, MaxVerificationGas)
	require.ErrorContains(t, err, "native contract")
}

func TestWitnessVMScripts(t *testing.T) {
	c, _ := restoredRefChain(t, "chain50x2")
	vmv := c.defaultWitnessVM(nil)
	run := func(verification []byte, limit int64) (int64, error) {
		w := &transaction.Witness{VerificationScript: verification}
		return vmv.VerifyWitnessVM(testTx(w.ScriptHash()), w.ScriptHash(), w, limit)
	}
	units := func(ops ...opcode.Opcode) int64 {
		n := int64(0)
		for _, op := range ops {
			n += vm.OpcodePrice(op)
		}
		return 30 * n
	}
	fee, err := run([]byte{byte(opcode.PUSHT)}, MaxVerificationGas)
	require.NoError(t, err)
	require.Equal(t, units(opcode.PUSHT, opcode.RET), fee)

	// Results convert like the reference's GetBoolean: a non-zero Integer
	// is true, zero false, a ByteString over 32 bytes is no boolean.
	_, err = run([]byte{byte(opcode.PUSH1)}, MaxVerificationGas)
	require.NoError(t, err)
	_, err = run([]byte{byte(opcode.PUSH0)}, MaxVerificationGas)
	require.ErrorContains(t, err, "returned false")
	_, err = run(script(t, emit.NewBuilder().Bytes(make([]byte, 33))), MaxVerificationGas)
	require.ErrorContains(t, err, "not a boolean")
	_, err = run([]byte{byte(opcode.PUSHT), byte(opcode.PUSHT)}, MaxVerificationGas)
	require.ErrorContains(t, err, "2 results")
	_, err = run([]byte{byte(opcode.NOP)}, MaxVerificationGas)
	require.ErrorContains(t, err, "0 results")
	_, err = run([]byte{byte(opcode.ABORT)}, MaxVerificationGas)
	require.ErrorContains(t, err, "FAULT")
	_, err = run([]byte{byte(opcode.PUSHT), 0xff}, MaxVerificationGas)
	require.ErrorContains(t, err, "invalid verification script")
	// Verification scripts run ReadOnly: calling a reading native method
	// is allowed (LedgerContract.currentIndex, 50 here: true).
	ledger := c.cfg.Natives.Core.Ledger.Metadata().Hash
	_, err = run(script(t, emit.NewBuilder().AppCall(ledger, "currentIndex", byte(callflag.ReadOnly))), MaxVerificationGas)
	require.NoError(t, err)
	policy := c.cfg.Natives.Core.Policy.Metadata().Hash
	_, err = run(script(t, emit.NewBuilder().AppCall(policy, "setFeePerByte", byte(callflag.All), 1)), MaxVerificationGas)
	require.ErrorContains(t, err, "missing call flags", "a writing method under ReadOnly")

	// A countdown loop of n iterations costs 8 units each: the GAS limit
	// is capped at MaxVerificationGas whatever the caller asks.
	loop := func(n uint32) []byte {
		s := binary.LittleEndian.AppendUint32([]byte{byte(opcode.PUSHINT32)}, n)
		return append(s, byte(opcode.DEC), byte(opcode.DUP), byte(opcode.JMPIF), 0xfe, byte(opcode.DROP), byte(opcode.PUSHT))
	}
	perIter := units(opcode.DEC, opcode.DUP, opcode.JMPIF)
	under := uint32(MaxVerificationGas/perIter) - 10
	fee, err = run(loop(under), 2*MaxVerificationGas)
	require.NoError(t, err)
	require.Equal(t, units(opcode.PUSHINT32, opcode.DROP, opcode.PUSHT, opcode.RET)+int64(under)*perIter, fee)
	_, err = run(loop(under+20), 2*MaxVerificationGas)
	require.ErrorContains(t, err, "FAULT")
	_, err = run([]byte{byte(opcode.PUSHT)}, -1)
	require.Error(t, err)
}

// TestWitnessVMMatchesFastPath runs every standard witness of both
// reference chains through the VM: headers must cost what the exact fast
// path charges, transactions what the reference's fee formulas charge.
func TestWitnessVMMatchesFastPath(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) {
			c, blocks := restoredRefChain(t, name)
			magic := uint32(c.proto.Magic)
			for i := 1; i < len(blocks); i++ {
				h, prev := &blocks[i].Header, &blocks[i-1].Header
				vmFee, err := c.VerifyWitness(prev.NextConsensus, h, &h.Witness, HeaderVerificationGasLimit)
				require.NoError(t, err, "block %d", i)
				p := witnessParams{signData: h.SignData(magic), picoFee: defaultPicoFee, gasLimit: MaxVerificationGas}
				fastFee, handled, err := fastWitness(p, &h.Witness)
				require.True(t, handled)
				require.NoError(t, err)
				require.Equal(t, fastFee, vmFee, "block %d", i)
				for _, tx := range blocks[i].Transactions {
					for j := range tx.Witnesses {
						w := &tx.Witnesses[j]
						fee, err := c.VerifyWitness(tx.Signers[j].Account, tx, w, MaxVerificationGas)
						require.NoError(t, err, "tx %s", tx.Hash().String())
						key, m, pubs, _, ok := standardWitness(w)
						require.True(t, ok)
						want := 30 * signatureContractCost()
						if key == nil {
							want = 30 * multiSigContractCost(m, len(pubs))
						}
						require.Equal(t, want, fee, "tx %s witness %d", tx.Hash().String(), j)
					}
				}
			}
			// A corrupted signature fails through the VM too.
			h := corrupt(blocks[3], func(h *block.Header) { h.Witness.InvocationScript[10] ^= 1 })
			_, err := c.VerifyWitness(blocks[2].NextConsensus, h, &h.Witness, HeaderVerificationGasLimit)
			require.ErrorIs(t, err, ErrWitness)
		})
	}
}

// TestVerificationFeeFactor checks the reference engine's set-up without a
// persisting block, including its rounding when Faun is configured but not
// active yet.
func TestVerificationFeeFactor(t *testing.T) {
	c, _ := restoredRefChain(t, "chain50x2")
	pico, err := c.verificationFeeFactor(c.dao)
	require.NoError(t, err)
	require.Equal(t, int64(30*vm.FeeFactor), pico)
	c.proto.Hardforks[protocol.HFFaun.String()] = c.BlockHeight() + 10
	pico, err = c.verificationFeeFactor(c.dao)
	require.NoError(t, err)
	require.Zero(t, pico, "stored 30 read as picoGAS and divided by FeeFactor")
	delete(c.proto.Hardforks, protocol.HFFaun.String())
}
