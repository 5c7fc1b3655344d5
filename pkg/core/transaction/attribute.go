package transaction

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// AttrType identifies a transaction attribute.
type AttrType byte

// Attribute types, as in the reference.
const (
	AttrHighPriority   AttrType = 0x01
	AttrOracleResponse AttrType = 0x11
	AttrNotValidBefore AttrType = 0x20
	AttrConflicts      AttrType = 0x21
	AttrNotaryAssisted AttrType = 0x22
)

var attrNames = map[AttrType]string{
	AttrHighPriority:   "HighPriority",
	AttrOracleResponse: "OracleResponse",
	AttrNotValidBefore: "NotValidBefore",
	AttrConflicts:      "Conflicts",
	AttrNotaryAssisted: "NotaryAssisted",
}

// String returns the reference's name of the type.
func (t AttrType) String() string {
	if s, ok := attrNames[t]; ok {
		return s
	}
	return fmt.Sprintf("%d", byte(t))
}

// AllowMultiple reports whether a transaction may carry several attributes
// of this type (only Conflicts).
func (t AttrType) AllowMultiple() bool { return t == AttrConflicts }

// AttrValue is the type-specific payload of an attribute.
type AttrValue interface {
	io.Serializable
	// size is the serialized size of the payload (without the type byte).
	size() int
}

// Attribute is a transaction attribute. Value is nil for HighPriority and
// one of *OracleResponse, *NotValidBefore, *Conflicts, *NotaryAssisted
// for the other types.
type Attribute struct {
	Type  AttrType
	Value AttrValue
}

// NotValidBefore forbids the transaction in blocks below Height.
type NotValidBefore struct {
	Height uint32
}

// Conflicts names a transaction that cannot coexist with this one.
type Conflicts struct {
	Hash util.Uint256
}

// NotaryAssisted marks a notary request with NKeys signatures to collect.
type NotaryAssisted struct {
	NKeys uint8
}

func newAttrValue(t AttrType) (AttrValue, error) {
	switch t {
	case AttrHighPriority:
		return nil, nil
	case AttrOracleResponse:
		return new(OracleResponse), nil
	case AttrNotValidBefore:
		return new(NotValidBefore), nil
	case AttrConflicts:
		return new(Conflicts), nil
	case AttrNotaryAssisted:
		return new(NotaryAssisted), nil
	}
	return nil, fmt.Errorf("%w: type 0x%02x", ErrInvalidAttribute, byte(t))
}

// DecodeBinary reads the type byte and the matching payload.
func (a *Attribute) DecodeBinary(r *io.BinReader) {
	a.Type = AttrType(r.ReadU8())
	if r.Err != nil {
		return
	}
	v, err := newAttrValue(a.Type)
	if err != nil {
		setErr(r, err)
		return
	}
	a.Value = v
	if v != nil {
		v.DecodeBinary(r)
	}
}

// EncodeBinary writes the type byte and the payload.
func (a *Attribute) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(a.Type))
	if a.Value != nil {
		a.Value.EncodeBinary(w)
	}
}

// Size is the serialized size of the attribute.
func (a *Attribute) Size() int {
	if a.Value == nil {
		return 1
	}
	return 1 + a.Value.size()
}

// DecodeBinary reads the height.
func (n *NotValidBefore) DecodeBinary(r *io.BinReader) { n.Height = r.ReadU32LE() }

// EncodeBinary writes the height.
func (n *NotValidBefore) EncodeBinary(w *io.BinWriter) { w.WriteU32LE(n.Height) }

func (n *NotValidBefore) size() int { return 4 }

// DecodeBinary reads the hash.
func (c *Conflicts) DecodeBinary(r *io.BinReader) { r.ReadBytes(c.Hash[:]) }

// EncodeBinary writes the hash.
func (c *Conflicts) EncodeBinary(w *io.BinWriter) { w.WriteBytes(c.Hash[:]) }

func (c *Conflicts) size() int { return util.Uint256Size }

// DecodeBinary reads the key count.
func (n *NotaryAssisted) DecodeBinary(r *io.BinReader) { n.NKeys = r.ReadU8() }

// EncodeBinary writes the key count.
func (n *NotaryAssisted) EncodeBinary(w *io.BinWriter) { w.WriteU8(n.NKeys) }

func (n *NotaryAssisted) size() int { return 1 }

// attrJSON is the JSON form: "type" first, then the type's fields in the
// reference's order.
type attrJSON struct {
	Type   string        `json:"type"`
	ID     *uint64       `json:"id,omitempty"`
	Code   *string       `json:"code,omitempty"`
	Result *[]byte       `json:"result,omitempty"`
	Height *uint32       `json:"height,omitempty"`
	Hash   *util.Uint256 `json:"hash,omitempty"`
	NKeys  *uint8        `json:"nkeys,omitempty"`
}

// MarshalJSON writes the reference's JSON form of the attribute.
func (a Attribute) MarshalJSON() ([]byte, error) {
	aux := attrJSON{Type: a.Type.String()}
	switch v := a.Value.(type) {
	case nil:
		if a.Type != AttrHighPriority {
			return nil, fmt.Errorf("%w: %s without value", ErrInvalidAttribute, a.Type)
		}
	case *OracleResponse:
		code := v.Code.String()
		res := nonNil(v.Result)
		aux.ID, aux.Code, aux.Result = &v.ID, &code, &res
	case *NotValidBefore:
		aux.Height = &v.Height
	case *Conflicts:
		aux.Hash = &v.Hash
	case *NotaryAssisted:
		aux.NKeys = &v.NKeys
	default:
		return nil, fmt.Errorf("%w: value %T", ErrInvalidAttribute, a.Value)
	}
	return json.Marshal(aux)
}

// UnmarshalJSON parses the reference's JSON form.
func (a *Attribute) UnmarshalJSON(data []byte) error {
	var aux attrJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: attribute: %w", ErrInvalidJSON, err)
	}
	t, ok := AttrType(0), false
	for k, n := range attrNames {
		if n == aux.Type {
			t, ok = k, true
		}
	}
	if !ok {
		return fmt.Errorf("%w: unknown type %q", ErrInvalidAttribute, aux.Type)
	}
	*a = Attribute{Type: t}
	missing := fmt.Errorf("%w: %s with missing fields", ErrInvalidAttribute, t)
	switch t {
	case AttrOracleResponse:
		if aux.ID == nil || aux.Code == nil || aux.Result == nil {
			return missing
		}
		code, err := OracleResponseCodeFromString(*aux.Code)
		if err != nil {
			return err
		}
		v := &OracleResponse{ID: *aux.ID, Code: code, Result: nonNil(*aux.Result)}
		if err := v.validate(); err != nil {
			return err
		}
		a.Value = v
	case AttrNotValidBefore:
		if aux.Height == nil {
			return missing
		}
		a.Value = &NotValidBefore{Height: *aux.Height}
	case AttrConflicts:
		if aux.Hash == nil {
			return missing
		}
		a.Value = &Conflicts{Hash: *aux.Hash}
	case AttrNotaryAssisted:
		if aux.NKeys == nil {
			return missing
		}
		a.Value = &NotaryAssisted{NKeys: *aux.NKeys}
	}
	return nil
}

// Copy returns a deep copy of a.
func (a Attribute) Copy() Attribute {
	switch v := a.Value.(type) {
	case *OracleResponse:
		c := *v
		c.Result = append([]byte(nil), v.Result...)
		a.Value = &c
	case *NotValidBefore:
		c := *v
		a.Value = &c
	case *Conflicts:
		c := *v
		a.Value = &c
	case *NotaryAssisted:
		c := *v
		a.Value = &c
	}
	return a
}
