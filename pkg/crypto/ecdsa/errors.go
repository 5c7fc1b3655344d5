package ecdsa

import "errors"

// Errors of this package. Every error returned by a Verify*/Decode* function
// is one the reference raises as an exception, i.e. a FAULT of the native
// call; inputs the reference answers with false give (false, nil).
var (
	// ErrUnsupportedCurveHash: the NamedCurveHash is not one the variant
	// accepts.
	ErrUnsupportedCurveHash = errors.New("ecdsa: unsupported curve/hash")
	// ErrPublicKeyFormat: empty key, unknown prefix byte, or a length that
	// does not match the prefix.
	ErrPublicKeyFormat = errors.New("ecdsa: invalid public key encoding")
	// ErrPublicKeyRange: a coordinate is not below the field prime (the
	// reference's ECFieldElement raises ArgumentException).
	ErrPublicKeyRange = errors.New("ecdsa: public key coordinate out of range")
	// ErrPublicKeyNoPoint: no curve point has the compressed key's x.
	ErrPublicKeyNoPoint = errors.New("ecdsa: compressed public key has no curve point")
	// ErrPublicKeyNotOnCurve: an uncompressed key's point is not on the
	// curve.
	ErrPublicKeyNotOnCurve = errors.New("ecdsa: public key not on curve")
	// ErrSignatureLength: the signature is not r ‖ s, 64 bytes.
	ErrSignatureLength = errors.New("ecdsa: signature must be 64 bytes")

	// ErrEd25519SignatureLength: an Ed25519 signature is not 64 bytes.
	ErrEd25519SignatureLength = errors.New("ecdsa: ed25519 signature must be 64 bytes")
	// ErrEd25519PublicKeyLength: an Ed25519 public key is not 32 bytes.
	ErrEd25519PublicKeyLength = errors.New("ecdsa: ed25519 public key must be 32 bytes")
	// ErrEd25519PublicKey: the Ed25519 public key is not a canonical
	// encoding of a curve point of large order.
	ErrEd25519PublicKey = errors.New("ecdsa: invalid ed25519 public key")
)
