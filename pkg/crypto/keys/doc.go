// Package keys holds the elliptic-curve keys of Neo N3: secp256r1 (NIST
// P-256, the curve of every account, validator and committee key) and
// secp256k1 (used only by CryptoLib.verifyWithECDsa).
//
// Data flow:
//
//	33/65 bytes ──NewPublicKeyFromBytes──▶ *PublicKey (shared, immutable,
//	    │           compressed keys go through a decompression cache)
//	    └─ Verify(sig r‖s, digest) ── r1 (p256verify.go): u2·Q with nistec's
//	                                   assembly, u1·G from a comb table of G;
//	                                   once a key has verified 16 times, from
//	                                   a comb table of the key too (a wider
//	                                   one after 4096), summed (every
//	                                   point loaded before the first
//	                                   addition: the misses overlap)
//	                                   with our own field arithmetic
//	                                   (p256field.go, p256point.go); see
//	                                   docs/benchmarks-crypto.md
//	                                   k1: decred secp256k1
//	SigCache.Verify ── remembers successes, so a signature checked in the
//	                   mempool is free when its block is imported
//	32 bytes / WIF / NEP-2 ──▶ *PrivateKey ──Sign(data)──▶ 64-byte r‖s
//	                                          (RFC 6979, SHA-256)
//	*PublicKey ──VerificationScript()──▶ PUSHDATA1 33 <key> SYSCALL CheckSig
//	           ──ScriptHash()/Address()──▶ the standard account
//
// Encodings follow the C# reference (Neo.Cryptography.ECC.ECPoint): keys are
// written compressed, the point at infinity is the single byte 0x00 and is
// never accepted by a decoder, keys order by X then Y. Signatures are the
// 64-byte IEEE P1363 form r‖s; low-S is not required (neither .NET nor
// BouncyCastle require it). NEP-2 follows the C# wallet: the passphrase is
// used as its UTF-8 bytes without Unicode normalisation.
//
// Multi-signature scripts and the standard-contract checks live in
// pkg/smartcontract/scripts; this package only builds the single-signature
// script it needs for ScriptHash and Address.
package keys
