// Package bls12381 holds the BLS12-381 values and operations behind the
// CryptoLib native contract's bls12381* methods, with the reference's exact
// byte formats, result types and errors (C# Neo.SmartContract.Native.
// CryptoLib.BLS12_381 over Neo.Cryptography.BLS12_381), computed with
// github.com/consensys/gnark-crypto.
//
// Values. The reference distinguishes five kinds of value and so does this
// package: G1Affine, G1Projective, G2Affine, G2Projective and GT. Deserialize
// only ever yields affine points and GT; Add and Mul on curve points yield
// projective points (as the reference's operators do); Pairing yields GT. The
// kind is observable: Equal refuses to compare different kinds (the
// reference's bls12381Equal throws), while Point.Equal, the value equality
// the VM uses when it compares two interop items, simply reports false.
//
// Formats (big-endian field elements, as the reference writes them):
//
//	G1   48 bytes  compressed x with the three ZCash flag bits in byte 0
//	               (0x80 compressed, 0x40 infinity, 0x20 y is the larger root)
//	G2   96 bytes  compressed x = c1 ‖ c0, flags in byte 0 as for G1
//	GT  576 bytes  the Fp12 element c1 ‖ c0, each Fp6 as c2 ‖ c1 ‖ c0,
//	               each Fp2 as c1 ‖ c0 (gnark-crypto's E12.Bytes layout is
//	               the same, which the tests check against the reference's
//	               pairing, addition and multiplication results)
//
// Deserialization checks what the reference checks: canonical field
// elements, the flag combinations, that the point is on the curve and in the
// prime-order subgroup; GT elements are only checked to be canonical (no
// subgroup check). One reference quirk is kept on purpose: the reference
// always solves y² = x³ + 4(u+1) before looking at the infinity flag of a G2
// point, and 4(u+1) is not a square, so every 96-byte input with the
// infinity flag fails to deserialize there and fails here too (gnark-crypto
// and neo-go accept the canonical G2 identity encoding).
//
// Scalars for Mul are 32 bytes little-endian and must be below the group
// order r; neg negates the scalar modulo r. On GT, "Add" is the Fp12 product
// and "Mul" is exponentiation, as in the reference.
//
// Data flow: the native adapter deserializes stack byte strings with
// Deserialize, keeps the returned Point in an interop stack item, passes
// points back to Add, Mul, Pairing and Equal, and turns a point into bytes
// with Serialize. Every returned error maps to a FAULT in the reference.
package bls12381
