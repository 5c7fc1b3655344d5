package vm

import (
	"github.com/n3d-io/n3d/pkg/encoding/bigint"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func init() {
	handlers[opcode.ISNULL] = func(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
		c.sh.estack.pushBool(isNull(v.pop(c)))
	}
	handlers[opcode.ISTYPE] = func(v *VM, c *Context, _ opcode.Opcode, arg []byte) {
		e := v.pop(c)
		t := stackitem.Type(arg[0])
		if t == stackitem.AnyT || !t.IsValid() {
			v.fail(faultf(ErrInvalidType, "invalid type: %d", arg[0]))
		}
		et := stackitem.IntegerT
		if e.it != nil {
			et = e.it.Type()
		}
		c.sh.estack.pushBool(et == t)
	}
	handlers[opcode.CONVERT] = func(v *VM, c *Context, _ opcode.Opcode, arg []byte) {
		e := v.pop(c)
		if stackitem.Type(arg[0]) == stackitem.IntegerT {
			if n, ok := smallInt(e); ok {
				c.sh.estack.pushInt(n)
				return
			}
		}
		r, err := stackitem.ConvertTo(e.item(), stackitem.Type(arg[0]))
		v.check(err)
		c.sh.estack.push(itemElem(r))
	}
}

// smallInt is the conversion to Integer of an inline integer, a Boolean,
// or a ByteString or Buffer of at most 8 bytes (within the 32-byte
// Integer limit), done without allocating; ok is false for anything else.
func smallInt(e elem) (int64, bool) {
	switch x := e.it.(type) {
	case nil:
		return e.n, true
	case stackitem.ByteString:
		return bigint.FromInt64Bytes(x)
	case *stackitem.Buffer:
		b, _ := x.Bytes() // a Buffer always has bytes
		return bigint.FromInt64Bytes(b)
	case stackitem.Bool:
		if x {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}
