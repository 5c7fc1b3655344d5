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
		v.fail(fmt.Errorf("%w: ABORT is executed.", ErrAbort))
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
		v.fail(fmt.Errorf("%w: bad pointer address %d", ErrOutOfRange, pos))
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
	if pos < 0 || pos >= len(c.sh.script.Bytes()) {
		v.fail(fmt.Errorf("%w: position %d", ErrJump, pos))
	}
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
func (v *VM) call(c *Context, pos int) { v.check(v.LoadContext(c.Clone(pos))) }

func opCall(v *VM, c *Context, _ opcode.Opcode, arg []byte) { v.call(c, c.ip+jumpOffset(arg)) }

func opCallA(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.pop(c)
	p, ok := e.it.(*stackitem.Pointer)
	if !ok {
		v.fail(fmt.Errorf("%w: CALLA needs a Pointer", ErrInvalidType))
	}
	if p.Script() != c.sh.script {
		v.fail(fmt.Errorf("%w: pointers can't be shared between scripts", ErrJump))
	}
	v.call(c, p.Position())
}

func opCallT(v *VM, _ *Context, _ opcode.Opcode, arg []byte) {
	tok := le16(arg)
	if v.CallTHandler == nil {
		v.fail(fmt.Errorf("%w: token not found: %d", ErrCallT, tok))
	}
	if err := v.CallTHandler(v, tok); err != nil {
		v.fail(fmt.Errorf("%w: token %d: %w", ErrCallT, tok, err))
	}
}

func opSyscall(v *VM, _ *Context, _ opcode.Opcode, arg []byte) {
	id := le32(arg)
	if v.SyscallHandler == nil {
		v.fail(fmt.Errorf("%w: syscall not found: 0x%08x", ErrSyscall, id))
	}
	if err := v.SyscallHandler(v, id); err != nil {
		v.fail(fmt.Errorf("%w: 0x%08x: %w", ErrSyscall, id, err))
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
			v.fail(fmt.Errorf("%w: expected %d, got %d", ErrReturnCount, c.rvcount, src.Len()))
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
		return v.OnContextUnloaded(v, c)
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
	v.fail(fmt.Errorf("%w: ABORTMSG is executed. Reason: %s", ErrAbort, msg))
}

func opAssert(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	if !v.popBool(c) {
		v.fail(fmt.Errorf("%w: ASSERT is executed with false result.", ErrAssert))
	}
}

func opAssertMsg(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	msg, err := stackitem.ToString(v.popItem(c))
	v.check(err)
	if !v.popBool(c) {
		v.fail(fmt.Errorf("%w: ASSERTMSG is executed with false result. Reason: %s", ErrAssert, msg))
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
		v.fail(fmt.Errorf("%w: catch and finally offsets can't both be 0", ErrTry))
	}
	if len(c.tries) >= v.limits.MaxTryNestingDepth {
		v.fail(ErrTryNesting)
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
		v.fail(fmt.Errorf("%w: the corresponding TRY block cannot be found", ErrTry))
	}
	t := &c.tries[len(c.tries)-1]
	if t.state == tryFinally {
		v.fail(fmt.Errorf("%w: ENDTRY in a FINALLY block", ErrTry))
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
		v.fail(fmt.Errorf("%w: the corresponding TRY block cannot be found", ErrTry))
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
	v.fail(fmt.Errorf("%w: %s", ErrUnhandled, exceptionMessage(ex)))
}

func exceptionMessage(ex stackitem.Item) string {
	if ex == nil {
		return ""
	}
	switch ex.Type() {
	case stackitem.ByteArrayT, stackitem.BufferT:
		b, _ := ex.Bytes() // these types always have bytes
		return string(b)
	}
	return ex.String()
}

// throwString raises a catchable exception with a ByteString message.
func (v *VM) throwString(msg string) { v.throw(stackitem.ByteString(msg)) }
