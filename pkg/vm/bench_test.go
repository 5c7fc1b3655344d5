package vm

import (
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

const benchLoops = 1000

// loopScript wraps body in "for i := 0; i < benchLoops; i++" with i in
// local 0 and optional extra locals.
func loopScript(locals byte, prologue, body func(b *emit.Builder)) []byte {
	b := emit.NewBuilder()
	b.Instruction(opcode.INITSLOT, []byte{locals, 0})
	b.Int(0).Opcodes(opcode.STLOC0)
	if prologue != nil {
		prologue(b)
	}
	start := b.Len()
	body(b)
	b.Opcodes(opcode.LDLOC0, opcode.INC, opcode.DUP, opcode.STLOC0).Int(benchLoops)
	b.Jump(opcode.JMPLT_L, start-b.Len())
	b.Opcodes(opcode.RET)
	s, err := b.Script()
	if err != nil {
		panic(err)
	}
	return s
}

// arithScript: sum += i*3 % 7 + (i << 2).
func arithScript() []byte {
	return loopScript(2, func(b *emit.Builder) { b.Int(0).Opcodes(opcode.STLOC1) }, func(b *emit.Builder) {
		b.Opcodes(opcode.LDLOC1, opcode.LDLOC0).Int(3).Opcodes(opcode.MUL).Int(7).Opcodes(opcode.MOD, opcode.ADD)
		b.Opcodes(opcode.LDLOC0).Int(2).Opcodes(opcode.SHL, opcode.ADD, opcode.STLOC1)
	})
}

// stackScript shuffles a few values around.
func stackScript() []byte {
	return loopScript(1, func(b *emit.Builder) { b.Int(1).Int(2).Int(3) }, func(b *emit.Builder) {
		b.Opcodes(opcode.DUP, opcode.OVER, opcode.SWAP, opcode.ROT, opcode.TUCK, opcode.NIP, opcode.REVERSE3,
			opcode.DROP, opcode.DROP, opcode.PUSH2, opcode.PICK, opcode.SWAP, opcode.DROP)
	})
}

// compoundScript appends to an array, fills a map and reads both back.
func compoundScript() []byte {
	return loopScript(3, func(b *emit.Builder) {
		b.Opcodes(opcode.NEWARRAY0, opcode.STLOC1, opcode.NEWMAP, opcode.STLOC2)
	}, func(b *emit.Builder) {
		b.Opcodes(opcode.LDLOC1, opcode.LDLOC0, opcode.APPEND)
		b.Opcodes(opcode.LDLOC2, opcode.LDLOC0).Int(16).Opcodes(opcode.MOD, opcode.LDLOC0, opcode.SETITEM)
		b.Opcodes(opcode.LDLOC1, opcode.LDLOC0, opcode.PICKITEM, opcode.DROP)
		b.Opcodes(opcode.LDLOC2, opcode.LDLOC0).Int(16).Opcodes(opcode.MOD, opcode.HASKEY, opcode.DROP)
		b.Opcodes(opcode.LDLOC1, opcode.SIZE, opcode.DROP)
	})
}

var (
	idCheckWitness = emit.InteropID("System.Runtime.CheckWitness")
	idGetContext   = emit.InteropID("System.Storage.GetContext")
	idGet          = emit.InteropID("System.Storage.Get")
	idPut          = emit.InteropID("System.Storage.Put")
	idNotify       = emit.InteropID("System.Runtime.Notify")
)

// nep17Script is shaped like a NEP-17 transfer: witness check, two
// balance reads and writes through storage syscalls, a notification.
func nep17Script() []byte {
	from, to := make([]byte, 20), make([]byte, 20)
	from[0], to[0] = 1, 2
	b := emit.NewBuilder()
	b.Instruction(opcode.INITSLOT, []byte{2, 3})
	b.Opcodes(opcode.LDARG0).SyscallID(idCheckWitness).Opcodes(opcode.ASSERT)
	b.Opcodes(opcode.LDARG2, opcode.PUSH0, opcode.GE, opcode.ASSERT)
	for i, sign := range []opcode.Opcode{opcode.SUB, opcode.ADD} {
		b.SyscallID(idGetContext).Opcodes(opcode.STLOC0)
		b.Bytes([]byte{1}).Opcodes(opcode.LDARG0+opcode.Opcode(i), opcode.CAT, opcode.STLOC1)
		b.Opcodes(opcode.LDLOC1, opcode.LDLOC0).SyscallID(idGet)
		b.Instruction(opcode.CONVERT, []byte{byte(stackitem.IntegerT)})
		b.Opcodes(opcode.LDARG2, sign, opcode.DUP, opcode.PUSH0, opcode.GE, opcode.ASSERT)
		b.Opcodes(opcode.LDLOC1, opcode.LDLOC0).SyscallID(idPut)
	}
	b.Opcodes(opcode.LDARG2, opcode.LDARG1, opcode.LDARG0, opcode.PUSH3, opcode.PACK)
	b.String("Transfer").SyscallID(idNotify).Opcodes(opcode.PUSHT, opcode.RET)
	s, err := b.Script()
	if err != nil {
		panic(err)
	}
	// The caller pushes amount, to, from (from on top) before the body.
	pre := emit.NewBuilder().Int(1000).Bytes(to).Bytes(from)
	p, _ := pre.Script()
	return append(p, s...)
}

var errUnknownSyscall = errors.New("unknown syscall")

// fakeSyscalls implements the storage/runtime calls of nep17Script.
func fakeSyscalls(v *VM, id uint32) error {
	s := v.Estack()
	switch id {
	case idCheckWitness:
		if _, err := s.Pop(); err != nil {
			return err
		}
		s.PushBool(true)
	case idGetContext:
		s.Push(stackitem.NewInterop(v))
	case idGet:
		for range 2 {
			if _, err := s.Pop(); err != nil {
				return err
			}
		}
		s.Push(stackitem.ByteString{0x10, 0x27, 0})
	case idPut:
		for range 3 {
			if _, err := s.Pop(); err != nil {
				return err
			}
		}
	case idNotify:
		for range 2 {
			if _, err := s.Pop(); err != nil {
				return err
			}
		}
	default:
		return errUnknownSyscall
	}
	return nil
}

var benchScripts = []struct {
	name   string
	script func() []byte
}{
	{"Arith", arithScript},
	{"Stack", stackScript},
	{"Compound", compoundScript},
	{"NEP17", nep17Script},
}

// countInstructions runs s once step by step.
func countInstructions(t testing.TB, s []byte) int {
	v := New()
	v.SyscallHandler = fakeSyscalls
	_, err := v.LoadScript(s)
	require.NoError(t, err)
	n := 0
	for v.State() != HaltState && v.State() != FaultState {
		v.StepInto()
		n++
	}
	require.Equal(t, HaltState, v.State(), "%v", v.FaultException())
	return n - 1 // the last StepInto only observes the empty stack
}

func BenchmarkVM(b *testing.B) {
	for _, bs := range benchScripts {
		s := bs.script()
		n := countInstructions(b, s)
		b.Run(bs.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v := New()
				v.SyscallHandler = fakeSyscalls
				v.SetExecFeeFactor(30)
				v.SetGasLimit(100_0000_0000)
				if _, err := v.LoadScript(s); err != nil {
					b.Fatal(err)
				}
				if err := v.Run(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n), "instr/op")
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "instr/s")
		})
	}
}

// TestBenchScriptsHalt keeps the benchmark scripts honest and, with
// VM_BENCH_DUMP=dir, writes them as hex for running other VMs on them.
func TestBenchScriptsHalt(t *testing.T) {
	dir := os.Getenv("VM_BENCH_DUMP")
	for _, bs := range benchScripts {
		s := bs.script()
		require.Greater(t, countInstructions(t, s), 50, bs.name)
		if dir != "" {
			require.NoError(t, os.WriteFile(filepath.Join(dir, bs.name+".hex"), []byte(hex.EncodeToString(s)), 0o644))
		}
	}
}
