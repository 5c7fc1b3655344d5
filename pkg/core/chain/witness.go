package chain

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
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
		if !pub.VerifyMessage(sigs[0], p.signData) {
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
	valid, err := scripts.VerifyMultiSig(digest[:], pubs, sigs)
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
