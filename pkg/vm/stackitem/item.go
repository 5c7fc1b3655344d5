package stackitem

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"math/big"
	"strconv"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
)

// Limits of the reference VM that apply to single items.
const (
	// MaxIntegerSize is the largest Integer in bytes (two's complement).
	MaxIntegerSize = 32
	// MaxSize is the reference MaxItemSize (ushort.MaxValue * 2).
	MaxSize = 65535 * 2
	// MaxComparableSize bounds the bytes compared by one EQUAL.
	MaxComparableSize = 65536
	// MaxKeySize is the largest map key in bytes.
	MaxKeySize = 64
	// MaxClonableItems is the reference MaxStackSize, which also bounds
	// Struct cloning and Struct comparison.
	MaxClonableItems = 2048
)

// Errors returned by item operations. The VM turns them into FAULTs.
var (
	ErrInvalidCast    = errors.New("stackitem: invalid cast")
	ErrIntegerTooBig  = errors.New("stackitem: integer exceeds 32 bytes")
	ErrReadOnly       = errors.New("stackitem: item is read-only")
	ErrKeyTooBig      = errors.New("stackitem: map key exceeds 64 bytes")
	ErrInvalidKey     = errors.New("stackitem: map key must be a primitive item")
	ErrComparable     = errors.New("stackitem: operand exceeds the maximum comparable size")
	ErrTooManyItems   = errors.New("stackitem: too many struct items")
	ErrInvalidUTF8    = errors.New("stackitem: invalid UTF-8 string")
	ErrInvalidType    = errors.New("stackitem: invalid type")
	ErrUnsupportedArg = errors.New("stackitem: unsupported value")
)

// Item is a NeoVM stack item. Implementations are the types of this
// package: Null, Bool, *Integer, ByteString, *Buffer, *Pointer, *Array
// (Array and Struct), *Map and *Interop.
type Item interface {
	// Type is the reference StackItemType.
	Type() Type
	// Bool is the reference GetBoolean.
	Bool() (bool, error)
	// BigInt is the reference GetInteger. The result must not be modified.
	BigInt() (*big.Int, error)
	// Bytes is the reference GetSpan. For a Buffer it is the live buffer.
	Bytes() ([]byte, error)
	// Equals is the reference equality without comparison limits.
	Equals(other Item) bool
	// String is a human-readable form (not part of any format).
	String() string
}

// Null is the null item.
type Null struct{}

// Type implements Item.
func (Null) Type() Type { return AnyT }

// Bool implements Item: null is false.
func (Null) Bool() (bool, error) { return false, nil }

// BigInt implements Item: null is not an integer.
func (Null) BigInt() (*big.Int, error) { return nil, castError("Null", IntegerT) }

// Bytes implements Item: null has no bytes.
func (Null) Bytes() ([]byte, error) { return nil, castError("Null", ByteArrayT) }

// Equals implements Item.
func (Null) Equals(o Item) bool { _, ok := o.(Null); return ok }

// String implements Item.
func (Null) String() string { return "NULL" }

// Bool is the Boolean item.
type Bool bool

// Type implements Item.
func (Bool) Type() Type { return BooleanT }

// Bool implements Item.
func (b Bool) Bool() (bool, error) { return bool(b), nil }

// BigInt implements Item: true is 1, false is 0.
func (b Bool) BigInt() (*big.Int, error) {
	if b {
		return big.NewInt(1), nil
	}
	return new(big.Int), nil
}

// Bytes implements Item: [1] or [0].
func (b Bool) Bytes() ([]byte, error) {
	if b {
		return []byte{1}, nil
	}
	return []byte{0}, nil
}

// Equals implements Item.
func (b Bool) Equals(o Item) bool { x, ok := o.(Bool); return ok && x == b }

// String implements Item.
func (b Bool) String() string { return strconv.FormatBool(bool(b)) }

// ByteString is the immutable byte string item.
type ByteString []byte

// Type implements Item.
func (ByteString) Type() Type { return ByteArrayT }

// Bool implements Item: true if any byte is non-zero; longer than 32 bytes
// is an invalid cast.
func (s ByteString) Bool() (bool, error) {
	if len(s) > MaxIntegerSize {
		return false, errTooBigInteger
	}
	for _, c := range s {
		if c != 0 {
			return true, nil
		}
	}
	return false, nil
}

// BigInt implements Item.
func (s ByteString) BigInt() (*big.Int, error) {
	if len(s) > MaxIntegerSize {
		return nil, errTooBigInteger
	}
	return bigint.FromBytes(s), nil
}

// Bytes implements Item.
func (s ByteString) Bytes() ([]byte, error) { return s, nil }

// Equals implements Item.
func (s ByteString) Equals(o Item) bool {
	x, ok := o.(ByteString)
	return ok && bytes.Equal(s, x)
}

// String implements Item.
func (s ByteString) String() string {
	if utf8.Valid(s) {
		return strconv.Quote(string(s))
	}
	return "0x" + hex.EncodeToString(s)
}

// Buffer is the mutable byte buffer item; it compares by identity.
type Buffer struct{ b []byte }

// NewBuffer wraps b (not copied).
func NewBuffer(b []byte) *Buffer { return &Buffer{b: b} }

// MakeBuffer returns a Buffer of n zero bytes; a small one comes in one
// allocation with its bytes.
func MakeBuffer(n int) *Buffer {
	if n <= smallBufferLen {
		x := &smallBuffer{}
		x.buf.b = x.data[:n:n]
		return &x.buf
	}
	return &Buffer{b: make([]byte, n)}
}

const smallBufferLen = 40 // a prefix and a hash, a typical storage key

type smallBuffer struct {
	buf  Buffer
	data [smallBufferLen]byte
}

// Type implements Item.
func (*Buffer) Type() Type { return BufferT }

// Bool implements Item: always true.
func (*Buffer) Bool() (bool, error) { return true, nil }

// BigInt implements Item: a Buffer is not an integer (use ConvertTo).
func (*Buffer) BigInt() (*big.Int, error) {
	return nil, castError("Buffer", IntegerT)
}

// Bytes implements Item: the live buffer.
func (b *Buffer) Bytes() ([]byte, error) { return b.b, nil }

// Len is the buffer size.
func (b *Buffer) Len() int { return len(b.b) }

// Equals implements Item: identity.
func (b *Buffer) Equals(o Item) bool { return Item(b) == o }

// String implements Item.
func (b *Buffer) String() string { return "Buffer(0x" + hex.EncodeToString(b.b) + ")" }

// Script is one loaded instance of a script. Pointers compare their
// scripts by identity, as the reference does.
type Script struct{ b []byte }

// NewScript wraps b (not copied) as a new script instance.
func NewScript(b []byte) *Script { return &Script{b: b} }

// MakeScript is NewScript for a Script embedded in a larger structure
// (one allocation instead of two). Its identity is its address: use it
// only through a pointer and never copy it after that.
func MakeScript(b []byte) Script { return Script{b: b} }

// Bytes returns the script bytes.
func (s *Script) Bytes() []byte { return s.b }

// Pointer is a position in a script.
type Pointer struct {
	pos    int
	script *Script
}

// NewPointer returns a pointer to pos in script.
func NewPointer(pos int, script *Script) *Pointer { return &Pointer{pos: pos, script: script} }

// Type implements Item.
func (*Pointer) Type() Type { return PointerT }

// Position is the target offset.
func (p *Pointer) Position() int { return p.pos }

// Script is the script instance the pointer belongs to.
func (p *Pointer) Script() *Script { return p.script }

// Bool implements Item: always true.
func (*Pointer) Bool() (bool, error) { return true, nil }

// BigInt implements Item: invalid cast.
func (*Pointer) BigInt() (*big.Int, error) {
	return nil, castError("Pointer", IntegerT)
}

// Bytes implements Item: invalid cast.
func (*Pointer) Bytes() ([]byte, error) {
	return nil, castError("Pointer", ByteArrayT)
}

// Equals implements Item: same position in the same script instance.
func (p *Pointer) Equals(o Item) bool {
	x, ok := o.(*Pointer)
	return ok && x.pos == p.pos && x.script == p.script
}

// String implements Item.
func (p *Pointer) String() string { return "Pointer(" + strconv.Itoa(p.pos) + ")" }

// Interop wraps a host value (iterators, storage contexts, …).
type Interop struct{ v any }

// NewInterop wraps v.
func NewInterop(v any) *Interop { return &Interop{v: v} }

// Type implements Item.
func (*Interop) Type() Type { return InteropT }

// Value is the wrapped value.
func (i *Interop) Value() any { return i.v }

// Bool implements Item: always true.
func (*Interop) Bool() (bool, error) { return true, nil }

// BigInt implements Item: invalid cast.
func (*Interop) BigInt() (*big.Int, error) {
	return nil, castError("InteropInterface", IntegerT)
}

// Bytes implements Item: invalid cast.
func (*Interop) Bytes() ([]byte, error) {
	return nil, castError("InteropInterface", ByteArrayT)
}

// Equals implements Item: identity or equal wrapped values.
func (i *Interop) Equals(o Item) bool {
	x, ok := o.(*Interop)
	if !ok {
		return false
	}
	return x == i || safeEqual(i.v, x.v)
}

func safeEqual(a, b any) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return a == b
}

// String implements Item.
func (i *Interop) String() string { return fmt.Sprintf("Interop(%T)", i.v) }

// String returns the strict UTF-8 string of a primitive or Buffer item;
// Null gives "" and ok == false.
func ToString(it Item) (string, error) {
	if _, ok := it.(Null); ok {
		return "", nil
	}
	b, err := it.Bytes()
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", ErrInvalidUTF8
	}
	return string(b), nil
}
