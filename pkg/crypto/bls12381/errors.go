package bls12381

import "errors"

// Errors returned by this package; each one is a FAULT in the reference.
var (
	// ErrInvalidLength: the input of Deserialize is not 48, 96 or 576 bytes.
	ErrInvalidLength = errors.New("bls12381: invalid point length")
	// ErrInvalidPoint: bad flags, non-canonical coordinates, not on the
	// curve, not in the subgroup, or an encoding the reference cannot decode.
	ErrInvalidPoint = errors.New("bls12381: invalid point encoding")
	// ErrTypeMismatch: the operation does not accept these kinds of value
	// (the reference's "BLS12-381 type mismatch").
	ErrTypeMismatch = errors.New("bls12381: type mismatch")
	// ErrInvalidScalar: the multiplier is not 32 bytes or not below r.
	ErrInvalidScalar = errors.New("bls12381: invalid scalar")
)
