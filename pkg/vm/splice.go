package vm

import (
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func init() {
	handlers[opcode.NEWBUFFER] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		n := v.popInt32(c)
		if n < 0 || n > v.limits.MaxItemSize {
			v.fail(faultf(ErrItemTooBig, "invalid size"))
		}
		c.sh.estack.push(elem{it: stackitem.MakeBuffer(n)})
	}
	handlers[opcode.MEMCPY] = opMemcpy
	handlers[opcode.CAT] = opCat
	handlers[opcode.SUBSTR] = opSubstr
	handlers[opcode.LEFT] = opLeftRight
	handlers[opcode.RIGHT] = opLeftRight
}

// popCount pops a non-negative int32; text words a negative one.
func (v *VM) popCount(c *Context, text string) int {
	n := v.popInt32(c)
	if n < 0 {
		v.fail(faultf(ErrOutOfRange, "%s", text))
	}
	return n
}

func opMemcpy(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	count := v.popCount(c, "invalid size")
	si := v.popCount(c, "invalid source index")
	src := v.bytesOf(v.pop(c))
	if si+count > len(src) {
		v.fail(faultf(ErrOutOfRange, "size is too big"))
	}
	di := v.popCount(c, "invalid destination index")
	e := v.pop(c)
	dst, ok := e.it.(*stackitem.Buffer)
	if !ok {
		v.fail(faultf(ErrInvalidType, "interface conversion: stackitem.Item is %s, not *stackitem.Buffer", stackitem.GoType(e.item())))
	}
	db, _ := dst.Bytes() // a Buffer always has bytes
	if di+count > len(db) {
		v.fail(faultf(ErrOutOfRange, "size is too big"))
	}
	copy(db[di:di+count], src[si:si+count])
}

func opCat(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	x2 := v.bytesOf(v.pop(c))
	x1 := v.bytesOf(v.pop(c))
	n := len(x1) + len(x2)
	v.checkItemSize(n)
	buf := stackitem.MakeBuffer(n)
	r, _ := buf.Bytes() // a Buffer always has bytes
	copy(r, x1)
	copy(r[len(x1):], x2)
	c.sh.estack.push(elem{it: buf})
}

func opSubstr(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	count := v.popCount(c, "negative length")
	index := v.popCount(c, "negative index")
	x := v.bytesOf(v.pop(c))
	if index+count > len(x) {
		v.fail(faultf(ErrOutOfRange, "invalid offset"))
	}
	buf := stackitem.MakeBuffer(count)
	r, _ := buf.Bytes() // a Buffer always has bytes
	copy(r, x[index:])
	c.sh.estack.push(elem{it: buf})
}

func opLeftRight(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	count := v.popCount(c, "negative length")
	x := v.bytesOf(v.pop(c))
	if count > len(x) {
		v.fail(faultf(ErrOutOfRange, "size is too big"))
	}
	buf := stackitem.MakeBuffer(count)
	r, _ := buf.Bytes() // a Buffer always has bytes
	if op == opcode.LEFT {
		copy(r, x[:count])
	} else {
		copy(r, x[len(x)-count:])
	}
	c.sh.estack.push(elem{it: buf})
}
