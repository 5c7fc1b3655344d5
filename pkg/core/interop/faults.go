package interop

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// FAULT texts. A syscall that fails FAULTs the VM with the text the
// reference Go node gives: "<syscall name> failed: <error>" for an error
// its handler returns, or the bare error text for a failure it raises as a
// panic (an argument of the wrong type, a native method's error). Errors
// keep their sentinel for errors.Is; only the text is the reference's.

// bareError FAULTs with its own text, not prefixed by the syscall name.
type bareError struct{ err error }

func (e bareError) Error() string { return e.err.Error() }
func (e bareError) Unwrap() error { return e.err }

// Bare marks err as a failure the reference Go node raises as a panic in
// a syscall handler or a native method: the FAULT text is err's own, not
// "<syscall> failed: ...". Bare(nil) is nil.
func Bare(err error) error {
	if err == nil {
		return nil
	}
	return bareError{err}
}

// Fault returns an error of kind (for errors.Is) that reads text.
func Fault(kind error, text string) error { return vm.Fault(kind, text, nil) }

// Faultf is Fault with a formatted text.
func Faultf(kind error, format string, args ...any) error {
	return vm.Fault(kind, fmt.Sprintf(format, args...), nil)
}

// syscallFault words the failure err of syscall name (or id, for a
// syscall the reference does not know by name).
func syscallFault(name string, err error) error {
	var b bareError
	if errors.As(err, &b) {
		return err
	}
	return vm.Fault(err, name+" failed: "+err.Error(), nil)
}

// faultName is how the reference names syscall f in a FAULT text: its
// name, or its id in decimal for System.Runtime.LoadScript, which is not
// in the reference's list of names.
func faultName(f *Function) string {
	if f.Name == RuntimeLoadScript {
		return strconv.FormatUint(uint64(f.ID), 10)
	}
	return f.Name
}

// errStackEmpty is a pop from an empty stack (the reference's runtime
// panic).
var errStackEmpty = Bare(Fault(ErrInvalidArgument, "runtime error: index out of range [-1]"))

// goValueType is the Go type of the reference's value of it, as "%T"
// shows it in its messages.
func goValueType(it stackitem.Item) string {
	switch it.Type() {
	case stackitem.AnyT:
		return "<nil>"
	case stackitem.BooleanT:
		return "bool"
	case stackitem.IntegerT:
		return "*big.Int"
	case stackitem.ByteArrayT, stackitem.BufferT:
		return "[]uint8"
	case stackitem.ArrayT, stackitem.StructT:
		return "[]stackitem.Item"
	case stackitem.MapT:
		return "[]stackitem.MapElement"
	case stackitem.PointerT:
		return "int"
	}
	if io, ok := it.(*stackitem.Interop); ok {
		return fmt.Sprintf("%T", io.Value())
	}
	return "interface {}"
}

// PublicKeyError words the failure to decode public key b as the
// reference Go node does; err (the decoder's error) is kept for
// errors.Is.
func PublicKeyError(b []byte, err error) error {
	return vm.Fault(err, publicKeyText(b), nil)
}

func publicKeyText(b []byte) string {
	if len(b) == 0 {
		return "EOF"
	}
	switch b[0] {
	case 0x00:
		return "point at infinity is not a valid key"
	case 0x02, 0x03:
		if len(b) < 33 {
			return "unexpected EOF"
		}
		if len(b) > 33 {
			return "extra data"
		}
		return "error computing Y for compressed point"
	case 0x04:
		if len(b) < 65 {
			return "unexpected EOF"
		}
		if len(b) > 65 {
			return "extra data"
		}
		return "encoded point is not on the P256 curve"
	}
	return fmt.Sprintf("invalid prefix %d", b[0])
}

// hashLengthText is the reference's error for a hash of n bytes where
// one of size bytes is expected.
func hashLengthText(size, n int) string {
	return fmt.Sprintf("expected byte size of %d got %d", size, n)
}

// multisigText is the reference's error for invalid multisig parameters.
func multisigText(m, n int) string {
	switch {
	case m < 1:
		return fmt.Sprintf("param m cannot be smaller than 1, got %d", m)
	case m > n:
		return fmt.Sprintf("length of the signatures (%d) is higher then the number of public keys", m)
	}
	return fmt.Sprintf("public key count %d exceeds maximum of length 1024", n)
}
