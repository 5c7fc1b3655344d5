package smartcontract

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/smartcontract/internal/dotnetenum"
)

// ParamType is the C# reference's ContractParameterType: the declared type
// of a method parameter, return value or event argument.
type ParamType byte

// The parameter types.
const (
	AnyType              ParamType = 0x00
	BoolType             ParamType = 0x10
	IntegerType          ParamType = 0x11
	ByteArrayType        ParamType = 0x12
	StringType           ParamType = 0x13
	Hash160Type          ParamType = 0x14
	Hash256Type          ParamType = 0x15
	PublicKeyType        ParamType = 0x16
	SignatureType        ParamType = 0x17
	ArrayType            ParamType = 0x20
	MapType              ParamType = 0x22
	InteropInterfaceType ParamType = 0x30
	VoidType             ParamType = 0xff
)

// ErrInvalidParamType is returned for a value or a text that is no
// parameter type.
var ErrInvalidParamType = errors.New("smartcontract: invalid parameter type")

var paramTypes = dotnetenum.New([]dotnetenum.Member{
	{Name: "Any", Value: uint64(AnyType)},
	{Name: "Boolean", Value: uint64(BoolType)},
	{Name: "Integer", Value: uint64(IntegerType)},
	{Name: "ByteArray", Value: uint64(ByteArrayType)},
	{Name: "String", Value: uint64(StringType)},
	{Name: "Hash160", Value: uint64(Hash160Type)},
	{Name: "Hash256", Value: uint64(Hash256Type)},
	{Name: "PublicKey", Value: uint64(PublicKeyType)},
	{Name: "Signature", Value: uint64(SignatureType)},
	{Name: "Array", Value: uint64(ArrayType)},
	{Name: "Map", Value: uint64(MapType)},
	{Name: "InteropInterface", Value: uint64(InteropInterfaceType)},
	{Name: "Void", Value: uint64(VoidType)},
}, false, 0xff)

// String returns the reference's name of t ("Hash160"), or its decimal
// value when t is not a defined type.
func (t ParamType) String() string { return paramTypes.Format(uint64(t)) }

// IsValid reports whether t is a defined type (Void included).
func (t ParamType) IsValid() bool { return paramTypes.IsDefined(uint64(t)) }

// ParseParamType converts a manifest's type text exactly as the reference
// (C# Enum.Parse) does: a name ("Integer"), a decimal number ("17") or
// comma-separated names OR-ed together; the result must be a defined type.
func ParseParamType(s string) (ParamType, error) {
	v, err := paramTypes.Parse(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %w", ErrInvalidParamType, err)
	}
	t := ParamType(v)
	if !t.IsValid() {
		return 0, fmt.Errorf("%w: %q", ErrInvalidParamType, s)
	}
	return t, nil
}

// MarshalJSON writes the type's name.
func (t ParamType) MarshalJSON() ([]byte, error) { return json.Marshal(t.String()) }

// UnmarshalJSON reads a type text as ParseParamType does.
func (t *ParamType) UnmarshalJSON(data []byte) error {
	return dotnetenum.UnmarshalJSON(data, t, ParseParamType, ErrInvalidParamType)
}
