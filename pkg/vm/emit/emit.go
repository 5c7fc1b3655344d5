// Package emit builds NeoVM scripts: pushes of integers, bytes, strings
// and booleans in the reference ScriptBuilder encodings, opcodes, jumps,
// syscalls by name and System.Contract.Call invocations. A Builder
// collects the bytes; the first error sticks and is returned by Script.
package emit

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// Errors of the builder.
var (
	ErrTooBig      = errors.New("emit: integer exceeds 32 bytes")
	ErrUnsupported = errors.New("emit: unsupported value")
	ErrOperand     = errors.New("emit: bad operand")
)

// Builder accumulates a script.
type Builder struct {
	buf []byte
	err error
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{} }

// Script returns the script and the first error met.
func (b *Builder) Script() ([]byte, error) { return b.buf, b.err }

// Len is the current script length (the offset of the next instruction).
func (b *Builder) Len() int { return len(b.buf) }

// Err returns the first error met.
func (b *Builder) Err() error { return b.err }

func (b *Builder) setErr(err error) {
	if b.err == nil {
		b.err = err
	}
}

// Opcodes appends operand-less opcodes.
func (b *Builder) Opcodes(ops ...opcode.Opcode) *Builder {
	for _, op := range ops {
		b.buf = append(b.buf, byte(op))
	}
	return b
}

// Instruction appends op with a raw operand (checked against the operand
// layout of op).
func (b *Builder) Instruction(op opcode.Opcode, operand []byte) *Builder {
	size, prefix := opcode.OperandSize(op)
	if prefix == 0 && len(operand) != size {
		b.setErr(fmt.Errorf("%w: %s takes %d bytes, got %d", ErrOperand, op, size, len(operand)))
		return b
	}
	b.buf = append(b.buf, byte(op))
	b.buf = append(b.buf, operand...)
	return b
}

// Int pushes an integer in the shortest reference form.
func (b *Builder) Int(n int64) *Builder {
	if n >= -1 && n <= 16 {
		b.buf = append(b.buf, byte(int64(opcode.PUSH0)+n))
		return b
	}
	return b.BigInt(big.NewInt(n))
}

// BigInt pushes an integer of at most 32 bytes.
func (b *Builder) BigInt(n *big.Int) *Builder {
	if n.IsInt64() && n.Int64() >= -1 && n.Int64() <= 16 {
		return b.Int(n.Int64())
	}
	raw := bigint.ToBytes(n)
	for i, size := range []int{1, 2, 4, 8, 16, 32} {
		if len(raw) > size {
			continue
		}
		pad := byte(0)
		if n.Sign() < 0 {
			pad = 0xff
		}
		b.buf = append(b.buf, byte(opcode.PUSHINT8)+byte(i))
		b.buf = append(b.buf, raw...)
		for range size - len(raw) {
			b.buf = append(b.buf, pad)
		}
		return b
	}
	b.setErr(fmt.Errorf("%w: %d bytes", ErrTooBig, len(raw)))
	return b
}

// Bool pushes PUSHT or PUSHF.
func (b *Builder) Bool(v bool) *Builder {
	if v {
		return b.Opcodes(opcode.PUSHT)
	}
	return b.Opcodes(opcode.PUSHF)
}

// Bytes pushes data with PUSHDATA1/2/4.
func (b *Builder) Bytes(data []byte) *Builder {
	switch n := len(data); {
	case n < 0x100:
		b.buf = append(b.buf, byte(opcode.PUSHDATA1), byte(n))
	case n < 0x10000:
		b.buf = binary.LittleEndian.AppendUint16(append(b.buf, byte(opcode.PUSHDATA2)), uint16(n))
	default:
		b.buf = binary.LittleEndian.AppendUint32(append(b.buf, byte(opcode.PUSHDATA4)), uint32(n))
	}
	b.buf = append(b.buf, data...)
	return b
}

// String pushes the UTF-8 bytes of s.
func (b *Builder) String(s string) *Builder { return b.Bytes([]byte(s)) }

// Null pushes PUSHNULL.
func (b *Builder) Null() *Builder { return b.Opcodes(opcode.PUSHNULL) }

// Any pushes a Go value: nil, bool, signed integers, *big.Int, []byte,
// string, util.Uint160/Uint256 (serialized bytes) or []any (an array built
// with PACK, NEWARRAY0 when empty).
func (b *Builder) Any(v any) *Builder {
	switch x := v.(type) {
	case nil:
		return b.Null()
	case bool:
		return b.Bool(x)
	case int:
		return b.Int(int64(x))
	case int64:
		return b.Int(x)
	case int32:
		return b.Int(int64(x))
	case uint32:
		return b.Int(int64(x))
	case *big.Int:
		return b.BigInt(x)
	case []byte:
		return b.Bytes(x)
	case string:
		return b.String(x)
	case util.Uint160:
		return b.Bytes(x.BytesLE())
	case util.Uint256:
		return b.Bytes(x.BytesLE())
	case []any:
		return b.Array(x...)
	}
	b.setErr(fmt.Errorf("%w: %T", ErrUnsupported, v))
	return b
}

// Array pushes the values as an Array (reference CreateArray).
func (b *Builder) Array(items ...any) *Builder {
	if len(items) == 0 {
		return b.Opcodes(opcode.NEWARRAY0)
	}
	for i := len(items) - 1; i >= 0; i-- {
		b.Any(items[i])
	}
	return b.Int(int64(len(items))).Opcodes(opcode.PACK)
}

// Jump appends a jump-like instruction (JMP*, CALL, ENDTRY, and their _L
// forms) with a relative offset.
func (b *Builder) Jump(op opcode.Opcode, offset int) *Builder {
	size, _ := opcode.OperandSize(op)
	switch size {
	case 1:
		if offset < -128 || offset > 127 {
			b.setErr(fmt.Errorf("%w: offset %d does not fit %s", ErrOperand, offset, op))
			return b
		}
		return b.Instruction(op, []byte{byte(int8(offset))})
	case 4:
		return b.Instruction(op, binary.LittleEndian.AppendUint32(nil, uint32(int32(offset))))
	}
	b.setErr(fmt.Errorf("%w: %s is not a jump", ErrOperand, op))
	return b
}

// InteropID is the SYSCALL id of a name: the little-endian uint32 of the
// first 4 bytes of SHA-256(name).
func InteropID(name string) uint32 {
	h := sha256.Sum256([]byte(name))
	return binary.LittleEndian.Uint32(h[:4])
}

// Syscall appends SYSCALL for the interop name.
func (b *Builder) Syscall(name string) *Builder { return b.SyscallID(InteropID(name)) }

// SyscallID appends SYSCALL id.
func (b *Builder) SyscallID(id uint32) *Builder {
	return b.Instruction(opcode.SYSCALL, binary.LittleEndian.AppendUint32(nil, id))
}

// AppCall emits a System.Contract.Call of method on contract with the
// call flags and arguments (reference EmitDynamicCall).
func (b *Builder) AppCall(contract util.Uint160, method string, flags byte, args ...any) *Builder {
	b.Array(args...)
	b.Int(int64(flags))
	b.String(method)
	b.Bytes(contract.BytesLE())
	return b.Syscall("System.Contract.Call")
}
