package stackitem

// textError is an error of a sentinel kind (errors.Is) worded as the
// reference Go node words it, since such texts end up in FAULT exceptions.
type textError struct {
	kind error
	text string
}

func (e *textError) Error() string { return e.text }
func (e *textError) Unwrap() error { return e.kind }

// errTooBigInteger is an integer over 32 bytes.
var errTooBigInteger error = &textError{kind: ErrIntegerTooBig, text: "too big: integer"}

// castError is an invalid conversion of an item named from to type to.
func castError(from string, to Type) error {
	name := "INVALID"
	if to.IsValid() {
		name = to.String()
	}
	return &textError{kind: ErrInvalidCast, text: "invalid conversion: " + from + "/" + name}
}

// itemName is the reference Go node's name of the item's type in its
// messages.
func itemName(it Item) string {
	switch it.Type() {
	case AnyT:
		return "Null"
	case IntegerT:
		return "BigInteger"
	}
	return it.Type().String()
}

// Truncated serialized data, worded as the reference's reader (io.EOF when
// nothing is left, io.ErrUnexpectedEOF when a part is).
var (
	errEOF           error = &textError{kind: ErrFormat, text: "EOF"}
	errUnexpectedEOF error = &textError{kind: ErrFormat, text: "unexpected EOF"}
)

// GoType is the Go type of the reference Go node's item of it's type, as
// its runtime panics name it in FAULT texts ("*stackitem.BigInteger").
func GoType(it Item) string {
	switch it.Type() {
	case AnyT:
		return "stackitem.Null"
	case BooleanT:
		return "stackitem.Bool"
	case IntegerT:
		return "*stackitem.BigInteger"
	case ByteArrayT:
		return "*stackitem.ByteArray"
	case BufferT:
		return "*stackitem.Buffer"
	case ArrayT:
		return "*stackitem.Array"
	case StructT:
		return "*stackitem.Struct"
	case MapT:
		return "*stackitem.Map"
	case InteropT:
		return "*stackitem.Interop"
	}
	return "*stackitem.Pointer"
}
