package stackitem

import (
	"bytes"
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
)

// EqualsLimited is the reference VM equality used by EQUAL/NOTEQUAL: Struct
// compares by value within maxItems items and maxComparable bytes,
// ByteString fails when an operand exceeds maxComparable.
func EqualsLimited(a, b Item, maxItems, maxComparable int) (bool, error) {
	switch x := a.(type) {
	case ByteString:
		limit := maxComparable
		return byteStringEquals(x, b, &limit)
	case *Array:
		if x.isStruct {
			return structEquals(x, b, maxItems, maxComparable)
		}
	}
	return a.Equals(b), nil
}

func byteStringEquals(s ByteString, o Item, limit *int) (bool, error) {
	if len(s) > *limit || *limit == 0 {
		return false, fmt.Errorf("%w: %d/%d", ErrComparable, len(s), *limit)
	}
	compared := 1
	defer func() { *limit -= compared }()
	b, ok := o.(ByteString)
	if !ok {
		return false, nil
	}
	compared = max(len(s), len(b), 1)
	if len(b) > *limit {
		return false, fmt.Errorf("%w: %d/%d", ErrComparable, len(b), *limit)
	}
	return bytes.Equal(s, b), nil
}

func structEquals(s *Array, o Item, maxItems, maxComparable int) (bool, error) {
	other, ok := o.(*Array)
	if !ok || !other.isStruct {
		return false, nil
	}
	st1 := []Item{s}
	st2 := []Item{other}
	count, limit := maxItems, maxComparable
	for len(st1) > 0 {
		if count == 0 {
			return false, fmt.Errorf("%w: struct comparison", ErrTooManyItems)
		}
		count--
		a, b := st1[len(st1)-1], st2[len(st2)-1]
		st1, st2 = st1[:len(st1)-1], st2[:len(st2)-1]
		if bs, ok := a.(ByteString); ok {
			eq, err := byteStringEquals(bs, b, &limit)
			if err != nil || !eq {
				return false, err
			}
			continue
		}
		if limit == 0 {
			return false, fmt.Errorf("%w: struct comparison", ErrComparable)
		}
		limit--
		sa, ok := a.(*Array)
		if !ok || !sa.isStruct {
			if !a.Equals(b) {
				return false, nil
			}
			continue
		}
		if a == b {
			continue
		}
		sb, ok := b.(*Array)
		if !ok || !sb.isStruct || len(sa.items) != len(sb.items) {
			return false, nil
		}
		st1 = append(st1, sa.items...)
		st2 = append(st2, sb.items...)
	}
	return true, nil
}

// ConvertTo is the reference ConvertTo (the CONVERT opcode).
func ConvertTo(it Item, t Type) (Item, error) {
	if _, ok := it.(Null); ok {
		if t == AnyT || !t.IsValid() {
			return nil, castError("Null", t)
		}
		return it, nil
	}
	if it.Type() == t {
		return it, nil
	}
	switch x := it.(type) {
	case *Integer, Bool, ByteString:
		switch t {
		case IntegerT:
			v, err := x.BigInt()
			if err != nil {
				return nil, err
			}
			return NewBigIntegerChecked(new(big.Int).Set(v))
		case ByteArrayT:
			b, err := x.Bytes()
			return ByteString(b), err
		case BufferT:
			b, err := x.Bytes()
			return NewBuffer(bytes.Clone(b)), err
		}
	case *Buffer:
		switch t {
		case IntegerT:
			if len(x.b) > MaxIntegerSize {
				return nil, errTooBigInteger
			}
			return NewBigInteger(bigint.FromBytes(x.b)), nil
		case ByteArrayT:
			return ByteString(bytes.Clone(x.b)), nil
		}
	case *Array:
		if t == StructT || t == ArrayT {
			items := make([]Item, len(x.items))
			copy(items, x.items)
			return &Array{items: items, isStruct: t == StructT}, nil
		}
	}
	if t == BooleanT {
		b, err := it.Bool()
		return Bool(b), err
	}
	return nil, castError(itemName(it), t)
}

// NewImmutableArray is DeepCopy(NewArray(items), true) for items that hold
// no compound and no Buffer (so the copy would share every item): a
// read-only Array over items, which it takes over; ok is false, and nothing
// is made, when an item is a compound or a Buffer.
func NewImmutableArray(items []Item) (a *Array, ok bool) {
	for _, it := range items {
		switch it.(type) {
		case *Array, *Map, *Buffer:
			return nil, false
		}
	}
	return &Array{items: items, readOnly: true}, true
}

// DeepCopy copies compound items recursively (keeping shared references
// shared); with asImmutable, compounds become read-only and Buffers become
// ByteStrings.
func DeepCopy(it Item, asImmutable bool) Item {
	return deepCopy(it, map[Item]Item{}, asImmutable)
}

func deepCopy(it Item, seen map[Item]Item, ro bool) Item {
	switch x := it.(type) {
	case *Array:
		if c, ok := seen[x]; ok {
			return c
		}
		res := &Array{isStruct: x.isStruct, items: make([]Item, 0, len(x.items))}
		seen[x] = res
		for _, s := range x.items {
			res.items = append(res.items, deepCopy(s, seen, ro))
		}
		res.readOnly = x.readOnly || ro
		return res
	case *Map:
		if c, ok := seen[x]; ok {
			return c
		}
		res := &Map{elems: make([]MapElement, 0, len(x.elems))}
		seen[x] = res
		for _, e := range x.elems {
			res.elems = append(res.elems, MapElement{Key: e.Key, Value: deepCopy(e.Value, seen, ro)})
		}
		res.reindex()
		res.readOnly = x.readOnly || ro
		return res
	case *Buffer:
		if c, ok := seen[x]; ok {
			return c
		}
		var res Item
		if ro {
			res = ByteString(bytes.Clone(x.b))
		} else {
			res = NewBuffer(bytes.Clone(x.b))
		}
		seen[x] = res
		return res
	}
	return it
}
