package vm

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// ValidateScript checks script as the reference builds a Script in strict
// mode (neo-vm Script(script, strictMode: true)): every instruction
// decodes (defined opcode, operand inside the script), every jump, call,
// ENDTRY, PUSHA and TRY target is the start of an instruction, and the
// type operand of NEWARRAY_T, ISTYPE and CONVERT is a defined stack item
// type (not Any for ISTYPE and CONVERT). The error wraps ErrBadScript.
// System.Runtime.LoadScript, contract deployment (from Basilisk), and
// witness and transaction scripts are checked this way by the reference.
func ValidateScript(script []byte) error {
	// A checker on the stack, with room for the start bits of a typical
	// transaction script: this runs for every incoming transaction.
	var bits [8]uint64
	s := ScriptChecker{script: script}
	if n := (len(script) + 63) / 64; n <= len(bits) {
		s.starts = bits[:n]
	} else {
		s.starts = make([]uint64, n)
	}
	return s.parseStrict()
}

// ScriptChecker answers whether an offset starts an instruction of a
// script, the reference Script.GetInstruction. It implements
// manifest.InstructionChecker (the interface is structural: this package
// does not import the manifest package).
type ScriptChecker struct {
	script []byte
	starts []uint64 // bit per offset; nil when not strict
}

// NewScriptChecker parses script. In strict mode the whole script is
// validated as by ValidateScript and an offset is valid only if it starts
// one of the decoded instructions; otherwise nothing is checked up front
// and an offset is valid if an instruction decodes there.
func NewScriptChecker(script []byte, strict bool) (*ScriptChecker, error) {
	s := &ScriptChecker{script: script}
	if !strict {
		return s, nil
	}
	s.starts = make([]uint64, (len(script)+63)/64)
	if err := s.parseStrict(); err != nil {
		return nil, err
	}
	return s, nil
}

// parseStrict validates s.script, marking instruction starts in s.starts
// (zeroed, one bit per byte).
func (s *ScriptChecker) parseStrict() error {
	script := s.script
	for ip := 0; ip < len(script); {
		_, _, size, err := decodeInstruction(script, ip)
		if err != nil {
			return err
		}
		s.starts[ip/64] |= 1 << (ip % 64)
		ip += size
	}
	for ip := 0; ip < len(script); {
		op, arg, size, _ := decodeInstruction(script, ip) // decoded above
		if err := s.checkOperands(ip, op, arg); err != nil {
			return err
		}
		ip += size
	}
	return nil
}

func (s *ScriptChecker) isStart(ip int) bool {
	return ip >= 0 && ip < len(s.script) && s.starts[ip/64]&(1<<(ip%64)) != 0
}

// checkOperands is the second pass of the reference strict constructor.
func (s *ScriptChecker) checkOperands(ip int, op opcode.Opcode, arg []byte) error {
	var targets [2]int
	n := 0
	switch op {
	case opcode.JMP, opcode.JMPIF, opcode.JMPIFNOT, opcode.JMPEQ, opcode.JMPNE, opcode.JMPGT,
		opcode.JMPGE, opcode.JMPLT, opcode.JMPLE, opcode.CALL, opcode.ENDTRY:
		targets[0], n = ip+int(int8(arg[0])), 1
	case opcode.PUSHA, opcode.JMP_L, opcode.JMPIF_L, opcode.JMPIFNOT_L, opcode.JMPEQ_L, opcode.JMPNE_L,
		opcode.JMPGT_L, opcode.JMPGE_L, opcode.JMPLT_L, opcode.JMPLE_L, opcode.CALL_L, opcode.ENDTRY_L:
		targets[0], n = ip+i32(arg), 1
	case opcode.TRY:
		targets[0], targets[1], n = ip+int(int8(arg[0])), ip+int(int8(arg[1])), 2
	case opcode.TRY_L:
		targets[0], targets[1], n = ip+i32(arg), ip+i32(arg[4:]), 2
	case opcode.NEWARRAY_T, opcode.ISTYPE, opcode.CONVERT:
		t := stackitem.Type(arg[0])
		if !t.IsValid() {
			return faultf(ErrBadScript, "invalid type specification at offset %d", ip)
		}
		if op != opcode.NEWARRAY_T && t == stackitem.AnyT {
			return faultf(ErrBadScript, "using type ANY is incorrect at offset %d", ip)
		}
	}
	for _, t := range targets[:n] {
		if t < 0 || t > len(s.script) {
			return faultf(ErrBadScript, "invalid offset %d ip at %d", t, ip)
		}
		if !s.isStart(t) {
			return faultf(ErrBadScript, "some jumps are done to wrong offsets (not to instruction boundary)")
		}
	}
	return nil
}

// CheckInstruction reports an error unless offset starts an instruction
// (reference Script.GetInstruction). The error wraps ErrBadScript.
func (s *ScriptChecker) CheckInstruction(offset int) error {
	if offset < 0 || offset >= len(s.script) {
		return fmt.Errorf("%w: offset %d outside the script of %d bytes", ErrBadScript, offset, len(s.script))
	}
	if s.starts != nil {
		if !s.isStart(offset) {
			return fmt.Errorf("%w: offset %d is not an instruction", ErrBadScript, offset)
		}
		return nil
	}
	_, _, _, err := decodeInstruction(s.script, offset)
	return err
}

// errNoParam is an operand cut by the end of the script.
var errNoParam error = &kindError{kind: ErrBadScript, text: "failed to read instruction parameter"}

// decodeInstruction decodes the instruction at ip (0 <= ip < len(script))
// like the reference Instruction constructor: opcode, operand, size.
func decodeInstruction(script []byte, ip int) (opcode.Opcode, []byte, int, error) {
	op := opcode.Opcode(script[ip])
	info := opInfo[op]
	if !info.valid {
		return op, nil, 0, faultf(ErrBadScript, "incorrect opcode Opcode(%d)", byte(op))
	}
	size, prefix := int(info.size), int(info.prefix)
	p := ip + 1
	if prefix > 0 {
		if p+prefix > len(script) {
			return op, nil, 0, errNoParam
		}
		switch prefix {
		case 1:
			size = int(script[p])
		case 2:
			size = int(le16(script[p:]))
		case 4:
			n := int32(le32(script[p:]))
			if n < 0 {
				return op, nil, 0, faultf(ErrBadScript, "parameter is too big")
			}
			size = int(n)
		}
		p += prefix
	}
	if size > len(script)-p {
		return op, nil, 0, errNoParam
	}
	return op, script[p : p+size], p + size - ip, nil
}
