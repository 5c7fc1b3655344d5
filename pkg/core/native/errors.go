package native

import (
	"errors"

	"github.com/n3d-io/n3d/pkg/core/interop"
)

// Errors returned by native methods; every one FAULTs the calling script.
var (
	// ErrInvalidArgument is an argument of the wrong type or out of range.
	ErrInvalidArgument = errors.New("native: invalid argument")
	// ErrTooBigInput is an argument over StdLib's MaxInputLength.
	ErrTooBigInput = errors.New("native: input is too big")
	// ErrInvalidBase is an itoa/atoi base other than 10 and 16.
	ErrInvalidBase = errors.New("native: invalid base")
	// ErrInvalidFormat is a string that does not parse.
	ErrInvalidFormat = errors.New("native: invalid format")
	// ErrNoCommittee is a committee-only method called without the
	// committee's witness.
	ErrNoCommittee = errors.New("native: invalid committee signature")
	// ErrNotFound is a missing contract, method or record.
	ErrNotFound = errors.New("native: not found")
	// ErrUnknownMethod is a CallNative at an offset that holds no method.
	ErrUnknownMethod = errors.New("native: method not found")
	// ErrMissingFlags is a call without the method's required call flags.
	ErrMissingFlags = errors.New("native: missing call flags")
	// ErrNotActive is a call to a native before its activation.
	ErrNotActive = errors.New("native: contract is not active")
	// ErrInvalidState is corrupt native storage.
	ErrInvalidState = errors.New("native: invalid stored state")
	// ErrContract is a failed deploy, update or destroy.
	ErrContract = errors.New("native: contract management")
)

// errNoCommittee is ErrNoCommittee worded as the reference Go node's.
var errNoCommittee = interop.Fault(ErrNoCommittee, "invalid committee signature")

// StdLib's errors worded as the reference Go node's.
var (
	errInvalidBase   = interop.Fault(ErrInvalidBase, "invalid base")
	errInvalidFormat = interop.Fault(ErrInvalidFormat, "invalid format")
)

// errNegativeAmount is ErrNegativeAmount worded as the reference's.
var errNegativeAmount = interop.Fault(ErrNegativeAmount, "negative amount")

// RoleManagement's argument errors worded as the reference's.
var (
	errInvalidRole  = interop.Fault(ErrInvalidArgument, "invalid role")
	errInvalidIndex = interop.Fault(ErrInvalidArgument, "invalid index")
)
