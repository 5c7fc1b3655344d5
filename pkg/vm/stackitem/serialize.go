package stackitem

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
)

// Serialization errors.
var (
	ErrFormat          = errors.New("stackitem: invalid serialized data")
	ErrNotSerializable = errors.New("stackitem: item is not serializable")
	ErrTooLarge        = errors.New("stackitem: serialized data too large")
)

// Serialize is the reference BinarySerializer.Serialize with the default
// VM limits (MaxItemSize bytes, MaxClonableItems items).
func Serialize(it Item) ([]byte, error) { return SerializeLimited(it, MaxSize, MaxClonableItems) }

// SerializeLimited serializes it: a type byte, then a var-bytes payload
// for Integer/ByteString/Buffer, one byte for Boolean, a var-int count and
// the elements for Array/Struct/Map. Pointers, interops and compounds met
// twice (shared or cyclic) are not serializable.
func SerializeLimited(it Item, maxSize, maxItems int) ([]byte, error) {
	out, _, err := serialize(it, maxSize, maxItems, true)
	return out, err
}

// SerializedSize is the length SerializeLimited would produce, with the
// same errors, computed without building the bytes (the reference's size
// checks of notification states use it).
func SerializedSize(it Item, maxSize, maxItems int) (int, error) {
	_, n, err := serialize(it, maxSize, maxItems, false)
	return n, err
}

// serialize walks it in serialization order, counting the size and, if
// write, appending the bytes.
func serialize(it Item, maxSize, maxItems int, write bool) ([]byte, int, error) {
	var (
		out      []byte
		size     int
		pendBuf  [16]Item
		pending  = append(pendBuf[:0], it)
		seen     compoundSet
		countBuf [9]byte
	)
	for len(pending) > 0 {
		if maxItems--; maxItems < 0 {
			return nil, 0, fmt.Errorf("%w: too many items", ErrTooLarge)
		}
		it = pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		size++
		if write {
			out = append(out, byte(it.Type()))
		}
		count := -1 // elements of a compound
		switch x := it.(type) {
		case Null:
		case Bool:
			size++
			if write {
				out = append(out, boolByte(bool(x)))
			}
		case *Integer, ByteString, *Buffer:
			if !write {
				n := itemSize(x)
				size += len(appendVarUint(countBuf[:0], uint64(n))) + n
				break
			}
			b, _ := x.Bytes() // these types always have bytes
			n := len(out)
			out = appendVarBytes(out, b)
			size += len(out) - n
		case *Array:
			if !seen.add(x) {
				return nil, 0, fmt.Errorf("%w: repeated compound", ErrNotSerializable)
			}
			count = x.Len()
			for i := count - 1; i >= 0; i-- {
				pending = append(pending, x.items[i])
			}
		case *Map:
			if !seen.add(x) {
				return nil, 0, fmt.Errorf("%w: repeated compound", ErrNotSerializable)
			}
			count = x.Len()
			for i := count - 1; i >= 0; i-- {
				pending = append(pending, x.elems[i].Value, x.elems[i].Key)
			}
		default:
			return nil, 0, fmt.Errorf("%w: %s", ErrNotSerializable, it.Type())
		}
		if count >= 0 {
			c := appendVarUint(countBuf[:0], uint64(count))
			size += len(c)
			if write {
				out = append(out, c...)
			}
		}
		if size > maxSize {
			return nil, 0, fmt.Errorf("%w: %d bytes", ErrTooLarge, size)
		}
	}
	return out, size, nil
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// itemSize is the byte length of a primitive or Buffer without copying.
func itemSize(it Item) int {
	switch x := it.(type) {
	case *Integer:
		return x.Size()
	case ByteString:
		return len(x)
	case *Buffer:
		return len(x.b)
	}
	return 0
}

// compoundSet remembers the compounds met during a walk: a few inline,
// more in a map.
type compoundSet struct {
	small [8]Item
	n     int
	more  map[Item]struct{}
}

// add reports false if it was already there.
func (s *compoundSet) add(it Item) bool {
	for i := range s.n {
		if s.small[i] == it {
			return false
		}
	}
	if _, ok := s.more[it]; ok {
		return false
	}
	if s.n < len(s.small) {
		s.small[s.n] = it
		s.n++
		return true
	}
	if s.more == nil {
		s.more = make(map[Item]struct{})
	}
	s.more[it] = struct{}{}
	return true
}

func appendVarUint(b []byte, v uint64) []byte {
	switch {
	case v < 0xfd:
		return append(b, byte(v))
	case v <= 0xffff:
		return binary.LittleEndian.AppendUint16(append(b, 0xfd), uint16(v))
	case v <= 0xffffffff:
		return binary.LittleEndian.AppendUint32(append(b, 0xfe), uint32(v))
	}
	return binary.LittleEndian.AppendUint64(append(b, 0xff), v)
}

func appendVarBytes(b, data []byte) []byte {
	return append(appendVarUint(b, uint64(len(data))), data...)
}

// reader is the reference MemoryReader subset the deserializer needs.
type reader struct {
	b   []byte
	pos int
}

func (r *reader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errEOF
	}
	r.pos++
	return r.b[r.pos-1], nil
}

func (r *reader) bytes(n uint64) ([]byte, error) {
	if n > uint64(len(r.b)-r.pos) {
		if r.pos == len(r.b) {
			return nil, errEOF
		}
		return nil, errUnexpectedEOF
	}
	out := r.b[r.pos : r.pos+int(n)]
	r.pos += int(n)
	return out, nil
}

func (r *reader) varUint(max uint64) (uint64, error) {
	p, err := r.byte()
	if err != nil {
		return 0, err
	}
	v := uint64(p)
	if n := map[byte]uint64{0xfd: 2, 0xfe: 4, 0xff: 8}[p]; n != 0 {
		b, err := r.bytes(n)
		if err != nil {
			return 0, err
		}
		var buf [8]byte
		copy(buf[:], b)
		v = binary.LittleEndian.Uint64(buf[:])
	}
	if v > max {
		return 0, fmt.Errorf("%w: var-int %d over %d", ErrFormat, v, max)
	}
	return v, nil
}

// Deserialize is the reference BinarySerializer.Deserialize with the
// default VM limits. Trailing bytes are ignored, as in the reference.
func Deserialize(data []byte) (Item, error) {
	return DeserializeLimited(data, min(len(data), MaxSize), MaxClonableItems)
}

type placeholder struct {
	t     Type
	count int
}

// DeserializeLimited decodes one item with at most maxItems items and
// byte strings of at most maxSize bytes.
func DeserializeLimited(data []byte, maxSize, maxItems int) (Item, error) {
	r := &reader{b: data}
	var flat []any // Item or placeholder, in stream order
	for undone := 1; undone > 0; undone-- {
		x, extra, err := r.item(maxSize, maxItems)
		if err != nil {
			return nil, err
		}
		flat = append(flat, x)
		undone += extra
		if len(flat) > maxItems {
			return nil, fmt.Errorf("%w: too many items", ErrFormat)
		}
	}
	var built []Item
	for i := len(flat) - 1; i >= 0; i-- {
		p, ok := flat[i].(placeholder)
		if !ok {
			built = append(built, flat[i].(Item))
			continue
		}
		it, err := p.build(&built)
		if err != nil {
			return nil, err
		}
		built = append(built, it)
	}
	return built[len(built)-1], nil
}

// item reads one item header; compounds become placeholders and extra is
// the number of items still to read for them.
func (r *reader) item(maxSize, maxItems int) (any, int, error) {
	t, err := r.byte()
	if err != nil {
		return nil, 0, err
	}
	switch Type(t) {
	case AnyT:
		return Null{}, 0, nil
	case BooleanT:
		b, err := r.byte()
		if err == nil && b > 1 {
			err = fmt.Errorf("%w: invalid boolean %d", ErrFormat, b)
		}
		return Bool(b == 1), 0, err
	case IntegerT, ByteArrayT, BufferT:
		max := uint64(maxSize)
		if Type(t) == IntegerT {
			max = MaxIntegerSize
		}
		n, err := r.varUint(max)
		if err != nil {
			return nil, 0, err
		}
		b, err := r.bytes(n)
		if err != nil {
			return nil, 0, err
		}
		switch Type(t) {
		case IntegerT:
			return NewBigInteger(bigint.FromBytes(b)), 0, nil
		case BufferT:
			return NewBuffer(append([]byte(nil), b...)), 0, nil
		}
		return ByteString(append([]byte(nil), b...)), 0, nil
	case ArrayT, StructT, MapT:
		n, err := r.varUint(uint64(maxItems))
		if err != nil {
			return nil, 0, err
		}
		extra := int(n)
		if Type(t) == MapT {
			extra *= 2
		}
		return placeholder{t: Type(t), count: int(n)}, extra, nil
	}
	name := "INVALID"
	if Type(t).IsValid() {
		name = Type(t).String()
	}
	return nil, 0, &textError{kind: ErrFormat, text: "invalid type: " + name} // the reference's wording
}

// build pops the placeholder's elements (last built first) from built.
func (p placeholder) build(built *[]Item) (Item, error) {
	pop := func() Item {
		s := *built
		it := s[len(s)-1]
		*built = s[:len(s)-1]
		return it
	}
	if p.t == MapT {
		m := NewMap()
		for range p.count {
			k := pop()
			v := pop()
			if err := m.Add(k, v); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrFormat, err)
			}
		}
		return m, nil
	}
	items := make([]Item, p.count)
	for i := range items {
		items[i] = pop()
	}
	if p.t == StructT {
		return NewStruct(items), nil
	}
	return NewArray(items), nil
}
