package keys

import (
	"crypto/ecdsa"
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
	var buf [2 + 2*(3+coordLen)]byte
	der := asn1Signature(buf[:0], sig)
	return ecdsa.VerifyASN1(p.r1, digest, der)
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

// asn1Signature appends the DER SEQUENCE{INTEGER r, INTEGER s} of a 64-byte
// r‖s signature to dst. A zero r or s is encoded as INTEGER 0, which every
// verifier rejects.
func asn1Signature(dst, sig []byte) []byte {
	r := asn1Int(sig[:coordLen])
	s := asn1Int(sig[coordLen:])
	dst = append(dst, 0x30, byte(4+len(r)+len(s)+padLen(r)+padLen(s)))
	dst = appendASN1Int(dst, r)
	return appendASN1Int(dst, s)
}

// asn1Int strips leading zero bytes, keeping one byte for zero.
func asn1Int(b []byte) []byte {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	return b
}

// padLen is 1 when a positive integer needs a 0x00 sign byte.
func padLen(b []byte) int {
	if b[0]&0x80 != 0 {
		return 1
	}
	return 0
}

func appendASN1Int(dst, b []byte) []byte {
	dst = append(dst, 0x02, byte(len(b)+padLen(b)))
	if padLen(b) == 1 {
		dst = append(dst, 0)
	}
	return append(dst, b...)
}
