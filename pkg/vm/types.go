package vm

import (
	"fmt"

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
			v.fail(fmt.Errorf("%w: invalid type 0x%02x", ErrInvalidType, arg[0]))
		}
		et := stackitem.IntegerT
		if e.it != nil {
			et = e.it.Type()
		}
		c.sh.estack.pushBool(et == t)
	}
	handlers[opcode.CONVERT] = func(v *VM, c *Context, _ opcode.Opcode, arg []byte) {
		e := v.pop(c)
		if e.it == nil && stackitem.Type(arg[0]) == stackitem.IntegerT {
			c.sh.estack.push(e)
			return
		}
		r, err := stackitem.ConvertTo(e.item(), stackitem.Type(arg[0]))
		v.check(err)
		c.sh.estack.push(itemElem(r))
	}
}
