package vm

import "errors"

// Errors that FAULT the VM. The error returned by Run wraps one of them.
var (
	ErrBadScript          = errors.New("vm: bad script")
	ErrStackUnderflow     = errors.New("vm: stack index out of range")
	ErrInvalidType        = errors.New("vm: invalid item type")
	ErrStackOverflow      = errors.New("vm: MaxStackSize exceeded")
	ErrInvocationOverflow = errors.New("vm: MaxInvocationStackSize exceeded")
	ErrTryNesting         = errors.New("vm: MaxTryNestingDepth exceeded")
	ErrOutOfGas           = errors.New("vm: insufficient GAS")
	ErrJump               = errors.New("vm: jump out of range")
	ErrSlot               = errors.New("vm: invalid slot access")
	ErrOutOfRange         = errors.New("vm: value out of range")
	ErrItemTooBig         = errors.New("vm: MaxItemSize exceeded")
	ErrDivideByZero       = errors.New("vm: division by zero")
	ErrUnhandled          = errors.New("vm: unhandled exception")
	ErrAbort              = errors.New("vm: ABORT")
	ErrAssert             = errors.New("vm: ASSERT")
	ErrTry                = errors.New("vm: invalid exception handling")
	ErrSyscall            = errors.New("vm: syscall failed")
	ErrCallT              = errors.New("vm: CALLT failed")
	ErrReturnCount        = errors.New("vm: return value count mismatch")
	ErrNoContext          = errors.New("vm: no execution context")
	ErrInternal           = errors.New("vm: internal error")
)

// vmPanic carries a FAULT through the handlers to the execution loop.
type vmPanic struct{ err error }

func (v *VM) fail(err error) { panic(vmPanic{err}) }

func (v *VM) check(err error) {
	if err != nil {
		panic(vmPanic{err})
	}
}
