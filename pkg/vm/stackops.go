package vm

import (
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

func init() {
	handlers[opcode.DEPTH] = func(_ *VM, c *Context, _ opcode.Opcode, _ []byte) {
		c.sh.estack.pushInt(int64(c.sh.estack.Len()))
	}
	handlers[opcode.DROP] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		if _, err := c.sh.estack.remove(0); err != nil {
			v.underflow("stack is too small")
		}
	}
	handlers[opcode.NIP] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		if _, err := c.sh.estack.remove(1); err != nil {
			v.underflow("no second element found")
		}
	}
	handlers[opcode.XDROP] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		n := v.nonNegative(v.popInt32(c))
		if _, err := c.sh.estack.remove(n); err != nil {
			v.underflow("bad index")
		}
	}
	handlers[opcode.CLEAR] = func(_ *VM, c *Context, _ opcode.Opcode, _ []byte) { c.sh.estack.clear() }
	handlers[opcode.DUP] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) { c.sh.estack.push(v.peek(c, 0)) }
	handlers[opcode.OVER] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		e, err := c.sh.estack.peekElem(1)
		if err != nil {
			v.underflow("no second element found")
		}
		c.sh.estack.push(e)
	}
	handlers[opcode.PICK] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		n := v.popInt32(c)
		if n < 0 {
			v.fail(faultf(ErrOutOfRange, "negative stack item returned"))
		}
		e, err := c.sh.estack.peekElem(n)
		if err != nil {
			v.underflow("no nth element found")
		}
		c.sh.estack.push(e)
	}
	handlers[opcode.TUCK] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		e, err := c.sh.estack.peekElem(0)
		if err == nil {
			err = c.sh.estack.insert(2, e)
		}
		if err != nil {
			v.underflow("too short stack to TUCK")
		}
	}
	handlers[opcode.SWAP] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		s := c.sh.estack.e
		if len(s) < 2 {
			v.underflow("too big index")
		}
		s[len(s)-1], s[len(s)-2] = s[len(s)-2], s[len(s)-1]
	}
	handlers[opcode.ROT] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		if err := c.sh.estack.roll(2); err != nil {
			v.underflow("too big index")
		}
	}
	handlers[opcode.ROLL] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		n := v.popInt32(c)
		if err := c.sh.estack.roll(n); err != nil {
			v.underflow(indexText(n))
		}
	}
	handlers[opcode.REVERSE3] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		if err := c.sh.estack.reverse(3); err != nil {
			v.underflow("too big index")
		}
	}
	handlers[opcode.REVERSE4] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		if err := c.sh.estack.reverse(4); err != nil {
			v.underflow("too big index")
		}
	}
	handlers[opcode.REVERSEN] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		n := v.popInt32(c)
		if err := c.sh.estack.reverse(n); err != nil {
			v.underflow(indexText(n))
		}
	}
	handlers[opcode.INITSSLOT] = opInitSSlot
	handlers[opcode.INITSLOT] = opInitSlot
	registerSlotOps(opcode.LDSFLD0, opcode.STSFLD0, func(c *Context) []elem { return c.sh.static })
	registerSlotOps(opcode.LDLOC0, opcode.STLOC0, func(c *Context) []elem { return c.locals })
	registerSlotOps(opcode.LDARG0, opcode.STARG0, func(c *Context) []elem { return c.args })
}

// underflow FAULTs with text, the reference Go node's wording of a stack
// operation short of items.
func (v *VM) underflow(text string) { v.fail(&kindError{kind: ErrStackUnderflow, text: text}) }

// indexText words a bad ROLL/REVERSEN count n as the reference does.
func indexText(n int) string {
	if n < 0 {
		return "negative index"
	}
	return "too big index"
}

func (v *VM) nonNegative(n int) int {
	if n < 0 {
		v.fail(faultf(ErrOutOfRange, "invalid length"))
	}
	return n
}

// registerSlotOps installs the 8 loads starting at ld0 (7 with an implicit
// index, then one with an operand) and the 8 stores starting at st0.
func registerSlotOps(ld0, st0 opcode.Opcode, get func(*Context) []elem) {
	load := func(v *VM, c *Context, op opcode.Opcode, arg []byte) {
		s := get(c)
		i := int(op - ld0)
		if len(arg) == 1 {
			i = int(arg[0])
		}
		if i >= len(s) {
			v.fail(faultf(ErrSlot, "runtime error: index out of range [%d] with length %d", i, len(s)))
		}
		c.sh.estack.push(s[i])
	}
	store := func(v *VM, c *Context, op opcode.Opcode, arg []byte) {
		s := get(c)
		if s == nil {
			v.fail(faultf(ErrSlot, "slot is not initialized"))
		}
		i := int(op - st0)
		if len(arg) == 1 {
			i = int(arg[0])
		}
		if i >= len(s) {
			v.fail(faultf(ErrSlot, "slot index is out of range: %d with length %d", i, len(s)))
		}
		old := s[i]
		if old.it == nil {
			v.rc.Inc(-1)
		} else {
			v.rc.Remove(old.it)
		}
		s[i] = v.popNoRef(c)
	}
	for k := opcode.Opcode(0); k < 8; k++ {
		handlers[ld0+k] = load
		handlers[st0+k] = store
	}
}

func opInitSSlot(v *VM, c *Context, op opcode.Opcode, arg []byte) {
	if arg[0] == 0 {
		v.fail(faultf(ErrSlot, "zero argument"))
	}
	if c.sh.static != nil {
		v.fail(faultf(ErrSlot, "already initialized"))
	}
	c.sh.static = make([]elem, arg[0])
	fillNull(c.sh.static, &v.rc)
}

func opInitSlot(v *VM, c *Context, op opcode.Opcode, arg []byte) {
	if c.locals != nil || c.args != nil {
		v.fail(faultf(ErrSlot, "already initialized"))
	}
	if arg[0] == 0 && arg[1] == 0 {
		v.fail(faultf(ErrSlot, "zero argument"))
	}
	nl, na := int(arg[0]), int(arg[1])
	buf := make([]elem, nl+na) // one allocation for both slots
	if nl > 0 {
		c.locals = buf[:nl:nl]
		fillNull(c.locals, &v.rc)
	}
	if na > 0 {
		args := buf[nl:]
		for i := range args {
			args[i] = v.popNoRef(c)
		}
		c.args = args
	}
}
