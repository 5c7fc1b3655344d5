package vm

import (
	"fmt"
	"math"
	"math/big"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

type handler func(v *VM, ctx *Context, op opcode.Opcode, arg []byte)

var handlers [256]handler

func init() {
	for i := range handlers {
		if handlers[i] == nil {
			handlers[i] = opInvalid
		}
	}
}

func opInvalid(v *VM, _ *Context, op opcode.Opcode, _ []byte) {
	v.fail(faultf(ErrBadScript, "incorrect opcode Opcode(%d)", byte(op)))
}

func (v *VM) pop(ctx *Context) elem {
	e, err := ctx.sh.estack.remove(0)
	if err != nil {
		v.fail(errPopEmpty)
	}
	return e
}

func (v *VM) popNoRef(ctx *Context) elem {
	e, err := ctx.sh.estack.removeNoRef(0)
	if err != nil {
		v.fail(errPopEmpty)
	}
	return e
}

// errPopEmpty is a pop from an empty stack, worded as the reference Go
// node's runtime panic.
var errPopEmpty error = &kindError{kind: ErrStackUnderflow, text: "runtime error: index out of range [-1]"}

func (v *VM) popItem(ctx *Context) stackitem.Item { return v.pop(ctx).item() }

func (v *VM) peek(ctx *Context, i int) elem {
	e, err := ctx.sh.estack.peekElem(i)
	if err != nil {
		v.fail(faultf(ErrStackUnderflow, "runtime error: index out of range [%d]", ctx.sh.estack.Len()-1-i))
	}
	return e
}

// intOf is the reference GetInteger: small holds the value when big is nil.
func (v *VM) intOf(e elem) (int64, *big.Int) {
	if e.it == nil {
		return e.n, nil
	}
	if i, ok := e.it.(*stackitem.Integer); ok {
		if n, ok := i.Int64(); ok {
			return n, nil
		}
		return 0, i.Big()
	}
	b, err := e.it.BigInt()
	v.check(err)
	if b.IsInt64() {
		return b.Int64(), nil
	}
	return 0, b
}

func (v *VM) bigOf(e elem) *big.Int {
	n, b := v.intOf(e)
	if b == nil {
		return big.NewInt(n)
	}
	return b
}

func (v *VM) popBig(ctx *Context) *big.Int { return v.bigOf(v.pop(ctx)) }

// popInt32 is the reference "(int)engine.Pop().GetInteger()", which fails
// outside the int32 range.
func (v *VM) popInt32(ctx *Context) int {
	n, b := v.intOf(v.pop(ctx))
	if b != nil || n < math.MinInt32 || n > math.MaxInt32 {
		v.fail(faultf(ErrOutOfRange, "not an int32"))
	}
	return int(n)
}

func (v *VM) boolOf(e elem) bool {
	if e.it == nil {
		return e.n != 0
	}
	b, err := e.it.Bool()
	v.check(err)
	return b
}

func (v *VM) popBool(ctx *Context) bool { return v.boolOf(v.pop(ctx)) }

func (v *VM) bytesOf(e elem) []byte {
	if e.it == nil {
		b, _ := stackitem.NewInt(e.n).Bytes() // an Integer always has bytes
		return b
	}
	b, err := e.it.Bytes()
	v.check(err)
	return b
}

// bigElem makes an Integer element of r, failing beyond 32 bytes.
func (v *VM) bigElem(r *big.Int) elem {
	if r.IsInt64() {
		return elem{n: r.Int64()}
	}
	it, err := stackitem.NewBigIntegerChecked(r)
	v.check(err)
	return elem{it: it}
}

func (v *VM) pushBig(ctx *Context, r *big.Int) { ctx.sh.estack.push(v.bigElem(r)) }

func (v *VM) checkItemSize(n int) {
	if n < 0 || n > v.limits.MaxItemSize {
		v.fail(faultf(ErrItemTooBig, "too big item: %d", n))
	}
}

// setIP is the reference InstructionPointer setter (0 <= ip <= length).
func (v *VM) setIP(ctx *Context, ip int) {
	if ip < 0 || ip > len(ctx.sh.script.Bytes()) {
		v.fail(faultf(ErrJump, "instruction offset is out of range"))
	}
	ctx.ip = ip
}

func isPrimitive(e elem) bool { return e.it == nil || e.it.Type().IsPrimitive() }

func (v *VM) primitive(e elem) stackitem.Item {
	if !isPrimitive(e) {
		v.fail(fmt.Errorf("%w: %s is not a primitive type", ErrInvalidType, e.it.Type()))
	}
	return e.item()
}

func le16(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func i32(b []byte) int { return int(int32(le32(b))) }
