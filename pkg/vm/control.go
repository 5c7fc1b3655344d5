package vm

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func init() {
	for op := opcode.PUSHINT8; op <= opcode.PUSHINT256; op++ {
		handlers[op] = opPushInt
	}
	for op := opcode.PUSHM1; op <= opcode.PUSH16; op++ {
		handlers[op] = opPushSmall
	}
	handlers[opcode.PUSHT] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) { c.sh.estack.pushBool(true) }
	handlers[opcode.PUSHF] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) { c.sh.estack.pushBool(false) }
	handlers[opcode.PUSHNULL] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		c.sh.estack.push(elem{it: stackitem.Null{}})
	}
	handlers[opcode.PUSHA] = opPushA
	handlers[opcode.PUSHDATA1] = opPushData
	handlers[opcode.PUSHDATA2] = opPushData
	handlers[opcode.PUSHDATA4] = opPushData
	handlers[opcode.NOP] = func(*VM, *Context, opcode.Opcode, []byte) {}
	for op := opcode.JMP; op <= opcode.JMPLE_L; op++ {
		handlers[op] = opJump
	}
	handlers[opcode.CALL] = opCall
	handlers[opcode.CALL_L] = opCall
	handlers[opcode.CALLA] = opCallA
	handlers[opcode.CALLT] = opCallT
	handlers[opcode.SYSCALL] = opSyscall
	handlers[opcode.RET] = opRet
	handlers[opcode.ABORT] = func(v *VM, _ *Context, _ opcode.Opcode, _ []byte) {
		v.fail(faultf(ErrAbort, "ABORT"))
	}
	handlers[opcode.ABORTMSG] = opAbortMsg
	handlers[opcode.ASSERT] = opAssert
	handlers[opcode.ASSERTMSG] = opAssertMsg
	handlers[opcode.THROW] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) { v.throw(v.popItem(c)) }
	handlers[opcode.TRY] = opTry
	handlers[opcode.TRY_L] = opTry
	handlers[opcode.ENDTRY] = opEndTry
	handlers[opcode.ENDTRY_L] = opEndTry
	handlers[opcode.ENDFINALLY] = opEndFinally
}

func opPushInt(v *VM, c *Context, _ opcode.Opcode, arg []byte) {
	if n, ok := bigint.FromInt64Bytes(arg); ok {
		c.sh.estack.pushInt(n)
		return
	}
	v.pushBig(c, bigint.FromBytes(arg))
}

func opPushSmall(_ *VM, c *Context, op opcode.Opcode, _ []byte) {
	c.sh.estack.pushInt(int64(op) - int64(opcode.PUSH0))
}

func opPushA(v *VM, c *Context, _ opcode.Opcode, arg []byte) {
	pos := c.ip + i32(arg)
	if pos < 0 || pos > len(c.sh.script.Bytes()) {
		v.fail(faultf(ErrOutOfRange, "invalid offset %d ip at %d", pos, c.ip))
	}
	c.sh.estack.push(elem{it: stackitem.NewPointer(pos, c.sh.script)})
}

func opPushData(v *VM, c *Context, _ opcode.Opcode, arg []byte) {
	v.checkItemSize(len(arg))
	c.sh.estack.push(elem{it: stackitem.ByteString(arg)})
}

// jumpOffset reads the 1- or 4-byte offset of a jump-like instruction.
func jumpOffset(arg []byte) int {
	if len(arg) == 1 {
		return int(int8(arg[0]))
	}
	return i32(arg)
}

func (v *VM) jump(c *Context, pos int) {
	v.checkTarget(c, pos)
	c.ip = pos
	v.jumping = true
}

// opJump handles JMP, JMPIF, JMPIFNOT and the integer comparisons; the
// long forms are the short opcode + 1.
func opJump(v *VM, c *Context, op opcode.Opcode, arg []byte) {
	base := op &^ 1 // short forms are even, long forms odd
	var ok bool
	switch base {
	case opcode.JMP:
		ok = true
	case opcode.JMPIF:
		ok = v.popBool(c)
	case opcode.JMPIFNOT:
		ok = !v.popBool(c)
	default:
		ok = v.compareTop(c, base)
	}
	if ok {
		v.jump(c, c.ip+jumpOffset(arg))
	}
}

// compareTop pops x2 then x1 and compares them as integers.
func (v *VM) compareTop(c *Context, base opcode.Opcode) bool {
	n2, b2 := v.intOf(v.pop(c))
	n1, b1 := v.intOf(v.pop(c))
	var cmp int
	if b1 == nil && b2 == nil {
		switch {
		case n1 < n2:
			cmp = -1
		case n1 > n2:
			cmp = 1
		}
	} else {
		if b1 == nil {
			b1 = bigFromInt(n1)
		}
		if b2 == nil {
			b2 = bigFromInt(n2)
		}
		cmp = b1.Cmp(b2)
	}
	switch base {
	case opcode.JMPEQ:
		return cmp == 0
	case opcode.JMPNE:
		return cmp != 0
	case opcode.JMPGT:
		return cmp > 0
	case opcode.JMPGE:
		return cmp >= 0
	case opcode.JMPLT:
		return cmp < 0
	}
	return cmp <= 0
}

// call is the reference ExecuteCall: a clone at pos (LoadContext checks
// the position).
func (v *VM) call(c *Context, pos int) {
	v.checkTarget(c, pos)
	if len(v.istack) >= v.limits.MaxInvocationStackSize {
		v.fail(faultf(ErrInvocationOverflow, "invocation stack is too big: %d", len(v.istack)))
	}
	v.check(v.LoadContext(c.Clone(pos)))
}

// checkTarget fails unless pos is an instruction offset inside c's
// script (a jump or call target), worded as the reference Go node words
// it.
func (v *VM) checkTarget(c *Context, pos int) {
	n := len(c.sh.script.Bytes())
	if pos < 0 || pos > n {
		v.fail(faultf(ErrJump, "invalid offset %d ip at %d", pos, c.ip))
	}
	if pos == n {
		v.fail(faultf(ErrJump, "instruction offset is out of range"))
	}
}

func opCall(v *VM, c *Context, _ opcode.Opcode, arg []byte) { v.call(c, c.ip+jumpOffset(arg)) }

func opCallA(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.pop(c)
	p, ok := e.it.(*stackitem.Pointer)
	if !ok {
		v.fail(faultf(ErrInvalidType, "interface conversion: stackitem.Item is %s, not *stackitem.Pointer", stackitem.GoType(e.item())))
	}
	if p.Script() != c.sh.script {
		v.fail(faultf(ErrJump, "invalid script in pointer"))
	}
	v.call(c, p.Position())
}

func opCallT(v *VM, _ *Context, _ opcode.Opcode, arg []byte) {
	tok := le16(arg)
	if v.CallTHandler == nil {
		v.fail(faultf(ErrCallT, "runtime error: invalid memory address or nil pointer dereference"))
	}
	if err := v.CallTHandler(v, tok); err != nil {
		v.fail(&kindError{kind: ErrCallT, text: err.Error(), cause: err})
	}
}

func opSyscall(v *VM, _ *Context, _ opcode.Opcode, arg []byte) {
	id := le32(arg)
	if v.SyscallHandler == nil {
		v.fail(faultf(ErrSyscall, "vm's SyscallHandler is not initialized"))
	}
	// The handler words its failure ("System.Contract.Call failed: ...").
	if err := v.SyscallHandler(v, id); err != nil {
		v.fail(&kindError{kind: ErrSyscall, text: err.Error(), cause: err})
	}
}

func opRet(v *VM, _ *Context, _ opcode.Opcode, _ []byte) {
	c := v.popContext()
	dst := v.rstack
	if len(v.istack) > 0 {
		dst = v.istack[len(v.istack)-1].sh.estack
	}
	if src := c.sh.estack; src != dst {
		if c.rvcount >= 0 && src.Len() != c.rvcount {
			v.fail(faultf(ErrReturnCount, "invalid return values count: expected %d, got %d", c.rvcount, src.Len()))
		}
		// Reference EvaluationStack.CopyTo: the items move to the caller
		// with their references counted once; the callee's stack keeps
		// them so that the unload hook sees how many were returned.
		dst.e = append(dst.e, src.e...)
	}
	if len(v.istack) == 0 {
		v.state = HaltState
	}
	v.check(v.contextUnloaded(c))
	v.jumping = true
}

// contextUnloaded is the reference ContextUnloaded: it releases the slots
// of a context that left the invocation stack and runs the host hook.
func (v *VM) contextUnloaded(c *Context) error {
	cur := v.Context()
	if cur == nil {
		v.entry = nil
	}
	// A static slot belongs to one shared state: the current context
	// uses the same one exactly when it shares c's state.
	if c.sh.static != nil && (cur == nil || cur.sh != c.sh) {
		clearRefs(c.sh.static, &v.rc)
	}
	clearRefs(c.locals, &v.rc)
	clearRefs(c.args, &v.rc)
	if v.OnContextUnloaded != nil {
		if err := v.OnContextUnloaded(v, c); err != nil {
			text := "context unload callback failed: " + err.Error()
			if v.uncaught != nil {
				text += ", uncaught exception: " + neoGoTypeName(v.uncaught)
			}
			return &kindError{kind: err, text: text}
		}
	}
	return nil
}

// UnloadContext removes the current context (as an exception unwinding
// through it would) and returns it. An error of the unload hook FAULTs
// the VM and is returned.
func (v *VM) UnloadContext() (*Context, error) {
	if len(v.istack) == 0 {
		return nil, ErrNoContext
	}
	c := v.popContext()
	if err := v.contextUnloaded(c); err != nil {
		v.state, v.faultErr = FaultState, err
		return c, err
	}
	return c, nil
}

func (v *VM) popContext() *Context {
	c := v.istack[len(v.istack)-1]
	v.istack[len(v.istack)-1] = nil
	v.istack = v.istack[:len(v.istack)-1]
	return c
}

func opAbortMsg(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	msg, err := stackitem.ToString(v.popItem(c))
	v.check(err)
	v.fail(faultf(ErrAbort, "ABORTMSG is executed. Reason: %s", msg))
}

func opAssert(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	if !v.popBool(c) {
		v.fail(faultf(ErrAssert, "ASSERT failed"))
	}
}

func opAssertMsg(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	msg, err := stackitem.ToString(v.popItem(c))
	v.check(err)
	if !v.popBool(c) {
		v.fail(faultf(ErrAssert, "ASSERTMSG is executed with false result. Reason: %s", msg))
	}
}

func opTry(v *VM, c *Context, _ opcode.Opcode, arg []byte) {
	var catchOff, finallyOff int
	if len(arg) == 2 {
		catchOff, finallyOff = int(int8(arg[0])), int(int8(arg[1]))
	} else {
		catchOff, finallyOff = i32(arg), i32(arg[4:])
	}
	if catchOff == 0 && finallyOff == 0 {
		v.fail(faultf(ErrTry, "invalid offset for TRY*"))
	}
	if len(c.tries) >= v.limits.MaxTryNestingDepth {
		v.fail(faultf(ErrTryNesting, "maximum TRY depth exceeded"))
	}
	t := tryContext{catchPtr: -1, finallyPtr: -1, endPtr: -1}
	if catchOff != 0 {
		t.catchPtr = c.ip + catchOff
	}
	if finallyOff != 0 {
		t.finallyPtr = c.ip + finallyOff
	}
	c.tries = append(c.tries, t)
}

func opEndTry(v *VM, c *Context, _ opcode.Opcode, arg []byte) {
	if len(c.tries) == 0 {
		v.fail(faultf(ErrTry, "runtime error: index out of range [-1]"))
	}
	t := &c.tries[len(c.tries)-1]
	if t.state == tryFinally {
		v.fail(faultf(ErrTry, "invalid exception handling state during ENDTRY*"))
	}
	end := c.ip + jumpOffset(arg)
	if t.finallyPtr >= 0 {
		t.state = tryFinally
		t.endPtr = end
		v.setIP(c, t.finallyPtr)
	} else {
		c.tries = c.tries[:len(c.tries)-1]
		v.setIP(c, end)
	}
	v.jumping = true
}

func opEndFinally(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	if len(c.tries) == 0 {
		v.fail(faultf(ErrTry, "runtime error: index out of range [-1]"))
	}
	t := c.tries[len(c.tries)-1]
	c.tries = c.tries[:len(c.tries)-1]
	if v.uncaught == nil {
		v.setIP(c, t.endPtr)
	} else {
		v.throw(v.uncaught)
	}
	v.jumping = true
}

// Throw raises ex as a catchable exception (reference ExecuteThrow). Call
// it from a syscall handler and return nil to let the script catch it.
func (v *VM) Throw(ex stackitem.Item) (err error) {
	defer func() {
		if r := recover(); r != nil {
			p, ok := r.(vmPanic)
			if !ok {
				panic(r)
			}
			err = p.err
		}
	}()
	v.throw(ex)
	return nil
}

// throw unwinds to the nearest TRY that can handle ex (reference
// ExecuteThrow).
func (v *VM) throw(ex stackitem.Item) {
	v.uncaught = ex
	pop := 0
	for i := len(v.istack) - 1; i >= 0; i-- {
		c := v.istack[i]
		for len(c.tries) > 0 {
			t := &c.tries[len(c.tries)-1]
			if t.state == tryFinally || (t.state == tryCatch && t.finallyPtr < 0) {
				c.tries = c.tries[:len(c.tries)-1]
				continue
			}
			for range pop {
				v.check(v.contextUnloaded(v.popContext()))
			}
			if t.state == tryBody && t.catchPtr >= 0 {
				t.state = tryCatch
				c.sh.estack.push(itemElem(v.uncaught))
				v.setIP(c, t.catchPtr)
				v.uncaught = nil
			} else {
				t.state = tryFinally
				v.setIP(c, t.finallyPtr)
			}
			v.jumping = true
			return
		}
		pop++
	}
	v.fail(&kindError{kind: ErrUnhandled, text: unhandledText(ex)})
}

// unhandledText words an uncaught exception as the reference Go node
// does: the bytes of a primitive item (of the first element of an
// Array), Go-quoted, or no message at all.
func unhandledText(ex stackitem.Item) string {
	const msg = "unhandled exception"
	if ex == nil {
		return msg
	}
	if ex.Type() == stackitem.ArrayT {
		a := ex.(*stackitem.Array)
		if a.Len() == 0 {
			return msg
		}
		ex = a.At(0)
	}
	if t := ex.Type(); !t.IsPrimitive() && t != stackitem.BufferT {
		return msg
	}
	b, err := ex.Bytes()
	if err != nil {
		return msg
	}
	return fmt.Sprintf("%s: %q", msg, b)
}

// throwString raises a catchable exception with a ByteString message.
func (v *VM) throwString(msg string) { v.throw(stackitem.ByteString(msg)) }
