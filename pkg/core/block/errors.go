package block

import "errors"

// Sentinel errors returned (wrapped) by the decoders, parsers and checks.
var (
	ErrInvalidVersion = errors.New("block: invalid version")
	ErrWitnessCount   = errors.New("block: header must have exactly one witness")
	ErrTooManyTxs     = errors.New("block: too many transactions")
	ErrDuplicateTx    = errors.New("block: duplicate transaction")
	ErrMerkleRoot     = errors.New("block: merkle root does not match transactions")
	ErrTrailingData   = errors.New("block: trailing data after block")
	ErrHashMismatch   = errors.New("block: hash does not match contents")
	ErrSizeMismatch   = errors.New("block: size does not match contents")
	ErrTooBig         = errors.New("block: larger than the maximum block size")
	ErrInvalidJSON    = errors.New("block: invalid JSON")
)
