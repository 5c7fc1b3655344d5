package consensus

import "errors"

// Sentinel errors of the package; returned errors wrap them with %w.
var (
	// ErrInvalidMessage means a consensus message does not decode or breaks
	// a rule of the reference decoder (type, duplicates, sizes).
	ErrInvalidMessage = errors.New("consensus: invalid message")
	// ErrInvalidPayload means a dBFT extensible payload is not acceptable:
	// wrong category or validity range, unknown validator, sender or
	// witness not matching the validator.
	ErrInvalidPayload = errors.New("consensus: invalid payload")
	// ErrBadConfig means the Config misses a required field or holds an
	// impossible value.
	ErrBadConfig = errors.New("consensus: bad config")
	// ErrNotRunning means the service has stopped (or never ran) and takes
	// no input.
	ErrNotRunning = errors.New("consensus: service not running")
)
