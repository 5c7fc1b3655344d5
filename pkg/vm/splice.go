package vm

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func init() {
	handlers[opcode.NEWBUFFER] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		n := v.popInt32(c)
		v.checkItemSize(n)
		c.sh.estack.push(elem{it: stackitem.MakeBuffer(n)})
	}
	handlers[opcode.MEMCPY] = opMemcpy
	handlers[opcode.CAT] = opCat
	handlers[opcode.SUBSTR] = opSubstr
	handlers[opcode.LEFT] = opLeftRight
	handlers[opcode.RIGHT] = opLeftRight
}

func (v *VM) popCount(c *Context, what string) int {
	n := v.popInt32(c)
	if n < 0 {
		v.fail(fmt.Errorf("%w: negative %s %d", ErrOutOfRange, what, n))
	}
	return n
}

func opMemcpy(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	count := v.popCount(c, "count")
	si := v.popCount(c, "source index")
	src := v.bytesOf(v.pop(c))
	if si+count > len(src) {
		v.fail(fmt.Errorf("%w: source range %d+%d/%d", ErrOutOfRange, si, count, len(src)))
	}
	di := v.popCount(c, "destination index")
	e := v.pop(c)
	dst, ok := e.it.(*stackitem.Buffer)
	if !ok {
		v.fail(fmt.Errorf("%w: MEMCPY destination must be a Buffer", ErrInvalidType))
	}
	db, _ := dst.Bytes() // a Buffer always has bytes
	if di+count > len(db) {
		v.fail(fmt.Errorf("%w: destination range %d+%d/%d", ErrOutOfRange, di, count, len(db)))
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
	count := v.popCount(c, "count")
	index := v.popCount(c, "index")
	x := v.bytesOf(v.pop(c))
	if index+count > len(x) {
		v.fail(fmt.Errorf("%w: SUBSTR range %d+%d/%d", ErrOutOfRange, index, count, len(x)))
	}
	buf := stackitem.MakeBuffer(count)
	r, _ := buf.Bytes() // a Buffer always has bytes
	copy(r, x[index:])
	c.sh.estack.push(elem{it: buf})
}

func opLeftRight(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	count := v.popCount(c, "count")
	x := v.bytesOf(v.pop(c))
	if count > len(x) {
		v.fail(fmt.Errorf("%w: %s count %d/%d", ErrOutOfRange, op, count, len(x)))
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
