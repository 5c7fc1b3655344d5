package vm

import (
	"math/big"
	"strconv"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func opPickItem(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	key := v.primitive(v.pop(c))
	e := v.pop(c)
	switch x := e.it.(type) {
	case *stackitem.Array:
		idx, b := v.index(key)
		if !inRange(idx, b, x.Len()) {
			v.throwString(outOfRange(idx, b))
			return
		}
		c.sh.estack.push(itemElem(x.At(int(idx))))
	case *stackitem.Map:
		val, ok, err := x.Get(key)
		v.check(err)
		if !ok {
			v.throwString("Key not found in Map")
			return
		}
		c.sh.estack.push(itemElem(val))
	case *stackitem.Buffer, stackitem.ByteString, stackitem.Bool, *stackitem.Integer, nil:
		data := v.bytesOf(e)
		idx, b := v.index(key)
		if !inRange(idx, b, len(data)) {
			v.throwString(outOfRange(idx, b))
			return
		}
		c.sh.estack.pushInt(int64(data[idx]))
	default:
		v.fail(faultf(ErrInvalidType, "PICKITEM: unknown type"))
	}
}

func (v *VM) cloneIfStruct(it stackitem.Item) (stackitem.Item, bool) {
	if s, ok := it.(*stackitem.Array); ok && s.IsStruct() {
		cl, err := s.Clone(v.limits.MaxStackSize)
		v.check(err)
		return cl, true
	}
	return it, false
}

func opAppend(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	item := v.popItem(c)
	e := v.pop(c)
	a, ok := e.it.(*stackitem.Array)
	if !ok {
		v.fail(faultf(ErrInvalidType, "APPEND: not of underlying type Array"))
	}
	item, _ = v.cloneIfStruct(item)
	v.check(a.Append(item))
	if v.rc.IsReferenced(a) {
		v.rc.Add(item, 1)
	}
}

func opSetItem(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	value := v.popNoRef(c).item()
	if cl, ok := v.cloneIfStruct(value); ok {
		v.rc.Remove(value)
		value = cl
		v.rc.Add(value, 1)
	}
	key := v.primitive(v.pop(c))
	e := v.pop(c)
	switch x := e.it.(type) {
	case *stackitem.Array:
		idx, b := v.index(key)
		if !inRange(idx, b, x.Len()) {
			v.rc.Remove(value)
			v.throwString(outOfRange(idx, b))
			return
		}
		if v.rc.IsReferenced(x) {
			v.rc.Remove(x.At(int(idx)))
		} else {
			v.rc.Remove(value)
		}
		v.check(x.Set(int(idx), value))
	case *stackitem.Map:
		if v.rc.IsReferenced(x) {
			old, ok, err := x.Get(key)
			v.check(err)
			if ok {
				v.rc.Remove(old)
			} else {
				v.rc.Add(key, 1)
			}
		} else {
			v.rc.Remove(value)
		}
		v.check(x.Add(key, value))
	case *stackitem.Buffer:
		v.rc.Remove(value)
		idx, b := v.index(key)
		if !inRange(idx, b, x.Len()) {
			v.throwString(outOfRange(idx, b))
			return
		}
		if !value.Type().IsPrimitive() {
			v.fail(faultf(ErrInvalidType, "invalid value"))
		}
		n, bi := v.intOf(itemElem(value))
		if bi != nil || n < -128 || n > 255 {
			v.fail(faultf(ErrOutOfRange, "invalid value"))
		}
		data, _ := x.Bytes() // a Buffer always has bytes
		data[idx] = byte(n)
	default:
		v.fail(faultf(ErrInvalidType, "SETITEM: invalid item type %s", neoGoTypeName(e.item())))
	}
}

func opReverseItems(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.pop(c)
	switch x := e.it.(type) {
	case *stackitem.Array:
		v.check(x.Reverse())
	case *stackitem.Buffer:
		data, _ := x.Bytes() // a Buffer always has bytes
		for i, j := 0, len(data)-1; i < j; i, j = i+1, j-1 {
			data[i], data[j] = data[j], data[i]
		}
	default:
		v.fail(faultf(ErrInvalidType, "invalid item type %s", neoGoTypeName(e.item())))
	}
}

func opRemove(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	key := v.primitive(v.pop(c))
	e := v.pop(c)
	switch x := e.it.(type) {
	case *stackitem.Array:
		idx, b := v.index(key)
		if !inRange(idx, b, x.Len()) {
			v.fail(faultf(ErrOutOfRange, "REMOVE: invalid index"))
		}
		item := x.At(int(idx))
		v.check(x.RemoveAt(int(idx)))
		if v.rc.IsReferenced(x) {
			v.rc.Remove(item)
		}
	case *stackitem.Map:
		_, old, err := x.Drop(key)
		v.check(err)
		if old != nil && v.rc.IsReferenced(x) {
			v.rc.Remove(key)
			v.rc.Remove(old)
		}
	default:
		v.fail(faultf(ErrInvalidType, "REMOVE: invalid type"))
	}
}

func opClearItems(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.pop(c)
	var sub []stackitem.Item
	switch x := e.it.(type) {
	case *stackitem.Array:
		sub = append(sub, x.Items()...)
		v.check(x.Clear())
	case *stackitem.Map:
		for _, el := range x.Elements() {
			sub = append(sub, el.Key)
		}
		for _, el := range x.Elements() {
			sub = append(sub, el.Value)
		}
		v.check(x.Clear())
	default:
		v.fail(faultf(ErrInvalidType, "CLEARITEMS: invalid type"))
	}
	if v.rc.IsReferenced(e.it) {
		for _, it := range sub {
			v.rc.Remove(it)
		}
	}
}

func opPopItem(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.pop(c)
	a, ok := e.it.(*stackitem.Array)
	if !ok {
		v.fail(faultf(ErrInvalidType, "POPITEM: not of underlying type Array"))
	}
	if a.Len() == 0 {
		v.fail(faultf(ErrOutOfRange, "runtime error: index out of range [-1]"))
	}
	item := a.At(a.Len() - 1)
	c.sh.estack.push(itemElem(item))
	v.check(a.RemoveAt(a.Len() - 1))
	if v.rc.IsReferenced(a) {
		v.rc.Remove(item)
	}
}

// outOfRange is the message of the exception a bad index throws (the
// reference Go node's wording).
func outOfRange(idx int64, b *big.Int) string {
	if b != nil {
		return "The value " + b.String() + " is out of range."
	}
	return "The value " + strconv.FormatInt(idx, 10) + " is out of range."
}

// neoGoTypeName is the reference Go node's name of it's type in its
// messages (its item's String).
func neoGoTypeName(it stackitem.Item) string {
	switch it.Type() {
	case stackitem.AnyT:
		return "Null"
	case stackitem.IntegerT:
		return "BigInteger"
	}
	return it.Type().String()
}
