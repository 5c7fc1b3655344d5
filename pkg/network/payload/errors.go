package payload

import "errors"

// Sentinel errors of the payload decoders. Decoders wrap them with the
// offending value.
var (
	// ErrEmpty is returned for a list the reference requires non-empty.
	ErrEmpty = errors.New("payload: empty list")
	// ErrInvalidUTF8 is returned for a string that is not strict UTF-8.
	ErrInvalidUTF8 = errors.New("payload: invalid UTF-8 string")
	// ErrInvalidInventoryType is returned for an unknown inventory type.
	ErrInvalidInventoryType = errors.New("payload: invalid inventory type")
	// ErrInvalidCount is returned for a block or header request count out
	// of range.
	ErrInvalidCount = errors.New("payload: invalid count")
	// ErrInvalidK is returned for a bloom filter with too many hash functions.
	ErrInvalidK = errors.New("payload: bloom filter K out of range")
	// ErrInvalidRange is returned for an extensible payload whose valid
	// block range is empty.
	ErrInvalidRange = errors.New("payload: invalid valid-block range")
	// ErrWitnessCount is returned when an extensible payload does not carry
	// exactly one witness.
	ErrWitnessCount = errors.New("payload: expected exactly one witness")
)
