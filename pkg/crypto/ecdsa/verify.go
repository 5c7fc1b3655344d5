package ecdsa

import (
	"errors"
	"fmt"
)

// Variant selects which of the reference's implementations of a CryptoLib
// verification method applies; they differ in which malformed inputs FAULT
// and which return false.
type Variant byte

// The reference's method variants, by the hardforks that switch them.
const (
	// VariantPreCockatrice is verifyWithECDsa before HF_Cockatrice
	// (CryptoLib.VerifyWithECDsaV0): only NamedCurveHash 22 and 23, SHA-256.
	VariantPreCockatrice Variant = iota
	// VariantCockatrice is verifyWithECDsa from HF_Cockatrice until
	// HF_Gorgon (VerifyWithECDsaV1) and verifyWithEd25519 from HF_Echidna
	// until HF_Gorgon (VerifyWithEd25519V0): Keccak-256 allowed, several
	// malformed inputs return false.
	VariantCockatrice
	// VariantGorgon is verifyWithECDsa and verifyWithEd25519 from
	// HF_Gorgon (VerifyWithECDsaV2, VerifyWithEd25519V1): every malformed
	// input FAULTs.
	VariantGorgon
)

// VariantAt returns the variant in force given which hardforks are enabled
// at the executing block.
func VariantAt(cockatrice, gorgon bool) Variant {
	switch {
	case gorgon:
		return VariantGorgon
	case cockatrice:
		return VariantCockatrice
	default:
		return VariantPreCockatrice
	}
}

// VerifyWithCurveHash is verifyWithECDsa as of HF_Gorgon (VariantGorgon):
// it hashes msg with the curve hash's algorithm and checks the 64-byte r ‖ s
// signature against the SEC 1 public key on the curve hash's curve. Any
// malformed input is an error (a FAULT).
func VerifyWithCurveHash(msg, pubkey, sig []byte, curveHash byte) (bool, error) {
	return Verify(VariantGorgon, msg, pubkey, sig, CurveHash(curveHash))
}

// Verify is verifyWithECDsa under the given variant. It returns (result,
// nil) where the reference returns a boolean and an error where the
// reference throws:
//
//	input                               PreCockatrice  Cockatrice     Gorgon
//	curveHash 122/123                   FAULT          verified       verified
//	other unknown curveHash             FAULT          FAULT          FAULT
//	pubkey empty/bad prefix/bad length  FAULT          FAULT          FAULT
//	compressed x with no point          FAULT          FAULT          FAULT
//	coordinate ≥ p                      false          false          FAULT
//	signature not 64 bytes              false          false          FAULT
//	uncompressed point off the curve    FAULT          SHA-256: FAULT FAULT
//	                                                   Keccak: false
//	r or s outside [1, n-1]             false          false          false
//
// (The off-curve key is only rejected when the reference imports it, after
// the signature length check, so a bad length wins there: false.)
func Verify(v Variant, msg, pubkey, sig []byte, ch CurveHash) (bool, error) {
	if !ch.Valid() || (v == VariantPreCockatrice && ch.Hash() != SHA256) {
		return false, fmt.Errorf("%w: %d", ErrUnsupportedCurveHash, ch)
	}
	key, err := DecodePublicKey(ch.Curve(), pubkey)
	strict := v == VariantGorgon
	switch {
	case err == nil:
	case strict:
		return false, err
	case errors.Is(err, ErrPublicKeyRange):
		return false, nil
	case errors.Is(err, ErrPublicKeyNotOnCurve):
		if len(sig) != SignatureSize || ch.Hash() == Keccak256 {
			return false, nil
		}
		return false, err
	default:
		return false, err
	}
	if len(sig) != SignatureSize {
		if strict {
			return false, fmt.Errorf("%w: got %d", ErrSignatureLength, len(sig))
		}
		return false, nil
	}
	h := digest(ch.Hash(), msg)
	return key.VerifyHash(h[:], sig), nil
}
