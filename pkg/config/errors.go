package config

import "errors"

// Sentinel errors. Errors returned by this package wrap one of them (errors.Is)
// and add the offending field and value.
var (
	// ErrNotFound: the config file does not exist and no embedded copy fits.
	ErrNotFound = errors.New("config: not found")
	// ErrDecode: the YAML is malformed, has an unknown field or a value of the
	// wrong type.
	ErrDecode = errors.New("config: cannot decode")
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
	// ErrDBType: an unknown database type or a missing database path.
	ErrDBType = errors.New("config: bad database configuration")
	// ErrLogging: an unknown log level or encoding.
	ErrLogging = errors.New("config: bad logging configuration")
)
