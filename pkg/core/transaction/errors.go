package transaction

import (
	"errors"

	"github.com/n3d-io/n3d/pkg/io"
)

// Sentinel errors returned (wrapped) by the decoders and JSON parsers.
var (
	ErrInvalidVersion     = errors.New("transaction: invalid version")
	ErrNegativeFee        = errors.New("transaction: negative fee")
	ErrFeeOverflow        = errors.New("transaction: system fee + network fee overflows")
	ErrNoSigners          = errors.New("transaction: no signers")
	ErrTooManySigners     = errors.New("transaction: too many signers")
	ErrDuplicateSigner    = errors.New("transaction: duplicate signer")
	ErrTooManyAttributes  = errors.New("transaction: too many attributes")
	ErrDuplicateAttribute = errors.New("transaction: duplicate attribute")
	ErrInvalidAttribute   = errors.New("transaction: invalid attribute")
	ErrEmptyScript        = errors.New("transaction: empty script")
	ErrWitnessCount       = errors.New("transaction: witness count does not match signer count")
	ErrInvalidScope       = errors.New("transaction: invalid witness scope")
	ErrTooManySubitems    = errors.New("transaction: too many sub-items")
	ErrInvalidAction      = errors.New("transaction: invalid witness rule action")
	ErrInvalidCondition   = errors.New("transaction: invalid witness condition")
	ErrNestingTooDeep     = errors.New("transaction: witness condition nesting too deep")
	ErrInvalidBool        = errors.New("transaction: invalid boolean byte")
	ErrInvalidPublicKey   = errors.New("transaction: invalid public key")
	ErrTrailingData       = errors.New("transaction: trailing data after transaction")
	ErrHashMismatch       = errors.New("transaction: hash does not match contents")
	ErrSizeMismatch       = errors.New("transaction: size does not match contents")
	ErrOversized          = errors.New("transaction: larger than MaxTransactionSize")
	ErrInvalidJSON        = errors.New("transaction: invalid JSON")
)

// setErr records err in r unless an earlier error is already there.
func setErr(r *io.BinReader, err error) {
	if r.Err == nil {
		r.Err = err
	}
}

// readBool reads a byte that must be 0 or 1, as the reference's ReadBoolean.
func readBool(r *io.BinReader) bool {
	b := r.ReadU8()
	if b > 1 {
		setErr(r, ErrInvalidBool)
	}
	return b == 1
}
