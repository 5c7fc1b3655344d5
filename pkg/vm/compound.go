package vm

import (
	"fmt"
	"math"
	"math/big"

	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func init() {
	handlers[opcode.PACKMAP] = opPackMap
	handlers[opcode.PACK] = opPack
	handlers[opcode.PACKSTRUCT] = opPack
	handlers[opcode.UNPACK] = opUnpack
	handlers[opcode.NEWARRAY0] = func(_ *VM, c *Context, _ opcode.Opcode, _ []byte) {
		c.sh.estack.push(elem{it: stackitem.NewArray(nil)})
	}
	handlers[opcode.NEWSTRUCT0] = func(_ *VM, c *Context, _ opcode.Opcode, _ []byte) {
		c.sh.estack.push(elem{it: stackitem.NewStruct(nil)})
	}
	handlers[opcode.NEWMAP] = func(_ *VM, c *Context, _ opcode.Opcode, _ []byte) {
		c.sh.estack.push(elem{it: stackitem.NewMap()})
	}
	handlers[opcode.NEWARRAY] = opNewArray
	handlers[opcode.NEWSTRUCT] = opNewArray
	handlers[opcode.NEWARRAY_T] = opNewArray
	handlers[opcode.SIZE] = opSize
	handlers[opcode.HASKEY] = opHasKey
	handlers[opcode.KEYS] = opKeys
	handlers[opcode.VALUES] = opValues
	handlers[opcode.PICKITEM] = opPickItem
	handlers[opcode.APPEND] = opAppend
	handlers[opcode.SETITEM] = opSetItem
	handlers[opcode.REVERSEITEMS] = opReverseItems
	handlers[opcode.REMOVE] = opRemove
	handlers[opcode.CLEARITEMS] = opClearItems
	handlers[opcode.POPITEM] = opPopItem
}

func opPackMap(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	size := v.popInt32(c)
	if size < 0 || size*2 > c.sh.estack.Len() {
		v.fail(faultf(ErrOutOfRange, "invalid length"))
	}
	m := stackitem.NewMap()
	for range size {
		key := v.primitive(v.popNoRef(c))
		val := v.popNoRef(c).item()
		old, ok, err := m.Get(key)
		v.check(err)
		if ok {
			v.rc.Remove(key)
			v.rc.Remove(old)
		}
		v.check(m.Add(key, val))
	}
	v.rc.AdjustOwn(m, 1)
	c.sh.estack.pushCounted(elem{it: m}, 1)
}

func opPack(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	size := v.popInt32(c)
	if size < 0 || size > c.sh.estack.Len() {
		v.fail(faultf(ErrOutOfRange, "OPACK: invalid length"))
	}
	a := stackitem.MakeArray(size, op == opcode.PACKSTRUCT)
	items := a.Items()
	for i := range items {
		items[i] = v.popNoRef(c).item()
	}
	v.rc.AdjustOwn(a, 1)
	c.sh.estack.pushCounted(elem{it: a}, 1)
}

func opUnpack(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.popNoRef(c)
	s := c.sh.estack
	var n int
	switch x := e.it.(type) {
	case *stackitem.Map:
		v.rc.AdjustOwn(x, -1)
		v.rc.Inc(-1)
		ref := v.rc.IsReferenced(x)
		el := x.Elements()
		for i := len(el) - 1; i >= 0; i-- {
			if ref {
				s.push(itemElem(el[i].Value))
				s.pushCounted(itemElem(el[i].Key), 1)
			} else {
				s.pushCounted(itemElem(el[i].Value), 0)
				s.pushCounted(itemElem(el[i].Key), 0)
			}
		}
		n = len(el)
	case *stackitem.Array:
		v.rc.AdjustOwn(x, -1)
		v.rc.Inc(-1)
		ref := v.rc.IsReferenced(x)
		items := x.Items()
		for i := len(items) - 1; i >= 0; i-- {
			if ref {
				s.push(itemElem(items[i]))
			} else {
				s.pushCounted(itemElem(items[i]), 0)
			}
		}
		n = len(items)
	default:
		v.fail(faultf(ErrInvalidType, "element is not an array/struct/map"))
	}
	s.pushInt(int64(n))
}

func opNewArray(v *VM, c *Context, op opcode.Opcode, arg []byte) {
	n := v.popInt32(c)
	if n < 0 || n > v.limits.MaxStackSize {
		v.fail(faultf(ErrOutOfRange, "wrong number of elements"))
	}
	var fill stackitem.Item = stackitem.Null{}
	if op == opcode.NEWARRAY_T {
		t := stackitem.Type(arg[0])
		if !t.IsValid() {
			v.fail(faultf(ErrInvalidType, "invalid stack item type: %d", arg[0]))
		}
		switch t {
		case stackitem.BooleanT:
			fill = stackitem.Bool(false)
		case stackitem.IntegerT:
			fill = stackitem.NewInt(0)
		case stackitem.ByteArrayT:
			fill = stackitem.ByteString{}
		}
	}
	a := stackitem.MakeArray(n, op == opcode.NEWSTRUCT)
	items := a.Items()
	for i := range items {
		items[i] = fill
	}
	v.rc.AdjustOwn(a, 1)
	c.sh.estack.pushCounted(elem{it: a}, n+1)
}

func opSize(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.pop(c)
	var n int
	switch x := e.it.(type) {
	case nil:
		n = stackitem.NewInt(e.n).Size()
	case *stackitem.Array:
		n = x.Len()
	case *stackitem.Map:
		n = x.Len()
	case *stackitem.Integer:
		n = x.Size()
	case stackitem.Bool:
		n = 1
	case stackitem.ByteString:
		n = len(x)
	case *stackitem.Buffer:
		n = x.Len()
	default:
		v.fail(fmt.Errorf("%w: SIZE of %s", ErrInvalidType, e.it.Type()))
	}
	c.sh.estack.pushInt(int64(n))
}

// index converts a key to an index. Before Gorgon the reference cast it
// to int32 (failing outside that range); since Gorgon it stays a big
// integer, so ok is false when it does not fit in int.
func (v *VM) index(key stackitem.Item) (idx int64, big *big.Int) {
	b, err := key.BigInt()
	v.check(err)
	if v.preGorgon && (!b.IsInt64() || b.Int64() < math.MinInt32 || b.Int64() > math.MaxInt32) {
		v.fail(faultf(ErrOutOfRange, "not an int32"))
	}
	if b.IsInt64() {
		return b.Int64(), nil
	}
	return 0, b
}

// inRange reports whether the index is in [0, n).
func inRange(idx int64, b *big.Int, n int) bool { return b == nil && idx >= 0 && idx < int64(n) }

func opHasKey(v *VM, c *Context, op opcode.Opcode, _ []byte) {
	key := v.primitive(v.pop(c))
	e := v.pop(c)
	var n int
	switch x := e.it.(type) {
	case *stackitem.Map:
		_, ok, err := x.Get(key)
		v.check(err)
		c.sh.estack.pushBool(ok)
		return
	case *stackitem.Array:
		n = x.Len()
	case *stackitem.Buffer:
		n = x.Len()
	case stackitem.ByteString:
		n = len(x)
	default:
		v.fail(faultf(ErrInvalidType, "wrong collection type"))
	}
	idx, b := v.index(key)
	if (b != nil && b.Sign() < 0) || idx < 0 {
		v.fail(faultf(ErrOutOfRange, "negative or too large index"))
	}
	if !v.preGorgon && (b != nil || idx >= int64(v.limits.MaxItemSize)) {
		v.fail(faultf(ErrOutOfRange, "negative or too large index"))
	}
	c.sh.estack.pushBool(idx < int64(n))
}

func opKeys(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.pop(c)
	m, ok := e.it.(*stackitem.Map)
	if !ok {
		v.fail(faultf(ErrInvalidType, "not a Map"))
	}
	keys := make([]stackitem.Item, m.Len())
	for i, el := range m.Elements() {
		keys[i] = el.Key
	}
	a := stackitem.NewArray(keys)
	v.rc.AdjustOwn(a, 1)
	c.sh.estack.pushCounted(elem{it: a}, len(keys)+1)
}

func opValues(v *VM, c *Context, _ opcode.Opcode, _ []byte) {
	e := v.popNoRef(c)
	var values []stackitem.Item
	switch x := e.it.(type) {
	case *stackitem.Array:
		v.rc.AdjustOwn(x, -1)
		values = x.Items()
	case *stackitem.Map:
		v.rc.AdjustOwn(x, -1)
		values = make([]stackitem.Item, x.Len())
		for i, el := range x.Elements() {
			values[i] = el.Value
		}
		if !v.rc.IsReferenced(x) {
			v.rc.Inc(-x.Len())
		}
	default:
		v.fail(faultf(ErrInvalidType, "not a Map, Array or Struct"))
	}
	ref := v.rc.IsReferenced(e.it)
	out := make([]stackitem.Item, 0, len(values))
	for _, it := range values {
		cp := it
		if s, ok := it.(*stackitem.Array); ok && s.IsStruct() {
			cl, err := s.Clone(v.limits.MaxStackSize)
			v.check(err)
			cp = cl
			if !ref {
				v.rc.Remove(it)
				v.rc.Add(cp, 1)
			}
		}
		if ref {
			v.rc.Add(cp, 1)
		}
		out = append(out, cp)
	}
	a := stackitem.NewArray(out)
	v.rc.AdjustOwn(a, 1)
	c.sh.estack.pushCounted(elem{it: a}, 0)
}
