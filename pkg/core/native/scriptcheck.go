package native

import (
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// scriptChecker is the reference VM Script as ContractManagement builds it
// to check an ABI: in strict mode (from Basilisk) the whole script must
// decode and every jump, call, try and type operand must be valid; an
// offset is then valid only if it starts a decoded instruction. Without
// strict mode only the instruction at the offset must decode.
type scriptChecker struct {
	script []byte
	starts map[int]struct{} // strict mode only
}

var _ manifest.InstructionChecker = (*scriptChecker)(nil)

// newScriptChecker parses script (fully in strict mode).
func newScriptChecker(script []byte, strict bool) (*scriptChecker, error) {
	s := &scriptChecker{script: script}
	if !strict {
		return s, nil
	}
	s.starts = make(map[int]struct{})
	type ins struct {
		ip      int
		op      opcode.Opcode
		operand []byte
	}
	var all []ins
	for ip := 0; ip < len(script); {
		size, operand, err := decodeInstruction(script, ip)
		if err != nil {
			return nil, err
		}
		s.starts[ip] = struct{}{}
		all = append(all, ins{ip, opcode.Opcode(script[ip]), operand})
		ip += size
	}
	target := func(ip int, off int64) error {
		if _, ok := s.starts[int(int64(ip)+off)]; !ok {
			return fmt.Errorf("%w: bad jump target at %d", ErrContract, ip)
		}
		return nil
	}
	for _, in := range all {
		var err error
		switch in.op {
		case opcode.JMP, opcode.JMPIF, opcode.JMPIFNOT, opcode.JMPEQ, opcode.JMPNE, opcode.JMPGT,
			opcode.JMPGE, opcode.JMPLT, opcode.JMPLE, opcode.CALL, opcode.ENDTRY:
			err = target(in.ip, int64(int8(in.operand[0])))
		case opcode.PUSHA, opcode.JMP_L, opcode.JMPIF_L, opcode.JMPIFNOT_L, opcode.JMPEQ_L, opcode.JMPNE_L,
			opcode.JMPGT_L, opcode.JMPGE_L, opcode.JMPLT_L, opcode.JMPLE_L, opcode.CALL_L, opcode.ENDTRY_L:
			err = target(in.ip, int64(int32(binary.LittleEndian.Uint32(in.operand))))
		case opcode.TRY:
			if err = target(in.ip, int64(int8(in.operand[0]))); err == nil {
				err = target(in.ip, int64(int8(in.operand[1])))
			}
		case opcode.TRY_L:
			if err = target(in.ip, int64(int32(binary.LittleEndian.Uint32(in.operand)))); err == nil {
				err = target(in.ip, int64(int32(binary.LittleEndian.Uint32(in.operand[4:]))))
			}
		case opcode.NEWARRAY_T, opcode.ISTYPE, opcode.CONVERT:
			t := stackitem.Type(in.operand[0])
			if !t.IsValid() || (in.op != opcode.NEWARRAY_T && t == stackitem.AnyT) {
				err = fmt.Errorf("%w: bad type operand at %d", ErrContract, in.ip)
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// decodeInstruction returns the size and operand of the instruction at ip
// (the reference Instruction constructor).
func decodeInstruction(script []byte, ip int) (int, []byte, error) {
	op := opcode.Opcode(script[ip])
	if !op.IsValid() {
		return 0, nil, fmt.Errorf("%w: unknown opcode 0x%02x at %d", ErrContract, byte(op), ip)
	}
	size, prefix := opcode.OperandSize(op)
	p := ip + 1
	if prefix > 0 {
		if p+prefix > len(script) {
			return 0, nil, fmt.Errorf("%w: instruction out of bounds at %d", ErrContract, ip)
		}
		switch prefix {
		case 1:
			size = int(script[p])
		case 2:
			size = int(binary.LittleEndian.Uint16(script[p:]))
		case 4:
			n := int32(binary.LittleEndian.Uint32(script[p:]))
			if n < 0 {
				return 0, nil, fmt.Errorf("%w: negative operand size at %d", ErrContract, ip)
			}
			size = int(n)
		}
		p += prefix
	}
	if p+size > len(script) {
		return 0, nil, fmt.Errorf("%w: instruction out of bounds at %d", ErrContract, ip)
	}
	return p + size - ip, script[p : p+size], nil
}

// CheckInstruction implements manifest.InstructionChecker.
func (s *scriptChecker) CheckInstruction(offset int) error {
	if offset < 0 || offset >= len(s.script) {
		return fmt.Errorf("%w: offset %d out of the script", ErrContract, offset)
	}
	if s.starts != nil {
		if _, ok := s.starts[offset]; !ok {
			return fmt.Errorf("%w: offset %d is not an instruction", ErrContract, offset)
		}
		return nil
	}
	_, _, err := decodeInstruction(s.script, offset)
	return err
}
