package nef

import "errors"

// Sentinel errors of NEF decoding and validation.
var (
	ErrInvalidMagic    = errors.New("nef: wrong magic")
	ErrInvalidString   = errors.New("nef: invalid string")
	ErrReservedByte    = errors.New("nef: reserved bytes must be 0")
	ErrEmptyScript     = errors.New("nef: script is empty")
	ErrChecksum        = errors.New("nef: checksum mismatch")
	ErrTooLarge        = errors.New("nef: file too large")
	ErrInvalidMethod   = errors.New("nef: invalid method token")
	ErrInvalidJSON     = errors.New("nef: invalid JSON")
	ErrCompilerTooLong = errors.New("nef: compiler name too long")
)
