package ecdsa

import (
	"math/big"

	"github.com/decred/dcrd/dcrec/secp256k1/v4"
)

// Sizes accepted by RecoverSecp256k1.
const (
	RecoverHashSize       = 32
	RecoverSignatureSize  = 65 // r ‖ s ‖ v
	RecoverCompactSigSize = 64 // r ‖ yParity·2²⁵⁵+s (EIP-2098)
)

var (
	orderK1    = secp256k1.S256().N // n, the group order
	primeK1Int = new(big.Int).SetBytes(primeK1)
)

// RecoverSecp256k1 is the CryptoLib recoverSecp256K1 method (from
// HF_Echidna): it recovers the secp256k1 public key that produced sig over
// the 32-byte msgHash and returns it compressed (33 bytes). It returns
// ok == false wherever the reference returns null; it never fails otherwise.
//
// sig is either r ‖ s ‖ v (65 bytes, v in 0..3 or 27..30) or the EIP-2098
// compact form r ‖ (yParity·2²⁵⁵ + s) (64 bytes). As in the reference, r and
// s are used modulo n without range checks beyond r mod n ≠ 0 and
// x = r + ⌊v/2⌋·n < p; only a point at infinity as the result is refused.
func RecoverSecp256k1(msgHash, sig []byte) (pub []byte, ok bool) {
	if len(msgHash) != RecoverHashSize {
		return nil, false
	}
	var rb, sb [coordSize]byte
	var recID byte
	switch len(sig) {
	case RecoverSignatureSize:
		copy(rb[:], sig[:coordSize])
		copy(sb[:], sig[coordSize:2*coordSize])
		recID = sig[64]
		if recID >= 27 {
			recID -= 27
		}
		if recID > 3 {
			return nil, false
		}
	case RecoverCompactSigSize:
		copy(rb[:], sig[:coordSize])
		copy(sb[:], sig[coordSize:])
		recID = sb[0] >> 7
		sb[0] &= 0x7f
	default:
		return nil, false
	}
	var bigR secp256k1.JacobianPoint
	if !liftX(rb[:], recID, &bigR) {
		return nil, false
	}
	var r, s, e secp256k1.ModNScalar
	r.SetByteSlice(rb[:]) // reduced modulo n, as the reference's ModInverse does
	s.SetByteSlice(sb[:])
	e.SetByteSlice(msgHash)
	if r.IsZero() {
		return nil, false // no inverse
	}
	rInv := new(secp256k1.ModNScalar).InverseValNonConst(&r)
	// Q = (-e/r)·G + (s/r)·R
	u1 := new(secp256k1.ModNScalar).Mul2(&e, rInv).Negate()
	u2 := new(secp256k1.ModNScalar).Mul2(&s, rInv)
	var p1, p2, q secp256k1.JacobianPoint
	secp256k1.ScalarBaseMultNonConst(u1, &p1)
	secp256k1.ScalarMultNonConst(u2, &bigR, &p2)
	secp256k1.AddNonConst(&p1, &p2, &q)
	if q.Z.IsZero() || (q.X.IsZero() && q.Y.IsZero()) {
		return nil, false
	}
	q.ToAffine()
	return secp256k1.NewPublicKey(&q.X, &q.Y).SerializeCompressed(), true
}

// liftX sets R to the point with x = r + ⌊recID/2⌋·n (which must be below
// p) and the y parity recID&1.
func liftX(r []byte, recID byte, bigR *secp256k1.JacobianPoint) bool {
	x := new(big.Int).SetBytes(r)
	if recID>>1 == 1 {
		x.Add(x, orderK1)
	}
	if x.Cmp(primeK1Int) >= 0 {
		return false
	}
	var fx, fy secp256k1.FieldVal
	fx.SetByteSlice(x.FillBytes(make([]byte, coordSize)))
	if !secp256k1.DecompressY(&fx, recID&1 == 1, &fy) {
		return false
	}
	fy.Normalize()
	bigR.X.Set(&fx)
	bigR.Y.Set(&fy)
	bigR.Z.SetInt(1)
	return true
}
