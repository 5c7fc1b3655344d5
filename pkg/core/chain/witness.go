package chain

import (
	"fmt"
	"math"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// Verification gas limits in datoshi.
const (
	// HeaderVerificationGasLimit bounds the header witness (the reference's
	// 3 GAS).
	HeaderVerificationGasLimit int64 = 3_00000000
	// checkSigPrice is the price of one signature check in fee-factor
	// units (System.Crypto.CheckSig, and per key of CheckMultisig).
	checkSigPrice int64 = 1 << 15
	sigPushLen          = 2 + 64
)

// WitnessVM runs a witness the fast path does not handle (a non-standard
// verification script, a contract's verify method, an invocation script that
// is not a plain list of signatures) under the Verification trigger, exactly
// as the reference's VerifyWitness does. It is provided by the interop layer.
// container is the signed object (a *block.Header or a
// *transaction.Transaction); gasLimit is in datoshi. It returns the GAS
// consumed in datoshi, or an error when the witness does not verify.
type WitnessVM interface {
	VerifyWitnessVM(container any, hash util.Uint160, w *transaction.Witness, gasLimit int64) (int64, error)
}

// witnessParams are the per-check inputs of the fast path.
type witnessParams struct {
	signData  []byte // magic ‖ hash of the container
	picoFee   int64  // exec fee factor in picoGAS per price unit
	gasLimit  int64  // datoshi
	container any
	// sigs, when set, answers signature checks that succeeded before
	// (see checkSig).
	sigs *keys.SigCache
}

// verifyWitness checks that w proves hash for the container: standard
// single-signature and multisignature witnesses whose invocation script is a
// plain list of 64-byte signature pushes are checked directly with the
// reference's exact outcome and fee; everything else goes to the VM.
func verifyWitness(p witnessParams, hash util.Uint160, w *transaction.Witness, vmv WitnessVM) (int64, error) {
	if len(w.VerificationScript) != 0 {
		if w.ScriptHash() != hash {
			return 0, fmt.Errorf("%w: verification script hash %s, expected %s",
				ErrWitness, w.ScriptHash().String(), hash.String())
		}
		if fee, handled, err := fastWitness(p, w); handled {
			return fee, err
		}
	}
	if vmv == nil {
		return 0, fmt.Errorf("%w: non-standard witness of %s and no VM verifier", ErrWitness, hash.String())
	}
	fee, err := vmv.VerifyWitnessVM(p.container, hash, w, p.gasLimit)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrWitness, err)
	}
	return fee, nil
}

// fastWitness handles standard verification scripts; handled is false when
// the VM must decide.
func fastWitness(p witnessParams, w *transaction.Witness) (fee int64, handled bool, err error) {
	sigs, ok := parseSigPushes(w.InvocationScript)
	if !ok {
		return 0, false, nil
	}
	invUnits := int64(len(sigs)) * vm.OpcodePrice(opcode.PUSHDATA1)
	if key, ok := scripts.ParseSignatureContract(w.VerificationScript); ok {
		units := invUnits + vm.OpcodePrice(opcode.PUSHDATA1) + vm.OpcodePrice(opcode.SYSCALL) + checkSigPrice
		fee, err := chargeFee(p, units)
		if err != nil {
			return 0, true, err
		}
		// CheckSig pops the key and one signature: no signature is a stack
		// underflow, more leave extra results; both fail.
		if len(sigs) != 1 {
			return 0, true, fmt.Errorf("%w: %d signatures for a single-signature account", ErrWitness, len(sigs))
		}
		pub, err := keys.NewPublicKeyFromBytes(key)
		if err != nil {
			return 0, true, fmt.Errorf("%w: %w", ErrWitness, err)
		}
		digest := hash.Sha256(p.signData)
		if !checkSig(p.sigs, pub, sigs[0], digest[:]) {
			return 0, true, fmt.Errorf("%w: invalid signature", ErrWitness)
		}
		return fee, true, nil
	}
	m, pubs, ok := scripts.ParseMultiSigContract(w.VerificationScript)
	if !ok {
		return 0, false, nil
	}
	n := len(pubs)
	units := invUnits + pushIntPrice(m) + int64(n)*vm.OpcodePrice(opcode.PUSHDATA1) + pushIntPrice(n) +
		vm.OpcodePrice(opcode.SYSCALL) + int64(n)*checkSigPrice
	fee, err = chargeFee(p, units)
	if err != nil {
		return 0, true, err
	}
	// CheckMultisig takes exactly m signatures: fewer underflow the stack,
	// more leave extra results.
	if len(sigs) != m {
		return 0, true, fmt.Errorf("%w: %d signatures, %d required", ErrWitness, len(sigs), m)
	}
	digest := hash.Sha256(p.signData)
	valid, err := checkMultiSig(p.sigs, digest[:], pubs, sigs)
	if err != nil {
		return 0, true, fmt.Errorf("%w: %w", ErrWitness, err)
	}
	if !valid {
		return 0, true, fmt.Errorf("%w: invalid multisignature (%d of %d)", ErrWitness, m, n)
	}
	return fee, true, nil
}

// chargeFee converts price units to datoshi the way the VM counts them
// (picoGAS, rounded up) and fails past the limit.
func chargeFee(p witnessParams, units int64) (int64, error) {
	pico := units * p.picoFee
	if pico > p.gasLimit*vm.FeeFactor {
		return 0, fmt.Errorf("%w: verification needs more than %d datoshi", ErrWitness, p.gasLimit)
	}
	return (pico + vm.FeeFactor - 1) / vm.FeeFactor, nil
}

// pushIntPrice is the price of the instruction the standard scripts use to
// push a small count (PUSH1..PUSH16, PUSHINT8 or PUSHINT16).
func pushIntPrice(n int) int64 {
	switch {
	case n <= 16:
		return vm.OpcodePrice(opcode.PUSH1)
	case n <= 127:
		return vm.OpcodePrice(opcode.PUSHINT8)
	default:
		return vm.OpcodePrice(opcode.PUSHINT16)
	}
}

// parseSigPushes splits an invocation script made only of PUSHDATA1 64
// <signature> instructions; any other form goes to the VM.
func parseSigPushes(inv []byte) ([][]byte, bool) {
	if len(inv) == 0 || len(inv)%sigPushLen != 0 {
		return nil, false
	}
	sigs := make([][]byte, 0, len(inv)/sigPushLen)
	for i := 0; i < len(inv); i += sigPushLen {
		if inv[i] != byte(opcode.PUSHDATA1) || inv[i+1] != 64 {
			return nil, false
		}
		sigs = append(sigs, inv[i+2:i+sigPushLen])
	}
	return sigs, true
}

// MaxVerificationGas bounds the GAS of one VerifyWitnesses run (the
// reference's Helper.MaxVerificationGas, 1.5 GAS): block headers and the
// network fee left for a transaction's witnesses are both capped by it.
const MaxVerificationGas int64 = 1_50000000

// methodVerify is the method a contract account's witness runs.
const methodVerify = "verify"

// chainWitnessVM is the WitnessVM of a Chain: it runs witnesses through
// pkg/core/interop under the Verification trigger on a throw-away layer of
// the chain's current state, exactly as the reference's VerifyWitness:
//
//   - the invocation script must be a valid script (strict decoding); it
//     runs with no call flags;
//   - an empty verification script makes the account a contract: its
//     "verify" method (any parameter count, Boolean return) runs with
//     ReadOnly flags, after _initialize, natives included (Oracle, Notary);
//   - otherwise the verification script must hash to the account, must not
//     be a native's hash, must be a valid script, and runs with ReadOnly;
//   - the run must HALT with exactly one result that converts to true.
//
// The GAS consumed (datoshi, rounded up from picoGAS) is returned.
type chainWitnessVM struct {
	c *Chain
}

var _ WitnessVM = chainWitnessVM{}

// VerifyWitnessVM implements WitnessVM.
func (v chainWitnessVM) VerifyWitnessVM(container any, h util.Uint160, w *transaction.Witness, gasLimit int64) (int64, error) {
	return v.c.runWitness(v.c.dao, container, h, w, gasLimit)
}

// defaultWitnessVM returns vmv, or the chain's own VM verifier when vmv is
// nil (Open's default).
func (c *Chain) defaultWitnessVM(vmv WitnessVM) WitnessVM {
	if vmv != nil {
		return vmv
	}
	return chainWitnessVM{c: c}
}

// VerifyWitness checks witness w of account h for container (a
// *transaction.Transaction, a *block.Header, or any other signed container
// such as an extensible payload) against the current state
// through the VM, within gasLimit datoshi (capped at MaxVerificationGas),
// and returns the GAS it consumed.
func (c *Chain) VerifyWitness(h util.Uint160, container any, w *transaction.Witness, gasLimit int64) (int64, error) {
	fee, err := c.runWitness(c.dao, container, h, w, gasLimit)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrWitness, err)
	}
	return fee, nil
}

// runWitness runs w on a private layer of d (discarded afterwards).
func (c *Chain) runWitness(d *dao.DAO, container any, h util.Uint160, w *transaction.Witness, gasLimit int64) (int64, error) {
	return c.runWitnessFee(d, container, h, w, gasLimit, -1)
}

// runWitnessFee is runWitness with the picoGAS fee factor pico (the
// Verification engine's, verificationFeeFactor, when negative).
func (c *Chain) runWitnessFee(d *dao.DAO, container any, h util.Uint160, w *transaction.Witness, gasLimit, pico int64) (int64, error) {
	if gasLimit < 0 {
		return 0, fmt.Errorf("negative verification GAS limit %d", gasLimit)
	}
	gasLimit = min(gasLimit, MaxVerificationGas)
	if err := vm.ValidateScript(w.InvocationScript); err != nil {
		return 0, fmt.Errorf("invalid invocation script: %w", err)
	}
	layer := d.Private()
	defer func() { _ = layer.Discard() }()
	ic, err := c.verificationContext(layer, container, gasLimit, pico)
	if err != nil {
		return 0, err
	}
	if err := c.loadVerification(ic, h, w); err != nil {
		return 0, err
	}
	if _, err := ic.LoadScript(w.InvocationScript, callflag.None, -1, 0); err != nil {
		return 0, err
	}
	runErr := ic.Run()
	v := ic.VM()
	if v.State() != vm.HaltState || runErr != nil {
		if runErr == nil {
			runErr = v.FaultException()
		}
		return 0, fmt.Errorf("verification script FAULT: %w", runErr)
	}
	rs := v.ResultStack()
	if rs.Len() != 1 {
		return 0, fmt.Errorf("verification returned %d results, expected 1", rs.Len())
	}
	top, err := rs.Peek(0)
	if err != nil {
		return 0, err
	}
	ok, err := top.Bool()
	if err != nil {
		return 0, fmt.Errorf("verification result is not a boolean: %w", err)
	}
	if !ok {
		return v.GasConsumed(), ErrWitnessFalse
	}
	return v.GasConsumed(), nil
}

// loadVerification loads the verification side of w: the account
// contract's verify method or the verification script.
func (c *Chain) loadVerification(ic *interop.Context, h util.Uint160, w *transaction.Witness) error {
	if len(w.VerificationScript) == 0 {
		cs, err := ic.GetContract(h)
		if err != nil {
			if dao.IsNotFound(err) {
				return fmt.Errorf("no verification contract %s", h.String())
			}
			return err
		}
		md := cs.Manifest.ABI.GetMethod(methodVerify, -1)
		if md == nil || md.ReturnType != smartcontract.BoolType {
			return fmt.Errorf("contract %s has no verify method returning Boolean", h.String())
		}
		_, err = ic.LoadContract(cs, md, callflag.ReadOnly)
		return err
	}
	if c.cfg.Natives != nil && c.cfg.Natives.ByHash(h) != nil {
		return fmt.Errorf("native contract %s with a verification script", h.String())
	}
	if sh := w.ScriptHash(); sh != h {
		return fmt.Errorf("verification script hash %s, expected %s", sh.String(), h.String())
	}
	if err := vm.ValidateScript(w.VerificationScript); err != nil {
		return fmt.Errorf("invalid verification script: %w", err)
	}
	_, err := ic.LoadScript(w.VerificationScript, callflag.ReadOnly, -1, 0)
	return err
}

// verificationContext is the reference's Verification engine: no
// persisting block (hardforks count as enabled when configured at all),
// the current state's fee factor (pico when not negative) and storage
// price, gasLimit datoshi.
func (c *Chain) verificationContext(d *dao.DAO, container any, gasLimit, pico int64) (*interop.Context, error) {
	var cont interop.Container
	switch x := container.(type) {
	case *transaction.Transaction:
		cont = x
	case *block.Header:
		cont = &block.Block{Header: *x}
	case *block.Block:
		cont = x
	case interop.Container:
		cont = x // an extensible payload: signatures cover magic ‖ its hash
	default:
		return nil, fmt.Errorf("%w: cannot verify a %T", ErrBadConfig, container)
	}
	n := c.cfg.Natives
	if n == nil {
		return nil, fmt.Errorf("%w: no native contracts to verify with", ErrBadConfig)
	}
	if pico < 0 {
		var err error
		if pico, err = c.verificationFeeFactor(d); err != nil {
			return nil, err
		}
	}
	sp, err := n.StoragePrice(d)
	if err != nil {
		return nil, fmt.Errorf("storage price: %w", err)
	}
	cfg := interop.Config{
		Trigger:              trigger.Verification,
		Container:            cont,
		Network:              uint32(c.proto.Magic),
		AddressVersion:       address.NEO3Prefix,
		HardforkEnabled:      c.proto.Enabled,
		ExecFeeFactor:        pico,
		StoragePrice:         sp,
		GasLimit:             gasLimit,
		Natives:              n,
		OracleRequestSigners: c.oracleRequestSigners,
	}
	cfg.Policy = n
	return interop.NewContext(cfg, d), nil
}

// verificationFeeFactor is the picoGAS fee factor of a Verification engine
// at the current height, as the reference sets it up without a persisting
// block: before Faun the stored factor × FeeFactor — read through
// getExecFeeFactor, which divides by FeeFactor whenever Faun is configured
// at all, so a chain with Faun scheduled verifies with the stored factor
// rounded down to whole units of FeeFactor — and the stored picoGAS value
// from Faun on.
func (c *Chain) verificationFeeFactor(d *dao.DAO) (int64, error) {
	ln, err := c.ledgerNativeSet()
	if err != nil {
		return 0, err
	}
	stored, err := ln.StoredExecFeeFactor(d)
	if err != nil {
		return 0, fmt.Errorf("exec fee factor: %w", err)
	}
	height := c.BlockHeight()
	switch {
	case c.proto.Enabled(protocol.HFFaun, height):
		return stored, nil
	case c.proto.Enabled(protocol.HFFaun, math.MaxUint32):
		return stored / vm.FeeFactor * vm.FeeFactor, nil
	}
	return stored * vm.FeeFactor, nil
}

// oracleRequestSigners are the signers of the transaction that made oracle
// request id (CheckWitness of an OracleResponse transaction uses them).
func (c *Chain) oracleRequestSigners(d *dao.DAO, id uint64) ([]transaction.Signer, error) {
	ln, err := c.ledgerNativeSet()
	if err != nil {
		return nil, err
	}
	req, err := ln.OracleRequest(d, id)
	if err != nil {
		return nil, err
	}
	if req == nil {
		return nil, fmt.Errorf("oracle request %d not found", id)
	}
	tx, _, err := d.GetTransaction(req.OriginalTxID)
	if err != nil {
		return nil, fmt.Errorf("oracle request %d transaction: %w", id, err)
	}
	return tx.Signers, nil
}
