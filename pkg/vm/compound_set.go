package vm

import (
	"fmt"

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
			v.throwString(fmt.Sprintf("The index of VMArray is out of range, %s/[0, %d).", key, x.Len()))
			return
		}
		c.sh.estack.push(itemElem(x.At(int(idx))))
	case *stackitem.Map:
		val, ok, err := x.Get(key)
		v.check(err)
		if !ok {
			v.throwString(fmt.Sprintf("Key %s not found in Map.", key))
			return
		}
		c.sh.estack.push(itemElem(val))
	case *stackitem.Buffer, stackitem.ByteString, stackitem.Bool, *stackitem.Integer, nil:
		data := v.bytesOf(e)
		idx, b := v.index(key)
		if !inRange(idx, b, len(data)) {
			v.throwString(fmt.Sprintf("The index of %s is out of range, %s/[0, %d).", e.item().Type(), key, len(data)))
			return
		}
		c.sh.estack.pushInt(int64(data[idx]))
	default:
		v.fail(fmt.Errorf("%w: PICKITEM on %s", ErrInvalidType, e.it.Type()))
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
		v.fail(fmt.Errorf("%w: APPEND needs an Array or Struct", ErrInvalidType))
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
			v.throwString(fmt.Sprintf("The index of VMArray is out of range, %s/[0, %d).", key, x.Len()))
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
			v.throwString(fmt.Sprintf("The index of Buffer is out of range, %s/[0, %d).", key, x.Len()))
			return
		}
		if !value.Type().IsPrimitive() {
			v.fail(fmt.Errorf("%w: only primitive values can be set in a Buffer", ErrInvalidType))
		}
		n, bi := v.intOf(itemElem(value))
		if bi != nil || n < -128 || n > 255 {
			v.fail(fmt.Errorf("%w: %s is not a byte", ErrOutOfRange, value))
		}
		data, _ := x.Bytes() // a Buffer always has bytes
		data[idx] = byte(n)
	default:
		v.fail(fmt.Errorf("%w: SETITEM on %s", ErrInvalidType, e.item().Type()))
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
		v.fail(fmt.Errorf("%w: REVERSEITEMS on %s", ErrInvalidType, e.item().Type()))
	}
}

func opRemove(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	key := v.primitive(v.pop(c))
	e := v.pop(c)
	switch x := e.it.(type) {
	case *stackitem.Array:
		idx, b := v.index(key)
		if !inRange(idx, b, x.Len()) {
			v.fail(fmt.Errorf("%w: REMOVE index %s/[0, %d)", ErrOutOfRange, key, x.Len()))
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
		v.fail(fmt.Errorf("%w: REMOVE on %s", ErrInvalidType, e.item().Type()))
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
		v.fail(fmt.Errorf("%w: CLEARITEMS on %s", ErrInvalidType, e.item().Type()))
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
		v.fail(fmt.Errorf("%w: POPITEM needs an Array or Struct", ErrInvalidType))
	}
	if a.Len() == 0 {
		v.fail(fmt.Errorf("%w: POPITEM on an empty array", ErrOutOfRange))
	}
	item := a.At(a.Len() - 1)
	c.sh.estack.push(itemElem(item))
	v.check(a.RemoveAt(a.Len() - 1))
	if v.rc.IsReferenced(a) {
		v.rc.Remove(item)
	}
}
