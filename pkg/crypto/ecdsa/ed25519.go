package ecdsa

import (
	"bytes"
	"crypto/sha512"
	"fmt"

	"filippo.io/edwards25519"
)

// Ed25519 sizes.
const (
	Ed25519PublicKeySize = 32
	Ed25519SignatureSize = 64
)

// VerifyEd25519 is the CryptoLib verifyWithEd25519 method (from HF_Echidna).
// It follows the reference's verifier (BouncyCastle Ed25519Signer over
// Ed25519PublicKeyParameters), which is not the same as crypto/ed25519:
//
//   - the public key must be a canonical encoding (y < p, no "negative
//     zero") of a point that is not of small order; anything else is
//     ErrEd25519PublicKey;
//   - R must be a canonical encoding of a curve point and S must be below
//     the group order L, else the signature is false;
//   - the check is the cofactored equation [8]([S]B − [k]A − R) = O with
//     k = SHA-512(R ‖ A ‖ msg) mod L, so a signature whose error is a small
//     order point still verifies.
//
// Before HF_Gorgon (any variant but VariantGorgon) every malformed input
// gives false; from HF_Gorgon a wrong length or an invalid public key is an
// error (a FAULT).
func VerifyEd25519(v Variant, msg, pubkey, sig []byte) (bool, error) {
	strict := v == VariantGorgon
	if len(sig) != Ed25519SignatureSize {
		return false, lenient(strict, fmt.Errorf("%w: got %d", ErrEd25519SignatureLength, len(sig)))
	}
	if len(pubkey) != Ed25519PublicKeySize {
		return false, lenient(strict, fmt.Errorf("%w: got %d", ErrEd25519PublicKeyLength, len(pubkey)))
	}
	a, err := DecodeEd25519PublicKey(pubkey)
	if err != nil {
		return false, lenient(strict, err)
	}
	return verifyEd25519(a, pubkey, msg, sig), nil
}

// lenient drops err unless strict: the pre-Gorgon variant returns false
// for every malformed input.
func lenient(strict bool, err error) error {
	if strict {
		return err
	}
	return nil
}

// DecodeEd25519PublicKey decodes a 32-byte Ed25519 public key with the
// reference's partial validation: canonical encoding of a curve point whose
// order is not small (not one of the eight torsion points). It does not
// check that the point lies in the prime-order subgroup.
func DecodeEd25519PublicKey(b []byte) (*edwards25519.Point, error) {
	if len(b) != Ed25519PublicKeySize {
		return nil, fmt.Errorf("%w: got %d", ErrEd25519PublicKeyLength, len(b))
	}
	a, ok := decodeCanonicalPoint(b)
	if !ok {
		return nil, fmt.Errorf("%w: not a canonical point encoding", ErrEd25519PublicKey)
	}
	var t edwards25519.Point
	if t.MultByCofactor(a).Equal(edwards25519.NewIdentityPoint()) == 1 {
		return nil, fmt.Errorf("%w: small order point", ErrEd25519PublicKey)
	}
	return a, nil
}

// decodeCanonicalPoint accepts only encodings that decode to a point and
// re-encode to the same bytes, which rejects y ≥ p and x = 0 with the sign
// bit set, as the reference does.
func decodeCanonicalPoint(b []byte) (*edwards25519.Point, bool) {
	p, err := new(edwards25519.Point).SetBytes(b)
	if err != nil || !bytes.Equal(p.Bytes(), b) {
		return nil, false
	}
	return p, true
}

func verifyEd25519(a *edwards25519.Point, pubkey, msg, sig []byte) bool {
	r, ok := decodeCanonicalPoint(sig[:32])
	if !ok {
		return false
	}
	s, err := edwards25519.NewScalar().SetCanonicalBytes(sig[32:])
	if err != nil {
		return false
	}
	h := sha512.New()
	h.Write(sig[:32])
	h.Write(pubkey)
	h.Write(msg)
	k, err := edwards25519.NewScalar().SetUniformBytes(h.Sum(nil))
	if err != nil { // cannot happen: SHA-512 output is 64 bytes
		return false
	}
	k.Negate(k)
	// [S]B − [k]A − R, times the cofactor, must be the identity.
	var check edwards25519.Point
	check.VarTimeDoubleScalarBaseMult(k, a, s)
	check.Subtract(&check, r)
	check.MultByCofactor(&check)
	return check.Equal(edwards25519.NewIdentityPoint()) == 1
}
