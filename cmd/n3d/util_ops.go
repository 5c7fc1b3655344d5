package main

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/urfave/cli/v3"
)

// `n3d util ops` and the script listing it shares with `query tx -v`:
// neo-go's VM PrintOps of a script just loaded.

func opsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name: "ops",
		Usage: "Pretty-print VM opcodes of the given base64- or hex- encoded script (base64 is checked first). " +
			"If the input file is specified, then the script is taken from the file.",
		UsageText: "n3d util ops [-i path-to-file] [--hex] <base64/hex-encoded script>",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "in", Aliases: []string{"i"},
				Usage: "Input file containing base64- or hex- encoded script representation"},
			&cli.BoolFlag{Name: "hex", Usage: "Use hex encoding and do not check base64"},
		},
		Action: func(_ context.Context, cmd *cli.Command) error {
			var s string
			if in := cmd.String("in"); in != "" {
				b, err := os.ReadFile(in)
				if err != nil {
					return fmt.Errorf("failed to read file: %w", err)
				}
				s = string(b)
			} else {
				if !cmd.Args().Present() {
					return errors.New("missing script")
				}
				s = cmd.Args().First()
			}
			script, err := decodeScriptArg(s, cmd.Bool("hex"))
			if err != nil {
				return err
			}
			_, err = e.stdout.Write(appendScriptOps(nil, script))
			return err
		},
	}
}

// decodeScriptArg decodes a script given as base64 (tried first unless
// onlyHex) or hex. The text is taken as is, as neo-go does: a file
// ending with a newline is neither.
func decodeScriptArg(s string, onlyHex bool) ([]byte, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || onlyHex {
		b, err = hex.DecodeString(s)
	}
	if err != nil {
		return nil, errors.New("unknown encoding: base64 or hex are supported")
	}
	return b, nil
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
