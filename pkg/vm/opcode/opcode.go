package opcode

import (
	"errors"
	"fmt"
)

// Opcode is one NeoVM instruction byte.
type Opcode byte

// ErrUnknown is returned for a name that is not an opcode.
var ErrUnknown = errors.New("opcode: unknown opcode")

var byName = func() map[string]Opcode {
	m := make(map[string]Opcode, 200)
	for i, n := range names {
		if n != "" {
			m[n] = Opcode(i)
		}
	}
	return m
}()

// IsValid reports whether op is defined by the reference VM.
func (op Opcode) IsValid() bool { return names[op] != "" }

// String returns the reference name of op ("PUSH1"), or a hex form for an
// undefined byte.
func (op Opcode) String() string {
	if n := names[op]; n != "" {
		return n
	}
	return fmt.Sprintf("Opcode(0x%02x)", byte(op))
}

// FromString returns the opcode with the given reference name.
func FromString(s string) (Opcode, error) {
	if op, ok := byName[s]; ok {
		return op, nil
	}
	return 0, fmt.Errorf("%w: %q", ErrUnknown, s)
}

// OperandSize describes the operand following op: a fixed operand of size
// bytes (prefix == 0), or a length prefix of prefix bytes (1, 2 or 4)
// followed by that many bytes.
func OperandSize(op Opcode) (size, prefix int) {
	s := operandSizes[op]
	if s < 0 {
		return 0, int(-s)
	}
	return int(s), 0
}
