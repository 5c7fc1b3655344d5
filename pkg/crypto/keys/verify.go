package keys

import (
	"crypto/sha256"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
	k1ecdsa "github.com/decred/dcrd/dcrec/secp256k1/v4/ecdsa"
)

// Verify tells whether sig (64 bytes, r‖s big-endian) is a valid ECDSA
// signature of digest by p. digest is the already hashed message (Neo signs
// SHA-256 of the sign data); it is used as ECDSA's e, truncated to the
// curve's bit length. Any malformed input, including the point at infinity,
// a signature of the wrong length or r, s outside [1, N-1], gives false.
// High-S signatures are accepted, as in the reference.
func (p *PublicKey) Verify(sig, digest []byte) bool {
	if !p.set || len(sig) != SignatureLen {
		return false
	}
	if p.curve == Secp256k1 {
		return verifyK1(p.k1, sig, digest)
	}
	return p.hot.verify(sig, digest)
}

// VerifyMessage hashes msg with SHA-256 and verifies sig against it.
func (p *PublicKey) VerifyMessage(sig, msg []byte) bool {
	d := sha256.Sum256(msg)
	return p.Verify(sig, d[:])
}

// verifyK1 checks a secp256k1 signature with the decred implementation,
// which, like the reference, does not require low S.
func verifyK1(k *secp256k1.PublicKey, sig, digest []byte) bool {
	var r, s secp256k1.ModNScalar
	if r.SetByteSlice(sig[:coordLen]) || s.SetByteSlice(sig[coordLen:]) {
		return false // r or s >= N
	}
	return k1ecdsa.NewSignature(&r, &s).Verify(digest, k)
}
