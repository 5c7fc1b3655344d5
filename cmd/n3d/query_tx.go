package main

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// The output of `n3d query tx`, neo-go's: "Name:\tvalue" lines aligned by
// a tab-padding tabwriter, with -v the script's instructions as neo-go's
// VM PrintOps lists them.

// txExecutions is a transaction's block and application log.
type txExecutions struct {
	block util.Uint256
	log   []state.Execution
}

// writeTxState writes tx's state; execs is nil for a transaction that is
// not in a block.
func writeTxState(w io.Writer, tx *transaction.Transaction, execs *txExecutions, verbose bool) error {
	var buf []byte
	buf = fmt.Appendf(buf, "Hash:\t%s\n", tx.Hash().StringBE())
	buf = fmt.Appendf(buf, "OnChain:\t%t\n", execs != nil)
	if execs == nil {
		buf = fmt.Appendf(buf, "ValidUntil:\t%d\n", tx.ValidUntilBlock)
	} else {
		buf = fmt.Appendf(buf, "BlockHash:\t%s\n", execs.block.StringBE())
		if len(execs.log) != 1 {
			buf = append(buf, "Success:\tunknown (no execution data)\n"...)
		} else {
			buf = fmt.Appendf(buf, "Success:\t%t\n", execs.log[0].VMState == vm.HaltState)
		}
	}
	if verbose {
		buf = appendTxDetails(buf, tx, execs)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 4, '\t', 0)
	if _, err := tw.Write(buf); err != nil {
		return err
	}
	return tw.Flush()
}

// appendTxDetails appends what -v adds: signers, fees, the script in
// base64 and as instructions, the exceptions of failed executions.
func appendTxDetails(buf []byte, tx *transaction.Transaction, execs *txExecutions) []byte {
	for _, s := range tx.Signers {
		buf = fmt.Appendf(buf, "Signer:\t%s (%s)\n", address.Uint160ToString(s.Account), scopeName(s.Scopes))
	}
	buf = fmt.Appendf(buf, "SystemFee:\t%s GAS\n", util.Fixed8(tx.SystemFee))
	buf = fmt.Appendf(buf, "NetworkFee:\t%s GAS\n", util.Fixed8(tx.NetworkFee))
	buf = fmt.Appendf(buf, "Script:\t%s\n", base64.StdEncoding.EncodeToString(tx.Script))
	buf = appendScriptOps(buf, tx.Script)
	if execs != nil {
		for _, e := range execs.log {
			if e.VMState != vm.HaltState {
				buf = fmt.Appendf(buf, "Exception:\t%s\n", e.FaultException)
			}
		}
	}
	return buf
}

// scopeName prints a signer's scope as neo-go's query does: the name of a
// single flag, "WitnessScope(N)" for a combination.
func scopeName(s transaction.WitnessScope) string {
	switch s {
	case transaction.None, transaction.CalledByEntry, transaction.CustomContracts, transaction.CustomGroups,
		transaction.WitnessRules, transaction.Global:
		return s.String()
	}
	return "WitnessScope(" + strconv.Itoa(int(s)) + ")"
}

// maxPushSize is the largest PUSHDATA4 operand the listing reads (neo-go's
// stack item size limit).
const maxPushSize = 2 * 0xFFFF

var errNoOperand = errors.New("failed to read instruction parameter")

// appendScriptOps appends script's instructions, one a line: offset,
// opcode and operand (decoded), the first line marked with "<<" (the
// instruction pointer of a VM the script was just loaded into). A byte
// that does not decode ends the list with an ERROR line.
func appendScriptOps(buf []byte, script []byte) []byte {
	var out bytesWriter = buf
	tw := tabwriter.NewWriter(&out, 0, 0, 4, ' ', 0)
	fmt.Fprintln(tw, "INDEX\tOPCODE\tPARAMETER")
	for ip := 0; ; {
		cursor := ""
		if ip == 0 {
			cursor = "\t<<"
		}
		op, arg, next, err := nextInstruction(script, ip)
		if err != nil {
			fmt.Fprintf(tw, "%d\t%s\tERROR: %s%s\n", ip, opName(op), err, cursor)
			break
		}
		fmt.Fprintf(tw, "%d\t%s\t%s%s\n", ip, opName(op), describeOperand(script, ip, op, arg), cursor)
		if next >= len(script) {
			break
		}
		ip = next
	}
	_ = tw.Flush() // writes to memory
	return out
}

// bytesWriter appends to a byte slice.
type bytesWriter []byte

func (b *bytesWriter) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

// opName is the opcode's name, "Opcode(N)" (decimal) for an undefined
// byte as neo-go prints it.
func opName(op opcode.Opcode) string {
	if !op.IsValid() {
		return "Opcode(" + strconv.Itoa(int(op)) + ")"
	}
	return op.String()
}

// nextInstruction decodes the instruction at ip: its opcode, operand (nil
// when it has none) and the offset of the next one. Past the end of the
// script it is a RET, as for the VM.
func nextInstruction(script []byte, ip int) (opcode.Opcode, []byte, int, error) {
	if ip >= len(script) {
		return opcode.RET, nil, ip, nil
	}
	op := opcode.Opcode(script[ip])
	if !op.IsValid() {
		return op, nil, ip, fmt.Errorf("incorrect opcode %s", opName(op))
	}
	p := ip + 1
	size, prefix := opcode.OperandSize(op)
	if size == 0 && prefix == 0 {
		return op, nil, p, nil
	}
	if prefix > 0 {
		if p+prefix > len(script) {
			return op, nil, ip, errNoOperand
		}
		switch prefix {
		case 1:
			size = int(script[p])
		case 2:
			size = int(binary.LittleEndian.Uint16(script[p:]))
		default:
			n := binary.LittleEndian.Uint32(script[p:])
			if n > maxPushSize {
				return op, nil, ip, errors.New("parameter is too big")
			}
			size = int(n)
		}
		p += prefix
	}
	if p+size > len(script) {
		return op, nil, ip, errNoOperand
	}
	return op, script[p : p+size], p + size, nil
}

// describeOperand prints an operand: jump targets as "absolute (relative/
// hex)", slot and type operands, syscall names, integers, and data as hex
// followed by the quoted string or, for 20 bytes, the address and hash.
func describeOperand(script []byte, ip int, op opcode.Opcode, arg []byte) string {
	if arg == nil {
		return ""
	}
	switch op {
	case opcode.JMP, opcode.JMPIF, opcode.JMPIFNOT, opcode.CALL, opcode.JMPEQ, opcode.JMPNE,
		opcode.JMPGT, opcode.JMPGE, opcode.JMPLE, opcode.JMPLT, opcode.JMP_L, opcode.JMPIF_L,
		opcode.JMPIFNOT_L, opcode.CALL_L, opcode.JMPEQ_L, opcode.JMPNE_L, opcode.JMPGT_L, opcode.JMPGE_L,
		opcode.JMPLE_L, opcode.JMPLT_L, opcode.PUSHA, opcode.ENDTRY, opcode.ENDTRY_L:
		return describeJump(script, ip, arg)
	case opcode.TRY, opcode.TRY_L:
		half := len(arg) / 2
		return fmt.Sprintf("catch %s, finally %s", describeJump(script, ip, arg[:half]),
			describeJump(script, ip, arg[half:]))
	case opcode.INITSSLOT:
		return strconv.Itoa(int(arg[0]))
	case opcode.CONVERT, opcode.ISTYPE:
		t := stackitem.Type(arg[0])
		name := "INVALID"
		if t.IsValid() {
			name = t.String()
		}
		return fmt.Sprintf("%s (%x)", name, arg[0])
	case opcode.INITSLOT:
		return fmt.Sprintf("%d local, %d arg", arg[0], arg[1])
	case opcode.SYSCALL:
		name, ok := syscallNames()[binary.LittleEndian.Uint32(arg)]
		if !ok {
			name = "not found"
		}
		return fmt.Sprintf("%s (%x)", name, arg)
	case opcode.PUSHINT8, opcode.PUSHINT16, opcode.PUSHINT32, opcode.PUSHINT64, opcode.PUSHINT128, opcode.PUSHINT256:
		return fmt.Sprintf("%d (%x)", bigint.FromBytes(arg), arg)
	case opcode.LDLOC, opcode.STLOC, opcode.LDARG, opcode.STARG, opcode.LDSFLD, opcode.STSFLD:
		return fmt.Sprintf("%d (%x)", arg[0], arg)
	}
	if utf8.Valid(arg) {
		return fmt.Sprintf("%x (%q)", arg, arg)
	}
	if len(arg) == util.Uint160Size {
		h, _ := util.Uint160DecodeBytesLE(arg) // 20 bytes
		return fmt.Sprintf("%x (%q, %q)", arg, address.Uint160ToString(h), h.String())
	}
	return fmt.Sprintf("%x", arg)
}

// describeJump prints the target of a 1- or 4-byte relative offset.
func describeJump(script []byte, ip int, arg []byte) string {
	var rel int
	switch len(arg) {
	case 1:
		rel = int(int8(arg[0]))
	case 4:
		rel = int(int32(binary.LittleEndian.Uint32(arg)))
	default:
		return fmt.Sprintf("ERROR: invalid %s parameter length: %d", opName(opcode.Opcode(script[ip])), len(arg))
	}
	target := ip + rel
	if target < 0 || target > len(script) {
		return fmt.Sprintf("ERROR: invalid offset %d ip at %d", target, ip)
	}
	return fmt.Sprintf("%d (%d/%x)", target, rel, arg)
}

// syscallNames maps syscall ids to names.
var syscallNames = sync.OnceValue(func() map[uint32]string {
	m := make(map[uint32]string)
	for _, f := range interop.Functions() {
		m[f.ID] = f.Name
	}
	return m
})
