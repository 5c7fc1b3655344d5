// Package ecdsa holds the signature primitives behind the CryptoLib native
// contract: ECDSA verification on secp256r1 and secp256k1 with SHA-256 or
// Keccak-256 (verifyWithECDsa), Ed25519 verification (verifyWithEd25519),
// secp256k1 public key recovery (recoverSecp256K1) and Keccak-256
// (keccak256). It has no VM dependency: the native contract is a thin
// adapter that converts stack items, calls one function here and turns a
// returned error into a FAULT.
//
// Every function reproduces the reference (C# Neo.SmartContract.Native.
// CryptoLib) including which malformed inputs raise an exception (FAULT) and
// which answer false or null, because that difference is consensus-visible.
// The reference changed those rules at hardforks; Variant selects the rule
// set and VariantAt picks it from the enabled hardforks.
//
// CryptoLib methods of the reference (C# neo @ c612597, neo-go @ 4b67ae6),
// with the hardfork range in which each implementation is active, the CPU
// fee, and where it lives in n3d:
//
//	sha256(data)                               always         1<<15  hash.Sha256
//	ripemd160(data)                            always         1<<15  hash.RipeMD160
//	murmur32(data, seed)                       always         1<<13  murmur.Sum32LE
//	keccak256(data)                            Cockatrice..   1<<15  KeccakSum256
//	verifyWithECDsa(message, pubkey,
//	    signature, curve)                      ..Cockatrice   1<<15  Verify(VariantPreCockatrice)
//	verifyWithECDsa(..., curveHash)            Cockatrice..Gorgon    Verify(VariantCockatrice)
//	verifyWithECDsa(..., curveHash)            Gorgon..       1<<15  Verify(VariantGorgon)
//	verifyWithEd25519(message, pubkey,
//	    signature)                             Echidna..Gorgon 1<<15 VerifyEd25519(VariantCockatrice)
//	verifyWithEd25519(...)                     Gorgon..       1<<15  VerifyEd25519(VariantGorgon)
//	recoverSecp256K1(messageHash, signature)   Echidna..      1<<15  RecoverSecp256k1
//	bls12381Serialize(g)                       always         1<<19  bls12381.Serialize
//	bls12381Deserialize(data)                  always         1<<19  bls12381.Deserialize
//	bls12381Equal(x, y)                        always         1<<5   bls12381.Equal
//	bls12381Add(x, y)                          always         1<<19  bls12381.Add
//	bls12381Mul(x, mul, neg)                   always         1<<21  bls12381.Mul
//	bls12381Pairing(g1, g2)                    always         1<<23  bls12381.Pairing
//
// ("a..b" means active from hardfork a, inclusive, until hardfork b,
// exclusive. The pre-Cockatrice verifyWithECDsa names its last parameter
// "curve", the later ones "curveHash".)
//
// FAULT versus false, per method (see Verify for the full ECDSA table):
//
//   - verifyWithECDsa: an unknown curve hash always FAULTs (before
//     Cockatrice, 122 and 123 are unknown). A badly formed key (empty, bad
//     prefix, bad length, compressed x without a point) always FAULTs. A key
//     coordinate ≥ p and a signature that is not 64 bytes give false before
//     Gorgon and FAULT from Gorgon. An uncompressed key off the curve FAULTs,
//     except before Gorgon with Keccak-256 (false). r, s outside [1, n-1]
//     give false.
//   - verifyWithEd25519: before Gorgon everything malformed is false; from
//     Gorgon a signature that is not 64 bytes, a key that is not 32 bytes
//     or not a valid large-order point FAULTs.
//   - recoverSecp256K1 never FAULTs on byte input: bad lengths, bad recovery
//     ids and unrecoverable signatures give null.
//
// Where neo-go differs: neo-go FAULTs on every key decoding error in all
// variants (the reference answers false for coordinates ≥ p and, with
// Keccak before Gorgon, for off-curve keys); it verifies Ed25519 with
// crypto/ed25519 (cofactorless, accepts small-order and non-canonical keys)
// where the reference is cofactored and rejects those keys; and its
// recovery rejects r ≥ n, s ≥ n and s = 0, which the reference accepts
// (modulo n). n3d follows the reference.
//
// Data flow: bytes from the stack → DecodePublicKey (SEC 1 point, curve
// checks) → digest of the message (SHA-256 or Keccak-256) → PublicKey.
// VerifyHash (crypto/ecdsa for secp256r1, dcrd secp256k1 for secp256k1).
// Ed25519 uses filippo.io/edwards25519 group arithmetic.
package ecdsa
