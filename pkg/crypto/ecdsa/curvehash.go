package ecdsa

import (
	"crypto/sha256"

	"golang.org/x/crypto/sha3"
)

// Curve is an elliptic curve supported by verifyWithECDsa.
type Curve byte

// Supported curves.
const (
	Secp256r1 Curve = iota + 1 // NIST P-256, prime256v1, the curve of Neo keys
	Secp256k1                  // the Bitcoin/Ethereum curve
)

// String returns the curve's name.
func (c Curve) String() string {
	switch c {
	case Secp256r1:
		return "secp256r1"
	case Secp256k1:
		return "secp256k1"
	default:
		return "unknown"
	}
}

// HashAlgorithm is the message hash verifyWithECDsa applies before ECDSA.
type HashAlgorithm byte

// Supported message hashes.
const (
	SHA256    HashAlgorithm = iota + 1
	Keccak256               // legacy Keccak-256 (Ethereum), not SHA3-256
)

// CurveHash is the reference's NamedCurveHash: a curve and a message hash in
// one byte, the last argument of verifyWithECDsa.
type CurveHash byte

// The reference's NamedCurveHash values.
const (
	Secp256k1SHA256    CurveHash = 22
	Secp256r1SHA256    CurveHash = 23
	Secp256k1Keccak256 CurveHash = 122
	Secp256r1Keccak256 CurveHash = 123
)

// Valid reports whether c is one of the four known values.
func (c CurveHash) Valid() bool {
	switch c {
	case Secp256k1SHA256, Secp256r1SHA256, Secp256k1Keccak256, Secp256r1Keccak256:
		return true
	}
	return false
}

// Curve returns the curve part of c (0 if c is not Valid).
func (c CurveHash) Curve() Curve {
	switch c {
	case Secp256k1SHA256, Secp256k1Keccak256:
		return Secp256k1
	case Secp256r1SHA256, Secp256r1Keccak256:
		return Secp256r1
	}
	return 0
}

// Hash returns the hash part of c (0 if c is not Valid).
func (c CurveHash) Hash() HashAlgorithm {
	switch c {
	case Secp256k1SHA256, Secp256r1SHA256:
		return SHA256
	case Secp256k1Keccak256, Secp256r1Keccak256:
		return Keccak256
	}
	return 0
}

// KeccakSum256 returns the legacy Keccak-256 digest of data (the CryptoLib
// keccak256 method, Ethereum's hash).
func KeccakSum256(data []byte) [32]byte {
	var out [32]byte
	h := sha3.NewLegacyKeccak256()
	_, _ = h.Write(data) // hash.Hash.Write never fails
	h.Sum(out[:0])
	return out
}

// digest hashes msg with h (SHA256 or Keccak256).
func digest(h HashAlgorithm, msg []byte) [32]byte {
	if h == Keccak256 {
		return KeccakSum256(msg)
	}
	return sha256.Sum256(msg)
}
