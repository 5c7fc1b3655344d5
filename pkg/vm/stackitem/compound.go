package stackitem

import (
	"fmt"
	"math/big"
	"strconv"
)

// Array is the Array item, or the Struct item when created by NewStruct.
// Struct is a value type for the VM (it is cloned when stored) and compares
// by value; Array compares by identity.
type Array struct {
	items    []Item
	refs     int // stack references, maintained by RefCounter
	readOnly bool
	isStruct bool
}

// NewArray returns an Array holding items (not copied).
func NewArray(items []Item) *Array { return &Array{items: items} }

// MakeArray returns an Array (a Struct if isStruct) of n nil items for
// the caller to fill before use; a small one comes in one allocation with
// its storage.
func MakeArray(n int, isStruct bool) *Array {
	if n <= smallArrayLen {
		x := &smallArray{}
		x.a.items, x.a.isStruct = x.buf[:n], isStruct
		return &x.a
	}
	return &Array{items: make([]Item, n), isStruct: isStruct}
}

const smallArrayLen = 4

type smallArray struct {
	a   Array
	buf [smallArrayLen]Item
}

// NewStruct returns a Struct holding items (not copied).
func NewStruct(items []Item) *Array { return &Array{items: items, isStruct: true} }

// Type implements Item.
func (a *Array) Type() Type {
	if a.isStruct {
		return StructT
	}
	return ArrayT
}

// IsStruct reports whether a is a Struct.
func (a *Array) IsStruct() bool { return a.isStruct }

// Bool implements Item: always true.
func (*Array) Bool() (bool, error) { return true, nil }

// BigInt implements Item: invalid cast.
func (a *Array) BigInt() (*big.Int, error) {
	return nil, castError(a.Type().String(), IntegerT)
}

// Bytes implements Item: invalid cast.
func (a *Array) Bytes() ([]byte, error) {
	return nil, castError(a.Type().String(), ByteArrayT)
}

// Equals implements Item: identity for Array, value comparison within the
// default limits for Struct.
func (a *Array) Equals(o Item) bool {
	if !a.isStruct {
		return Item(a) == o
	}
	eq, err := EqualsLimited(a, o, MaxClonableItems, MaxComparableSize)
	return err == nil && eq
}

// String implements Item.
func (a *Array) String() string { return a.Type().String() + "[" + strconv.Itoa(len(a.items)) + "]" }

// Len is the number of elements.
func (a *Array) Len() int { return len(a.items) }

// Items returns the elements; callers must not modify the slice.
func (a *Array) Items() []Item { return a.items }

// At returns element i.
func (a *Array) At(i int) Item { return a.items[i] }

// ReadOnly reports whether a was made immutable (DeepCopy asImmutable).
func (a *Array) ReadOnly() bool { return a.readOnly }

// Set replaces element i.
func (a *Array) Set(i int, it Item) error {
	if a.readOnly {
		return ErrReadOnly
	}
	a.items[i] = it
	return nil
}

// Append adds it at the end.
func (a *Array) Append(it Item) error {
	if a.readOnly {
		return ErrReadOnly
	}
	a.items = append(a.items, it)
	return nil
}

// RemoveAt deletes element i.
func (a *Array) RemoveAt(i int) error {
	if a.readOnly {
		return ErrReadOnly
	}
	copy(a.items[i:], a.items[i+1:])
	a.items[len(a.items)-1] = nil
	a.items = a.items[:len(a.items)-1]
	return nil
}

// Reverse reverses the elements in place.
func (a *Array) Reverse() error {
	if a.readOnly {
		return ErrReadOnly
	}
	for i, j := 0, len(a.items)-1; i < j; i, j = i+1, j-1 {
		a.items[i], a.items[j] = a.items[j], a.items[i]
	}
	return nil
}

// Clear removes all elements.
func (a *Array) Clear() error {
	if a.readOnly {
		return ErrReadOnly
	}
	clear(a.items)
	a.items = a.items[:0]
	return nil
}

// Clone copies a Struct the way the reference does when a Struct is
// stored: nested Structs are copied, other items shared. At most limit-1
// items are visited (limit is MaxStackSize in the VM).
func (a *Array) Clone(limit int) (*Array, error) {
	count := limit - 1
	res := &Array{isStruct: true}
	type pair struct{ dst, src *Array }
	queue := []pair{{res, a}}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		p.dst.items = make([]Item, 0, len(p.src.items))
		for _, it := range p.src.items {
			count--
			if count < 0 {
				return nil, ErrTooManyItems
			}
			if s, ok := it.(*Array); ok && s.isStruct {
				n := &Array{isStruct: true}
				p.dst.items = append(p.dst.items, n)
				queue = append(queue, pair{n, s})
				continue
			}
			p.dst.items = append(p.dst.items, it)
		}
	}
	return res, nil
}

// MapElement is one key/value pair of a Map.
type MapElement struct {
	Key   Item
	Value Item
}

// Map is the ordered map item. Keys are primitive items (Boolean, Integer,
// ByteString) compared by type and value.
type Map struct {
	elems    []MapElement
	index    map[string]int // built for large maps only
	refs     int
	readOnly bool
}

const mapIndexThreshold = 16

// NewMap returns an empty Map.
func NewMap() *Map { return &Map{} }

// NewMapWithValue returns a Map of the given pairs (keys must be distinct
// valid keys; the slice is not copied).
func NewMapWithValue(elems []MapElement) *Map {
	m := &Map{elems: elems}
	m.reindex()
	return m
}

// Type implements Item.
func (*Map) Type() Type { return MapT }

// Bool implements Item: always true.
func (*Map) Bool() (bool, error) { return true, nil }

// BigInt implements Item: invalid cast.
func (*Map) BigInt() (*big.Int, error) { return nil, castError("Map", IntegerT) }

// Bytes implements Item: invalid cast.
func (*Map) Bytes() ([]byte, error) { return nil, castError("Map", ByteArrayT) }

// Equals implements Item: identity.
func (m *Map) Equals(o Item) bool { return Item(m) == o }

// String implements Item.
func (m *Map) String() string { return "Map[" + strconv.Itoa(len(m.elems)) + "]" }

// Len is the number of pairs.
func (m *Map) Len() int { return len(m.elems) }

// Elements returns the pairs in insertion order; do not modify.
func (m *Map) Elements() []MapElement { return m.elems }

// ReadOnly reports whether m was made immutable.
func (m *Map) ReadOnly() bool { return m.readOnly }

// keyString is the identity of a key: its type byte and its bytes.
func keyString(k Item) (string, error) {
	if !k.Type().IsPrimitive() {
		return "", ErrInvalidKey
	}
	b, err := k.Bytes()
	if err != nil {
		return "", err
	}
	if len(b) > MaxKeySize {
		return "", fmt.Errorf("%w: %d bytes", ErrKeyTooBig, len(b))
	}
	return string(rune(k.Type())) + string(b), nil
}

// CheckKey validates k as a map key (primitive, at most 64 bytes).
func CheckKey(k Item) error {
	var n int
	switch x := k.(type) {
	case *Integer:
		n = x.Size()
	case Bool:
		n = 1
	case ByteString:
		n = len(x)
	default:
		return ErrInvalidKey
	}
	if n > MaxKeySize {
		return fmt.Errorf("%w: %d bytes", ErrKeyTooBig, n)
	}
	return nil
}

func (m *Map) reindex() {
	if len(m.elems) <= mapIndexThreshold {
		m.index = nil
		return
	}
	m.index = make(map[string]int, len(m.elems))
	for i, e := range m.elems {
		ks, _ := keyString(e.Key) // keys were validated when inserted
		m.index[ks] = i
	}
}

// Index returns the position of key k, or -1.
func (m *Map) Index(k Item) (int, error) {
	if m.index == nil {
		if err := CheckKey(k); err != nil {
			return -1, err
		}
	} else {
		ks, err := keyString(k)
		if err != nil {
			return -1, err
		}
		if i, ok := m.index[ks]; ok {
			return i, nil
		}
		return -1, nil
	}
	for i, e := range m.elems {
		if e.Key.Equals(k) { // primitives: same type and value
			return i, nil
		}
	}
	return -1, nil
}

// Get returns the value for k.
func (m *Map) Get(k Item) (Item, bool, error) {
	i, err := m.Index(k)
	if err != nil || i < 0 {
		return nil, false, err
	}
	return m.elems[i].Value, true, nil
}

// Add sets k to v, keeping the position of an existing key.
func (m *Map) Add(k, v Item) error {
	i, err := m.Index(k)
	if err != nil {
		return err
	}
	if m.readOnly {
		return ErrReadOnly
	}
	if i >= 0 {
		m.elems[i].Value = v
		return nil
	}
	m.elems = append(m.elems, MapElement{Key: k, Value: v})
	if m.index != nil {
		ks, _ := keyString(k)
		m.index[ks] = len(m.elems) - 1
	} else if len(m.elems) > mapIndexThreshold {
		m.reindex()
	}
	return nil
}

// Drop removes key k and returns its former index and value (index -1 when
// absent).
func (m *Map) Drop(k Item) (int, Item, error) {
	if err := CheckKey(k); err != nil {
		return -1, nil, err
	}
	if m.readOnly {
		return -1, nil, ErrReadOnly
	}
	i, err := m.Index(k)
	if err != nil || i < 0 {
		return -1, nil, err
	}
	old := m.elems[i].Value
	copy(m.elems[i:], m.elems[i+1:])
	m.elems[len(m.elems)-1] = MapElement{}
	m.elems = m.elems[:len(m.elems)-1]
	if m.index != nil {
		m.reindex()
	}
	return i, old, nil
}

// Clear removes all pairs.
func (m *Map) Clear() error {
	if m.readOnly {
		return ErrReadOnly
	}
	clear(m.elems)
	m.elems = m.elems[:0]
	m.index = nil
	return nil
}
