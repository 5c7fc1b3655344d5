// Package itemjson is the JSON form of NeoVM stack items that the RPC server
// prints (getapplicationlog stacks and notification states, invokescript
// results): {"type":"Integer","value":"1"}.
//
// Marshal follows the reference StackItem.ToJson: integers as decimal
// strings, byte strings and buffers as base64, booleans as JSON booleans,
// arrays and structs as lists, maps as lists of {"key","value"} objects,
// pointers as their position, Any and InteropInterface without a value.
// Compound items met twice on the current path are a circular reference and
// fail; the size budget is counted as the reference counts it. Unmarshal
// reads the same form back (interop items become empty Interop values).
package itemjson

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strconv"

	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Errors.
var (
	// ErrCircular is returned for an item that contains itself.
	ErrCircular = errors.New("itemjson: circular reference")
	// ErrTooBig is returned when the output exceeds the size budget.
	ErrTooBig = errors.New("itemjson: max size reached")
	// ErrInvalid is returned by Unmarshal for malformed input.
	ErrInvalid = errors.New("itemjson: invalid item JSON")
)

// MaxDepth bounds the nesting Unmarshal accepts.
const MaxDepth = 64

// Marshal returns the JSON of it without a size limit.
func Marshal(it stackitem.Item) ([]byte, error) {
	return MarshalLimited(it, int(^uint(0)>>1))
}

// MarshalLimited returns the JSON of it, failing with ErrTooBig when the
// reference's size estimate exceeds maxSize.
func MarshalLimited(it stackitem.Item, maxSize int) ([]byte, error) {
	e := encoder{budget: maxSize, seen: map[stackitem.Item]struct{}{}}
	if err := e.item(it); err != nil {
		return nil, err
	}
	return e.buf, nil
}

type encoder struct {
	buf    []byte
	budget int
	seen   map[stackitem.Item]struct{}
}

func (e *encoder) spend(n int) error {
	e.budget -= n
	if e.budget < 0 {
		return ErrTooBig
	}
	return nil
}

func (e *encoder) item(it stackitem.Item) error {
	if it == nil {
		it = stackitem.Null{}
	}
	name := it.Type().String()
	if err := e.spend(11 + len(name)); err != nil {
		return err
	}
	e.buf = append(e.buf, `{"type":"`...)
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '"')
	var err error
	switch v := it.(type) {
	case *stackitem.Array:
		err = e.array(v)
	case *stackitem.Map:
		err = e.mapItem(v)
	case stackitem.Bool:
		err = e.value(strconv.AppendBool(nil, bool(v)), 0)
	case stackitem.ByteString, *stackitem.Buffer:
		b, _ := it.Bytes()
		s := base64.StdEncoding.EncodeToString(b)
		err = e.value(strconv.AppendQuote(nil, s), 2+len(s))
	case *stackitem.Integer:
		s := v.Big().String()
		err = e.value(strconv.AppendQuote(nil, s), 2+len(s))
	case *stackitem.Pointer:
		s := strconv.Itoa(v.Position())
		err = e.value([]byte(s), len(s))
	}
	if err != nil {
		return err
	}
	e.buf = append(e.buf, '}')
	return nil
}

// value writes ,"value":raw; cost is what the reference charges for raw
// (booleans are charged by the caller through raw's length).
func (e *encoder) value(raw []byte, cost int) error {
	if cost == 0 {
		cost = len(raw)
	}
	if err := e.spend(cost + 9); err != nil {
		return err
	}
	e.buf = append(e.buf, `,"value":`...)
	e.buf = append(e.buf, raw...)
	return nil
}

func (e *encoder) enter(it stackitem.Item) error {
	if _, ok := e.seen[it]; ok {
		return ErrCircular
	}
	e.seen[it] = struct{}{}
	return nil
}

func (e *encoder) array(a *stackitem.Array) error {
	if err := e.enter(a); err != nil {
		return err
	}
	if err := e.spend(2 + max(0, a.Len()-1) + 9); err != nil {
		return err
	}
	e.buf = append(e.buf, `,"value":[`...)
	for i, el := range a.Items() {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.item(el); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	delete(e.seen, stackitem.Item(a))
	return nil
}

func (e *encoder) mapItem(m *stackitem.Map) error {
	if err := e.enter(m); err != nil {
		return err
	}
	if err := e.spend(2 + max(0, m.Len()-1) + 9); err != nil {
		return err
	}
	e.buf = append(e.buf, `,"value":[`...)
	for i, el := range m.Elements() {
		if i > 0 {
			e.buf = append(e.buf, ',')
		}
		if err := e.spend(17); err != nil {
			return err
		}
		e.buf = append(e.buf, `{"key":`...)
		if err := e.item(el.Key); err != nil {
			return err
		}
		e.buf = append(e.buf, `,"value":`...)
		if err := e.item(el.Value); err != nil {
			return err
		}
		e.buf = append(e.buf, '}')
	}
	e.buf = append(e.buf, ']')
	delete(e.seen, stackitem.Item(m))
	return nil
}

type rawItem struct {
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value,omitempty"`
}

type rawPair struct {
	Key   json.RawMessage `json:"key"`
	Value json.RawMessage `json:"value"`
}

// Unmarshal parses the form Marshal writes.
func Unmarshal(data []byte) (stackitem.Item, error) {
	return decode(data, 0)
}

func decode(data []byte, depth int) (stackitem.Item, error) {
	if depth > MaxDepth {
		return nil, fmt.Errorf("%w: too deep", ErrInvalid)
	}
	var r rawItem
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	switch r.Type {
	case "Any":
		return stackitem.Null{}, nil
	case "InteropInterface":
		return stackitem.NewInterop(nil), nil
	case "Boolean":
		var b bool
		if err := json.Unmarshal(r.Value, &b); err != nil {
			return nil, fmt.Errorf("%w: boolean: %w", ErrInvalid, err)
		}
		return stackitem.Bool(b), nil
	case "Integer":
		return decodeInteger(r.Value)
	case "ByteString", "Buffer":
		var s string
		if err := json.Unmarshal(r.Value, &s); err != nil {
			return nil, fmt.Errorf("%w: bytes: %w", ErrInvalid, err)
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("%w: base64: %w", ErrInvalid, err)
		}
		if r.Type == "Buffer" {
			return stackitem.NewBuffer(b), nil
		}
		return stackitem.ByteString(b), nil
	case "Pointer":
		var p int
		if err := json.Unmarshal(r.Value, &p); err != nil || p < 0 {
			return nil, fmt.Errorf("%w: pointer %s", ErrInvalid, r.Value)
		}
		return stackitem.NewPointer(p, nil), nil
	case "Array", "Struct":
		return decodeArray(r.Type == "Struct", r.Value, depth)
	case "Map":
		return decodeMap(r.Value, depth)
	}
	return nil, fmt.Errorf("%w: type %q", ErrInvalid, r.Type)
}

func decodeInteger(raw json.RawMessage) (stackitem.Item, error) {
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%w: integer: %w", ErrInvalid, err)
	}
	n, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("%w: integer %q", ErrInvalid, s)
	}
	it, err := stackitem.NewBigIntegerChecked(n)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return it, nil
}

func decodeArray(isStruct bool, raw json.RawMessage, depth int) (stackitem.Item, error) {
	var els []json.RawMessage
	if err := json.Unmarshal(raw, &els); err != nil {
		return nil, fmt.Errorf("%w: array: %w", ErrInvalid, err)
	}
	items := make([]stackitem.Item, len(els))
	for i, el := range els {
		it, err := decode(el, depth+1)
		if err != nil {
			return nil, err
		}
		items[i] = it
	}
	if isStruct {
		return stackitem.NewStruct(items), nil
	}
	return stackitem.NewArray(items), nil
}

func decodeMap(raw json.RawMessage, depth int) (stackitem.Item, error) {
	var pairs []rawPair
	if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, fmt.Errorf("%w: map: %w", ErrInvalid, err)
	}
	m := stackitem.NewMap()
	for _, p := range pairs {
		k, err := decode(p.Key, depth+1)
		if err != nil {
			return nil, err
		}
		v, err := decode(p.Value, depth+1)
		if err != nil {
			return nil, err
		}
		if err := m.Add(k, v); err != nil {
			return nil, fmt.Errorf("%w: map key: %w", ErrInvalid, err)
		}
	}
	return m, nil
}
