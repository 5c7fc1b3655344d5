package netconfig

import "errors"

// Sentinel errors (pkg/config re-exports them). Errors returned by this
// package wrap one of them (errors.Is) and add the offending field and
// value.
var (
	// ErrInvalid: a value is out of range or inconsistent with another one.
	ErrInvalid = errors.New("config: invalid")
	// ErrMagic: the network magic is missing (0).
	ErrMagic = errors.New("config: bad network magic")
	// ErrCommittee: the standby committee or the validators count is wrong.
	ErrCommittee = errors.New("config: bad committee")
	// ErrPublicKey: a public key is not a valid secp256r1 point.
	ErrPublicKey = errors.New("config: bad public key")
	// ErrHardfork: an unknown hardfork name or inconsistent heights.
	ErrHardfork = errors.New("config: bad hardforks")
	// ErrDuration: a negative duration or one that is not whole milliseconds.
	ErrDuration = errors.New("config: bad duration")
	// ErrAddress: a malformed or duplicate network address.
	ErrAddress = errors.New("config: bad address")
)
