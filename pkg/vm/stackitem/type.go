package stackitem

import "fmt"

// Type is the reference StackItemType byte.
type Type byte

// Stack item types (values as in neo-vm StackItemType.cs).
const (
	AnyT       Type = 0x00
	PointerT   Type = 0x10
	BooleanT   Type = 0x20
	IntegerT   Type = 0x21
	ByteArrayT Type = 0x28
	BufferT    Type = 0x30
	ArrayT     Type = 0x40
	StructT    Type = 0x41
	MapT       Type = 0x48
	InteropT   Type = 0x60
)

// IsValid reports whether t is a defined type (Any included).
func (t Type) IsValid() bool {
	switch t {
	case AnyT, PointerT, BooleanT, IntegerT, ByteArrayT, BufferT, ArrayT, StructT, MapT, InteropT:
		return true
	}
	return false
}

// IsPrimitive reports whether t is Boolean, Integer or ByteString.
func (t Type) IsPrimitive() bool { return t == BooleanT || t == IntegerT || t == ByteArrayT }

// String returns the reference name of the type.
func (t Type) String() string {
	switch t {
	case AnyT:
		return "Any"
	case PointerT:
		return "Pointer"
	case BooleanT:
		return "Boolean"
	case IntegerT:
		return "Integer"
	case ByteArrayT:
		return "ByteString"
	case BufferT:
		return "Buffer"
	case ArrayT:
		return "Array"
	case StructT:
		return "Struct"
	case MapT:
		return "Map"
	case InteropT:
		return "InteropInterface"
	}
	return fmt.Sprintf("Type(0x%02x)", byte(t))
}
