package config

import (
	"errors"

	"github.com/n3d-io/n3d/pkg/config/netconfig"
)

// Sentinel errors. Errors returned by this package wrap one of them (errors.Is)
// and add the offending field and value.
var (
	// ErrNotFound: the config file does not exist and no embedded copy fits.
	ErrNotFound = errors.New("config: not found")
	// ErrDecode: the YAML is malformed, has an unknown field or a value of the
	// wrong type.
	ErrDecode = errors.New("config: cannot decode")
	// ErrInvalid: a value is out of range or inconsistent with another one.
	ErrInvalid = netconfig.ErrInvalid
	// ErrMagic: the network magic is missing (0).
	ErrMagic = netconfig.ErrMagic
	// ErrCommittee: the standby committee or the validators count is wrong.
	ErrCommittee = netconfig.ErrCommittee
	// ErrPublicKey: a public key is not a valid secp256r1 point.
	ErrPublicKey = netconfig.ErrPublicKey
	// ErrHardfork: an unknown hardfork name or inconsistent heights.
	ErrHardfork = netconfig.ErrHardfork
	// ErrDuration: a negative duration or one that is not whole milliseconds.
	ErrDuration = netconfig.ErrDuration
	// ErrAddress: a malformed or duplicate network address.
	ErrAddress = netconfig.ErrAddress
	// ErrDBType: an unknown database type or a missing database path.
	ErrDBType = errors.New("config: bad database configuration")
	// ErrLogging: an unknown log level or encoding.
	ErrLogging = errors.New("config: bad logging configuration")
)
