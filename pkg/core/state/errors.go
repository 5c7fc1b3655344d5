package state

import "errors"

// Errors returned by decoders of this package.
var (
	// ErrInvalidContract is returned for a malformed contract state.
	ErrInvalidContract = errors.New("state: invalid contract state")
	// ErrInvalidNotification is returned for a malformed notification.
	ErrInvalidNotification = errors.New("state: invalid notification event")
	// ErrInvalidExecution is returned for a malformed execution result.
	ErrInvalidExecution = errors.New("state: invalid execution result")
)
