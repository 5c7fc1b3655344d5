package transaction

import (
	"encoding/json"
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// ConditionType identifies a witness condition.
type ConditionType byte

// Witness condition types, as in the reference.
const (
	ConditionBoolean          ConditionType = 0x00
	ConditionNot              ConditionType = 0x01
	ConditionAnd              ConditionType = 0x02
	ConditionOr               ConditionType = 0x03
	ConditionScriptHash       ConditionType = 0x18
	ConditionGroup            ConditionType = 0x19
	ConditionCalledByEntry    ConditionType = 0x20
	ConditionCalledByContract ConditionType = 0x28
	ConditionCalledByGroup    ConditionType = 0x29
)

// Reference limits of witness conditions and signer lists.
const (
	// MaxConditionNesting is the depth budget of a rule's condition: the
	// root uses one level, each Not/And/Or child one more.
	MaxConditionNesting = 3
	// MaxSubitems bounds And/Or operands and a signer's contracts, groups
	// and rules.
	MaxSubitems = 16
)

var conditionNames = map[ConditionType]string{
	ConditionBoolean:          "Boolean",
	ConditionNot:              "Not",
	ConditionAnd:              "And",
	ConditionOr:               "Or",
	ConditionScriptHash:       "ScriptHash",
	ConditionGroup:            "Group",
	ConditionCalledByEntry:    "CalledByEntry",
	ConditionCalledByContract: "CalledByContract",
	ConditionCalledByGroup:    "CalledByGroup",
}

// String returns the reference's name of the type.
func (t ConditionType) String() string {
	if s, ok := conditionNames[t]; ok {
		return s
	}
	return fmt.Sprintf("%d", byte(t))
}

// ConditionTypeFromString parses a type name.
func ConditionTypeFromString(s string) (ConditionType, error) {
	for t, n := range conditionNames {
		if n == s {
			return t, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown type %q", ErrInvalidCondition, s)
}

// WitnessCondition is one node of a witness rule's condition tree. Type
// selects which of the other fields is meaningful:
//
//	Boolean                     Bool
//	Not                         Expressions (exactly one)
//	And, Or                     Expressions (1..MaxSubitems)
//	ScriptHash, CalledByContract Hash
//	Group, CalledByGroup        Group
//	CalledByEntry               nothing
type WitnessCondition struct {
	Type        ConditionType
	Bool        bool
	Hash        util.Uint160
	Group       ECPoint
	Expressions []WitnessCondition
}

// DecodeBinary reads a condition with the full nesting budget.
func (c *WitnessCondition) DecodeBinary(r *io.BinReader) {
	c.decode(r, MaxConditionNesting)
}

func (c *WitnessCondition) decode(r *io.BinReader, depth int) {
	if depth <= 0 {
		setErr(r, ErrNestingTooDeep)
		return
	}
	*c = WitnessCondition{Type: ConditionType(r.ReadU8())}
	if r.Err != nil {
		return
	}
	switch c.Type {
	case ConditionBoolean:
		c.Bool = readBool(r)
	case ConditionNot:
		c.Expressions = make([]WitnessCondition, 1)
		c.Expressions[0].decode(r, depth-1)
	case ConditionAnd, ConditionOr:
		n := r.ReadVarLen(MaxSubitems)
		if r.Err != nil {
			return
		}
		if n == 0 {
			setErr(r, fmt.Errorf("%w: empty %s", ErrInvalidCondition, c.Type))
			return
		}
		c.Expressions = make([]WitnessCondition, n)
		for i := range c.Expressions {
			c.Expressions[i].decode(r, depth-1)
		}
	case ConditionScriptHash, ConditionCalledByContract:
		r.ReadBytes(c.Hash[:])
	case ConditionGroup, ConditionCalledByGroup:
		c.Group.DecodeBinary(r)
	case ConditionCalledByEntry:
	default:
		setErr(r, fmt.Errorf("%w: type 0x%02x", ErrInvalidCondition, byte(c.Type)))
	}
}

// EncodeBinary writes the condition tree.
func (c *WitnessCondition) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(c.Type))
	switch c.Type {
	case ConditionBoolean:
		w.WriteBool(c.Bool)
	case ConditionNot:
		if len(c.Expressions) == 1 {
			c.Expressions[0].EncodeBinary(w)
		} else if w.Err == nil {
			w.Err = fmt.Errorf("%w: Not with %d operands", ErrInvalidCondition, len(c.Expressions))
		}
	case ConditionAnd, ConditionOr:
		w.WriteVarUint(uint64(len(c.Expressions)))
		for i := range c.Expressions {
			c.Expressions[i].EncodeBinary(w)
		}
	case ConditionScriptHash, ConditionCalledByContract:
		w.WriteBytes(c.Hash[:])
	case ConditionGroup, ConditionCalledByGroup:
		w.WriteBytes(c.Group[:])
	}
}

// Size is the serialized size of the condition tree.
func (c *WitnessCondition) Size() int {
	n := 1
	switch c.Type {
	case ConditionBoolean:
		n++
	case ConditionNot:
		for i := range c.Expressions {
			n += c.Expressions[i].Size()
		}
	case ConditionAnd, ConditionOr:
		n += io.GetVarSize(len(c.Expressions))
		for i := range c.Expressions {
			n += c.Expressions[i].Size()
		}
	case ConditionScriptHash, ConditionCalledByContract:
		n += util.Uint160Size
	case ConditionGroup, ConditionCalledByGroup:
		n += ECPointSize
	}
	return n
}

// conditionJSON is the JSON form; "type" comes first, then the one field
// the type uses.
type conditionJSON struct {
	Type        string            `json:"type"`
	Expression  json.RawMessage   `json:"expression,omitempty"`
	Expressions []json.RawMessage `json:"expressions,omitempty"`
	Hash        *util.Uint160     `json:"hash,omitempty"`
	Group       *ECPoint          `json:"group,omitempty"`
}

// MarshalJSON writes the reference's JSON form of the condition.
func (c WitnessCondition) MarshalJSON() ([]byte, error) {
	aux := conditionJSON{Type: c.Type.String()}
	var err error
	switch c.Type {
	case ConditionBoolean:
		aux.Expression, err = json.Marshal(c.Bool)
	case ConditionNot:
		if len(c.Expressions) != 1 {
			return nil, fmt.Errorf("%w: Not with %d operands", ErrInvalidCondition, len(c.Expressions))
		}
		aux.Expression, err = json.Marshal(c.Expressions[0])
	case ConditionAnd, ConditionOr:
		aux.Expressions = make([]json.RawMessage, len(c.Expressions))
		for i := range c.Expressions {
			if aux.Expressions[i], err = json.Marshal(c.Expressions[i]); err != nil {
				return nil, err
			}
		}
		if len(aux.Expressions) == 0 {
			return nil, fmt.Errorf("%w: empty %s", ErrInvalidCondition, c.Type)
		}
	case ConditionScriptHash, ConditionCalledByContract:
		aux.Hash = &c.Hash
	case ConditionGroup, ConditionCalledByGroup:
		aux.Group = &c.Group
	case ConditionCalledByEntry:
	default:
		return nil, fmt.Errorf("%w: type 0x%02x", ErrInvalidCondition, byte(c.Type))
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(aux)
}

// UnmarshalJSON parses a condition with the full nesting budget.
func (c *WitnessCondition) UnmarshalJSON(data []byte) error {
	return c.unmarshalJSON(data, MaxConditionNesting)
}

func (c *WitnessCondition) unmarshalJSON(data []byte, depth int) error {
	if depth <= 0 {
		return ErrNestingTooDeep
	}
	var aux conditionJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: condition: %w", ErrInvalidJSON, err)
	}
	t, err := ConditionTypeFromString(aux.Type)
	if err != nil {
		return err
	}
	*c = WitnessCondition{Type: t}
	switch t {
	case ConditionBoolean:
		if len(aux.Expression) == 0 {
			return fmt.Errorf("%w: Boolean without expression", ErrInvalidCondition)
		}
		if err := json.Unmarshal(aux.Expression, &c.Bool); err != nil {
			return fmt.Errorf("%w: Boolean expression: %w", ErrInvalidJSON, err)
		}
	case ConditionNot:
		if len(aux.Expression) == 0 {
			return fmt.Errorf("%w: Not without expression", ErrInvalidCondition)
		}
		c.Expressions = make([]WitnessCondition, 1)
		return c.Expressions[0].unmarshalJSON(aux.Expression, depth-1)
	case ConditionAnd, ConditionOr:
		return c.unmarshalOperands(aux.Expressions, depth)
	case ConditionScriptHash, ConditionCalledByContract:
		if aux.Hash == nil {
			return fmt.Errorf("%w: %s without hash", ErrInvalidCondition, t)
		}
		c.Hash = *aux.Hash
	case ConditionGroup, ConditionCalledByGroup:
		if aux.Group == nil {
			return fmt.Errorf("%w: %s without group", ErrInvalidCondition, t)
		}
		c.Group = *aux.Group
	}
	return nil
}

func (c *WitnessCondition) unmarshalOperands(ops []json.RawMessage, depth int) error {
	if len(ops) > MaxSubitems {
		return fmt.Errorf("%w: %d operands", ErrTooManySubitems, len(ops))
	}
	if len(ops) == 0 {
		return fmt.Errorf("%w: empty %s", ErrInvalidCondition, c.Type)
	}
	c.Expressions = make([]WitnessCondition, len(ops))
	for i := range ops {
		if err := c.Expressions[i].unmarshalJSON(ops[i], depth-1); err != nil {
			return err
		}
	}
	return nil
}

// Copy returns a deep copy of c.
func (c WitnessCondition) Copy() WitnessCondition {
	if c.Expressions != nil {
		ex := make([]WitnessCondition, len(c.Expressions))
		for i := range c.Expressions {
			ex[i] = c.Expressions[i].Copy()
		}
		c.Expressions = ex
	}
	return c
}
