package interop_test

import (
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/stretchr/testify/require"
)

// TestGetNotifications: the filter, the item layout and the Domovoi
// change — before it every call returns the recorded notification's own
// (read-only) state array, so two calls give the same array; from Domovoi
// on each call gets a copy. The state cannot be changed either way, and
// reference counts return to the baseline.
func TestGetNotifications(t *testing.T) {
	for _, domovoi := range []bool{false, true} {
		e := newEnv()
		e.cfg.HardforkEnabled = func(hf protocol.Hardfork, _ uint32) bool { return domovoi || hf < protocol.HFDomovoi }
		c := testContract(t, e.d, 1, "n", []method{
			{name: "emit", params: []smartcontract.ParamType{smartcontract_Int}, ret: voidT, code: func(b *emit.Builder) {
				b.Opcodes(opcode.PUSH1, opcode.PACK).String("Ev").Syscall(interop.RuntimeNotify).Opcodes(opcode.RET)
			}},
		})
		emit5 := func(b *emit.Builder) { b.AppCall(c.Hash, "emit", byte(callflag.All), 5).Opcodes(opcode.DROP) }
		state := func(b *emit.Builder, filter []byte) {
			if filter == nil {
				b.Opcodes(opcode.PUSHNULL)
			} else {
				b.Bytes(filter)
			}
			b.Syscall(interop.RuntimeGetNotifications).Opcodes(opcode.PUSH0, opcode.PICKITEM, opcode.PUSH2, opcode.PICKITEM)
		}
		s := script(t, func(b *emit.Builder) {
			emit5(b)
			state(b, nil)
			state(b, c.Hash.BytesLE())
			b.Opcodes(opcode.OVER, opcode.OVER, opcode.EQUAL) // same array?
			b.Opcodes(opcode.ROT, opcode.DROP, opcode.SWAP, opcode.PUSH0, opcode.PICKITEM)
			b.Opcodes(opcode.PUSHNULL).Syscall(interop.RuntimeGetNotifications).
				Opcodes(opcode.PUSH0, opcode.PICKITEM, opcode.PUSH1, opcode.PICKITEM) // event name
			b.Bytes(util.Uint160{9}.BytesLE()).Syscall(interop.RuntimeGetNotifications).Opcodes(opcode.SIZE)
		})
		ic := e.run(t, s)
		require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
		st := ic.VM().ResultStack().Items()
		require.Len(t, st, 4)
		require.Equal(t, stackitem.Bool(!domovoi), st[0], "the same array before Domovoi, copies after")
		require.True(t, stackitem.NewInt(5).Equals(st[1]))
		require.Equal(t, "Ev", string(bytesOf(t, st[2])))
		require.True(t, stackitem.NewInt(0).Equals(st[3]))
		require.Equal(t, 4, ic.VM().References())

		// The state is read-only: changing it FAULTs (not catchable).
		require.Error(t, e.fault(t, tryCatch(t, script(t, func(b *emit.Builder) {
			emit5(b)
			state(b, nil)
			b.Opcodes(opcode.PUSH0).Int(99).Opcodes(opcode.SETITEM)
		}))))

		// Fetching twice and dropping both leaves no references behind.
		ic = e.run(t, script(t, func(b *emit.Builder) {
			emit5(b)
			b.Opcodes(opcode.PUSHNULL).Syscall(interop.RuntimeGetNotifications)
			b.Opcodes(opcode.PUSHNULL).Syscall(interop.RuntimeGetNotifications)
			b.Opcodes(opcode.DROP, opcode.DROP, opcode.DEPTH)
		}))
		require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
		require.Equal(t, 1, ic.VM().References())
	}
	e := newEnv()
	require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) {
		b.Bytes([]byte{1, 2, 3}).Syscall(interop.RuntimeGetNotifications)
	})), interop.ErrInvalidArgument)
}

// TestGetNotificationsLimit: more matching notifications than
// MaxStackSize FAULT the call itself (before Echidna, which caps them at
// 512 anyway); fewer are returned (a large result may still exceed the
// stack limit afterwards, as in the reference).
func TestGetNotificationsLimit(t *testing.T) {
	e := newEnv()
	e.cfg.HardforkEnabled = func(hf protocol.Hardfork, _ uint32) bool { return hf < protocol.HFEchidna }
	limit := vm.DefaultLimits.MaxStackSize
	c := testContract(t, e.d, 1, "many", []method{{name: "many", params: []smartcontract.ParamType{smartcontract_Int}, ret: voidT,
		code: func(b *emit.Builder) {
			// for n := arg; n > 0; n-- { Notify("Ev", [n]) }
			b.Instruction(opcode.INITSLOT, []byte{0, 1})
			start := b.Len()
			b.Opcodes(opcode.LDARG0, opcode.PUSH1, opcode.PACK).String("Ev").Syscall(interop.RuntimeNotify)
			b.Opcodes(opcode.LDARG0, opcode.DEC, opcode.DUP, opcode.STARG0, opcode.PUSH0)
			b.Jump(opcode.JMPGT_L, start-b.Len())
			b.Opcodes(opcode.RET)
		}}})
	get := func(n int) *interop.Context {
		return e.run(t, script(t, func(b *emit.Builder) {
			b.AppCall(c.Hash, "many", byte(callflag.All), n).Opcodes(opcode.DROP)
			b.Opcodes(opcode.PUSHNULL).Syscall(interop.RuntimeGetNotifications).Opcodes(opcode.SIZE)
		}))
	}
	ic := get(300)
	require.Equal(t, vm.HaltState, ic.VM().State(), "%v", ic.VM().FaultException())
	require.True(t, stackitem.NewInt(300).Equals(ic.VM().ResultStack().Items()[0]))
	ic = get(limit)
	require.ErrorIs(t, ic.VM().FaultException(), vm.ErrStackOverflow)
	ic = get(limit + 1)
	require.Equal(t, vm.FaultState, ic.VM().State())
	require.ErrorIs(t, ic.VM().FaultException(), interop.ErrNotAllowed)
}

// TestRuntimeLog: the handler gets the container, the current script
// hash and the message; a message over 1024 bytes or not UTF-8 FAULTs.
func TestRuntimeLog(t *testing.T) {
	e := newEnv()
	tx := txWithSigners()
	e.cfg.Container = tx
	var got []interop.LogEvent
	e.cfg.OnLog = func(l interop.LogEvent) { got = append(got, l) }
	c := testContract(t, e.d, 1, "log", []method{{name: "log", params: []smartcontract.ParamType{smartcontract.StringType}, ret: voidT,
		code: func(b *emit.Builder) { b.Syscall(interop.RuntimeLog).Opcodes(opcode.RET) }}})
	msg := strings.Repeat("é", interop.MaxNotificationSize/2)
	e.halt(t, script(t, func(b *emit.Builder) { b.AppCall(c.Hash, "log", byte(callflag.All), msg) }))
	require.Len(t, got, 1)
	require.Equal(t, interop.LogEvent{Container: tx, ScriptHash: c.Hash, Message: msg}, got[0])
	for _, bad := range [][]byte{[]byte(msg + "x"), {0xff, 0xfe}} {
		require.ErrorIs(t, e.fault(t, script(t, func(b *emit.Builder) { b.Bytes(bad).Syscall(interop.RuntimeLog) })), interop.ErrInvalidArgument)
	}
	require.Len(t, got, 1)
	// Without a handler it still validates and costs the same.
	e.cfg.OnLog = nil
	e.halt(t, script(t, func(b *emit.Builder) { b.String("x").Syscall(interop.RuntimeLog) }))
}
