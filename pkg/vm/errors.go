package vm

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// Errors that FAULT the VM. The error returned by Run wraps one of them
// (errors.Is); the text of the fault is the reference Go node's wording
// (see FaultError), not the text of these sentinels.
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

// GasLimitText is how the reference Go node words an exhausted GAS limit.
const GasLimitText = "GAS limit exceeded"

// kindError is a FAULT cause worded as the reference Go node words it,
// which errors.Is matches against its sentinel kind (and, if set, the
// error it wraps).
type kindError struct {
	kind  error
	text  string
	cause error
}

func (e *kindError) Error() string { return e.text }

func (e *kindError) Unwrap() []error {
	if e.cause != nil {
		return []error{e.kind, e.cause}
	}
	return []error{e.kind}
}

// faultf returns an error of kind whose text is the formatted message.
func faultf(kind error, format string, args ...any) error {
	return &kindError{kind: kind, text: fmt.Sprintf(format, args...)}
}

// Fault returns an error of kind (a sentinel for errors.Is) that reads
// text when it FAULTs the VM; cause, if not nil, is wrapped as well.
// Syscall and CALLT handlers use it to word their failures as the
// reference Go node does.
func Fault(kind error, text string, cause error) error {
	return &kindError{kind: kind, text: text, cause: cause}
}

// outOfGas is ErrOutOfGas worded as the reference Go node words it.
var outOfGas error = &kindError{kind: ErrOutOfGas, text: GasLimitText}

// FaultError is the fault exception of a FAULTed VM: the instruction that
// was executing and the cause. Its text is the reference Go node's
// ("at instruction 3 (DIV): division by zero").
type FaultError struct {
	IP  int           // offset of the instruction in its script
	Op  opcode.Opcode // the instruction
	Err error         // the cause
}

func (e *FaultError) Error() string {
	op := e.Op.String()
	if !e.Op.IsValid() {
		op = fmt.Sprintf("Opcode(%d)", byte(e.Op))
	}
	return fmt.Sprintf("at instruction %d (%s): %s", e.IP, op, e.Err)
}

func (e *FaultError) Unwrap() error { return e.Err }

// vmPanic carries a FAULT through the handlers to the execution loop.
type vmPanic struct{ err error }

func (v *VM) fail(err error) { panic(vmPanic{err}) }

func (v *VM) check(err error) {
	if err != nil {
		panic(vmPanic{err})
	}
}
