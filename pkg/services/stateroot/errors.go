package stateroot

import "errors"

// Sentinel errors of the package; returned errors wrap them with %w.
var (
	// ErrInvalidMessage is a payload whose data does not decode.
	ErrInvalidMessage = errors.New("stateroot: invalid message")
	// ErrInvalidPayload is a StateService payload that is not acceptable:
	// wrong category, a sender that is not a designated state validator's
	// account, a witness or signature that does not verify, a bad
	// validator index. The sender misbehaves.
	ErrInvalidPayload = errors.New("stateroot: invalid payload")
	// ErrNotValidNow is a payload outside its validity range at the
	// current height, or a root for a block the node does not have yet:
	// not a fault of the sender, but not to be relayed either.
	ErrNotValidNow = errors.New("stateroot: payload not valid at this height")
	// ErrBadConfig is a Config that misses a required field.
	ErrBadConfig = errors.New("stateroot: bad config")
)
