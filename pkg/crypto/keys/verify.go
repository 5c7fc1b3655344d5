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
	if valid, ok := p.verifyHot(sig, digest); ok {
		return valid
	}
	var buf [maxDERLen]byte
	return ecdsa.VerifyASN1(p.r1, digest, asn1Signature(&buf, sig))
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

// maxDERLen is the longest DER encoding of a 64-byte r‖s signature.
const maxDERLen = 2 + 2*(2+1+coordLen)

// asn1Signature writes the DER SEQUENCE{INTEGER r, INTEGER s} of a 64-byte
// r‖s signature into buf and returns the used part. A zero r or s is
// encoded as INTEGER 0, which every verifier rejects.
func asn1Signature(buf *[maxDERLen]byte, sig []byte) []byte {
	n := 2
	n += putASN1Int(buf[n:], sig[:coordLen])
	n += putASN1Int(buf[n:], sig[coordLen:])
	buf[0], buf[1] = 0x30, byte(n-2)
	return buf[:n]
}

// putASN1Int writes a non-negative big-endian integer as a DER INTEGER and
// returns the number of bytes written.
func putASN1Int(dst, b []byte) int {
	for len(b) > 1 && b[0] == 0 {
		b = b[1:]
	}
	pad := int(b[0] >> 7) // a leading 1 bit needs a 0x00 sign byte
	dst[0], dst[1], dst[2] = 0x02, byte(len(b)+pad), 0
	return 2 + pad + copy(dst[2+pad:], b)
}
