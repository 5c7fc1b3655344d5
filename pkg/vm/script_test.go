package vm_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

var _ manifest.InstructionChecker = (*vm.ScriptChecker)(nil)

type refContract struct {
	Hash     string          `json:"hash"`
	NEF      json.RawMessage `json:"nef"`
	Manifest json.RawMessage `json:"manifest"`
}

// TestValidateScriptReferenceData checks every script the reference
// accepted on the conformance chains: every deployed and native contract
// (the reference deployed them after its strict check, and their ABIs
// pass Helper.Check) and every transaction, witness and block witness
// script (the reference verifies them in strict mode).
func TestValidateScriptReferenceData(t *testing.T) {
	n := 0
	for _, chain := range conformance.Chains(t) {
		dir := conformance.Dir(t, "chains", chain)
		raw, err := os.ReadFile(filepath.Join(dir, "contracts.json"))
		require.NoError(t, err)
		var cs struct {
			Deployed map[string]refContract `json:"deployed"`
			Native   []refContract          `json:"native"`
		}
		require.NoError(t, json.Unmarshal(raw, &cs))
		all := cs.Native
		for _, c := range cs.Deployed {
			all = append(all, c)
		}
		for _, c := range all {
			var f struct {
				Script []byte `json:"script"`
			}
			require.NoError(t, json.Unmarshal(c.NEF, &f), c.Hash)
			require.NoError(t, vm.ValidateScript(f.Script), c.Hash)
			var m manifest.Manifest
			require.NoError(t, json.Unmarshal(c.Manifest, &m), c.Hash)
			chk, err := vm.NewScriptChecker(f.Script, true)
			require.NoError(t, err)
			require.NoError(t, m.ABI.Check(chk), c.Hash)
			n++
		}
		for _, raw := range conformance.RawBlocks(t, chain) {
			b, err := block.NewBlockFromBytes(raw)
			require.NoError(t, err)
			scripts := [][]byte{b.Witness.InvocationScript, b.Witness.VerificationScript}
			for _, tx := range b.Transactions {
				scripts = append(scripts, tx.Script)
				for _, w := range tx.Witnesses {
					scripts = append(scripts, w.InvocationScript, w.VerificationScript)
				}
			}
			for _, s := range scripts {
				require.NoError(t, vm.ValidateScript(s), "block %d", b.Index)
				n++
			}
		}
	}
	require.Greater(t, n, 100)
}

func build(t *testing.T, f func(b *emit.Builder)) []byte {
	t.Helper()
	b := emit.NewBuilder()
	f(b)
	s, err := b.Script()
	require.NoError(t, err)
	return s
}

// TestValidateScriptRules exercises each rule of the reference strict
// Script constructor; every bad script is also accepted by the lenient
// VM loader, so only the strict check catches it.
func TestValidateScriptRules(t *testing.T) {
	ok := [][]byte{
		nil,
		{byte(opcode.RET)},
		build(t, func(b *emit.Builder) { b.Jump(opcode.JMP, 2).Opcodes(opcode.RET) }),
		build(t, func(b *emit.Builder) { b.Jump(opcode.JMP, 0) }), // a loop onto itself
		build(t, func(b *emit.Builder) { b.Jump(opcode.CALL_L, 5).Opcodes(opcode.RET) }),
		{byte(opcode.TRY), 0, 3, byte(opcode.ENDFINALLY)}, // catch 0 (itself), finally +3
		{byte(opcode.NEWARRAY_T), byte(stackitem.AnyT)},   // Any is allowed for NEWARRAY_T only
		{byte(opcode.CONVERT), byte(stackitem.IntegerT)},
		{byte(opcode.PUSHDATA1), 0},
	}
	for i, s := range ok {
		require.NoError(t, vm.ValidateScript(s), "ok %d: %x", i, s)
	}
	bad := map[string][]byte{
		"undefined opcode":          {byte(opcode.PUSH0), 0xff},
		"truncated PUSHDATA1":       {byte(opcode.PUSHDATA1)},
		"truncated PUSHDATA2":       {byte(opcode.PUSHDATA2), 1},
		"truncated PUSHDATA4":       {byte(opcode.PUSHDATA4), 1, 0, 0},
		"PUSHDATA past the end":     {byte(opcode.PUSHDATA1), 2, 1},
		"negative PUSHDATA4 size":   {byte(opcode.PUSHDATA4), 0, 0, 0, 0x80},
		"truncated fixed operand":   {byte(opcode.PUSHINT16), 1},
		"jump into an operand":      {byte(opcode.JMP), 3, byte(opcode.PUSHINT8), 5, byte(opcode.RET)},
		"jump to the end":           build(t, func(b *emit.Builder) { b.Jump(opcode.JMP, 2) }),
		"jump before the start":     build(t, func(b *emit.Builder) { b.Opcodes(opcode.NOP).Jump(opcode.JMPIF_L, -2) }),
		"CALL outside":              build(t, func(b *emit.Builder) { b.Jump(opcode.CALL, 100) }),
		"ENDTRY_L outside":          build(t, func(b *emit.Builder) { b.Jump(opcode.ENDTRY_L, 100) }),
		"PUSHA outside":             {byte(opcode.PUSHA), 9, 0, 0, 0},
		"TRY catch outside":         {byte(opcode.TRY), 9, 0, byte(opcode.RET)},
		"TRY finally outside":       {byte(opcode.TRY), 0, 9, byte(opcode.RET)},
		"TRY_L finally outside":     {byte(opcode.TRY_L), 0, 0, 0, 0, 9, 0, 0, 0},
		"ISTYPE Any":                {byte(opcode.ISTYPE), byte(stackitem.AnyT)},
		"CONVERT undefined type":    {byte(opcode.CONVERT), 0x22},
		"NEWARRAY_T undefined type": {byte(opcode.NEWARRAY_T), 0x01},
	}
	for name, s := range bad {
		require.ErrorIs(t, vm.ValidateScript(s), vm.ErrBadScript, name)
		_, err := vm.New().LoadScript(s)
		require.NoError(t, err, "the lenient loader accepts %s", name)
	}
}

func TestScriptCheckerOffsets(t *testing.T) {
	s := build(t, func(b *emit.Builder) { b.Int(1000).Opcodes(opcode.DROP, opcode.RET) }) // PUSHINT16 at 0
	strict, err := vm.NewScriptChecker(s, true)
	require.NoError(t, err)
	lenient, err := vm.NewScriptChecker(s, false)
	require.NoError(t, err)
	for _, off := range []int{0, 3, 4} {
		require.NoError(t, strict.CheckInstruction(off), off)
		require.NoError(t, lenient.CheckInstruction(off), off)
	}
	// Offset 1 is inside the operand: not an instruction in strict mode,
	// but the lenient reference decodes whatever byte is there (0xe8 is
	// not an opcode; offset 2 is 0x03, PUSHINT128, truncated).
	require.ErrorIs(t, strict.CheckInstruction(1), vm.ErrBadScript)
	require.ErrorIs(t, lenient.CheckInstruction(1), vm.ErrBadScript)
	require.ErrorIs(t, lenient.CheckInstruction(2), vm.ErrBadScript)
	for _, off := range []int{-1, len(s)} {
		require.ErrorIs(t, strict.CheckInstruction(off), vm.ErrBadScript)
		require.ErrorIs(t, lenient.CheckInstruction(off), vm.ErrBadScript)
	}
	_, err = vm.NewScriptChecker([]byte{0xff}, true)
	require.ErrorIs(t, err, vm.ErrBadScript)
}

// FuzzValidateScript: no panic, and an accepted script runs without the
// VM ever meeting a malformed instruction or a bad jump target.
func FuzzValidateScript(f *testing.F) {
	f.Add([]byte{byte(opcode.PUSH1), byte(opcode.JMPIF), 3, byte(opcode.PUSH2), byte(opcode.RET)})
	f.Add([]byte{byte(opcode.TRY), 3, 0, byte(opcode.THROW), byte(opcode.RET)})
	f.Fuzz(func(t *testing.T, s []byte) {
		if vm.ValidateScript(s) != nil {
			return
		}
		v := vm.New()
		v.SetGasLimit(1000)
		v.SetExecFeeFactor(1)
		_, err := v.LoadScript(s)
		require.NoError(t, err)
		err = v.Run()
		require.NotErrorIs(t, err, vm.ErrBadScript)
		require.NotErrorIs(t, err, vm.ErrJump)
	})
}

// TestValidateScriptAllocs: validating a script of up to 512 bytes (every
// incoming transaction's) allocates nothing; a longer one still validates
// (and jumps across the 512-byte boundary are checked).
func TestValidateScriptAllocs(t *testing.T) {
	short := append(bytes.Repeat([]byte{byte(opcode.NOP)}, 500), byte(opcode.JMP), 0x01, byte(opcode.RET))
	require.Error(t, vm.ValidateScript(short), "a jump into an operand")
	short[len(short)-2] = 0xff // JMP -1: onto the NOP before it
	require.NoError(t, vm.ValidateScript(short))
	require.Zero(t, testing.AllocsPerRun(100, func() { _ = vm.ValidateScript(short) }))

	long := append(bytes.Repeat([]byte{byte(opcode.NOP)}, 600), byte(opcode.JMP_L), 0, 0, 0, 0, byte(opcode.RET))
	binary.LittleEndian.PutUint32(long[601:], uint32(-600&0xffffffff)) // back to offset 0
	require.NoError(t, vm.ValidateScript(long))
	binary.LittleEndian.PutUint32(long[601:], uint32(-599&0xffffffff))
	require.NoError(t, vm.ValidateScript(long), "offset 1 is a NOP too")
	long[1] = byte(opcode.PUSHINT8) // offset 2 becomes its operand
	binary.LittleEndian.PutUint32(long[601:], uint32(-598&0xffffffff))
	require.Error(t, vm.ValidateScript(long))
}
