package stackitem

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/smartcontract/neojson"
)

// JSON limits of the reference StdLib.
const (
	// MaxJSONDepth is the nesting limit of jsonDeserialize's parser.
	MaxJSONDepth = 10
	// maxWriterDepth is Utf8JsonWriter's default MaxDepth.
	maxWriterDepth = 1000
	maxSafeInteger = 1<<53 - 1
)

// ErrJSON is returned for items that have no JSON form and for JSON that
// has no item form.
var ErrJSON = errors.New("stackitem: JSON conversion failed")

type jsonEnd byte

// ToJSON is the reference JsonSerializer.SerializeToByteArray with the
// default MaxItemSize: arrays and structs become arrays, maps with
// ByteString keys objects, ByteString/Buffer strict UTF-8 strings,
// integers within ±(2^53-1) numbers, Boolean and Null themselves.
func ToJSON(it Item) ([]byte, error) { return ToJSONLimited(it, MaxSize) }

// ToJSONLimited is ToJSON with an output size limit.
func ToJSONLimited(it Item, maxSize int) ([]byte, error) {
	var out []byte
	stack := []any{it}
	depth := 0
	needComma := false
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if e, ok := x.(jsonEnd); ok {
			out = append(out, byte(e))
			depth--
			needComma = true
		} else {
			if needComma {
				out = append(out, ',')
			}
			var err error
			out, stack, needComma, err = jsonValue(out, stack, x, &depth)
			if err != nil {
				return nil, err
			}
		}
		if len(out) > maxSize {
			return nil, fmt.Errorf("%w: output exceeds %d bytes", ErrTooLarge, maxSize)
		}
	}
	return out, nil
}

// jsonKey marks a map key that is written as a property name.
type jsonKey struct{ k Item }

func jsonString(it Item) (string, error) {
	b, err := it.Bytes()
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", ErrInvalidUTF8
	}
	return string(b), nil
}

// jsonValue writes one value (or opens a container) and reports whether
// the next value needs a separating comma.
func jsonValue(out []byte, stack []any, v any, depth *int) ([]byte, []any, bool, error) {
	switch x := v.(type) {
	case jsonKey:
		s, err := jsonString(x.k)
		if err != nil {
			return nil, nil, false, err
		}
		out = append(neojson.AppendString(out, s), ':')
		return out, stack, false, nil
	case *Array:
		if *depth >= maxWriterDepth {
			return nil, nil, false, fmt.Errorf("%w: nesting too deep", ErrJSON)
		}
		*depth++
		stack = append(stack, jsonEnd(']'))
		for i := x.Len() - 1; i >= 0; i-- {
			stack = append(stack, x.items[i])
		}
		return append(out, '['), stack, false, nil
	case *Map:
		if *depth >= maxWriterDepth {
			return nil, nil, false, fmt.Errorf("%w: nesting too deep", ErrJSON)
		}
		*depth++
		stack = append(stack, jsonEnd('}'))
		for i := x.Len() - 1; i >= 0; i-- {
			e := x.elems[i]
			if _, ok := e.Key.(ByteString); !ok {
				return nil, nil, false, fmt.Errorf("%w: key is not a ByteString", ErrJSON)
			}
			stack = append(stack, e.Value, jsonKey{e.Key})
		}
		return append(out, '{'), stack, false, nil
	case ByteString, *Buffer:
		s, err := jsonString(x.(Item))
		if err != nil {
			return nil, nil, false, err
		}
		return neojson.AppendString(out, s), stack, true, nil
	case *Integer:
		b := x.Big()
		if !b.IsInt64() || b.Int64() > maxSafeInteger || b.Int64() < -maxSafeInteger {
			return nil, nil, false, fmt.Errorf("%w: integer out of the safe range", ErrJSON)
		}
		return neojson.AppendNumber(out, float64(b.Int64())), stack, true, nil
	case Bool:
		return strconv.AppendBool(out, bool(x)), stack, true, nil
	case Null:
		return append(out, "null"...), stack, true, nil
	}
	return nil, nil, false, fmt.Errorf("%w: %T has no JSON form", ErrJSON, v)
}

// FromJSON is the reference StdLib jsonDeserialize: the JSON is parsed
// with nesting depth 10 and converted with at most MaxClonableItems items.
// preBasilisk selects the number conversion used before the Basilisk
// hardfork (exact value of the double instead of its printed digits).
func FromJSON(data []byte, preBasilisk bool) (Item, error) {
	v, err := neojson.Parse(data, MaxJSONDepth)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrJSON, err)
	}
	budget := MaxClonableItems
	return fromJSONValue(v, &budget, preBasilisk)
}

func fromJSONValue(v any, budget *int, preBasilisk bool) (Item, error) {
	if *budget == 0 {
		return nil, fmt.Errorf("%w: max stack size reached", ErrJSON)
	}
	*budget--
	switch x := v.(type) {
	case nil:
		return Null{}, nil
	case bool:
		return Bool(x), nil
	case string:
		return ByteString(x), nil
	case float64:
		return jsonNumber(x, preBasilisk)
	case []any:
		items := make([]Item, 0, len(x))
		for _, e := range x {
			it, err := fromJSONValue(e, budget, preBasilisk)
			if err != nil {
				return nil, err
			}
			items = append(items, it)
		}
		return NewArray(items), nil
	case *neojson.Object:
		m := NewMap()
		for _, mem := range x.Members {
			if *budget == 0 {
				return nil, fmt.Errorf("%w: max stack size reached", ErrJSON)
			}
			*budget--
			it, err := fromJSONValue(mem.Value, budget, preBasilisk)
			if err != nil {
				return nil, err
			}
			if err := m.Add(ByteString(mem.Key), it); err != nil {
				return nil, fmt.Errorf("%w: %w", ErrJSON, err)
			}
		}
		return m, nil
	}
	return nil, fmt.Errorf("%w: unexpected JSON value %T", ErrJSON, v)
}

// jsonNumber converts an integral double: by its shortest round-trip
// decimal digits (Basilisk+) or by its exact binary value (before).
func jsonNumber(f float64, preBasilisk bool) (Item, error) {
	if math.Trunc(f) != f {
		return nil, fmt.Errorf("%w: decimal value is not allowed", ErrJSON)
	}
	var n *big.Int
	if preBasilisk {
		n, _ = new(big.Float).SetFloat64(f).Int(nil)
	} else {
		n = decimalToInt(strconv.FormatFloat(f, 'e', -1, 64))
	}
	it, err := NewBigIntegerChecked(n)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrJSON, err)
	}
	return it, nil
}

// decimalToInt converts "d.ddde±x" of an integral value to an integer.
func decimalToInt(s string) *big.Int {
	mant, exp, _ := strings.Cut(s, "e")
	e, _ := strconv.Atoi(exp) // FormatFloat always writes a valid exponent
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	e -= len(frac)
	n, _ := new(big.Int).SetString(digits, 10)
	if e > 0 {
		n.Mul(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(e)), nil))
	} else if e < 0 {
		n.Quo(n, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-e)), nil))
	}
	if neg {
		n.Neg(n)
	}
	return n
}
