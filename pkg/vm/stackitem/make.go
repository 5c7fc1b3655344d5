package stackitem

import (
	"fmt"
	"math/big"

	"github.com/n3d-io/n3d/pkg/util"
)

// Make converts a Go value to an item: nil → Null; Item as is; bool;
// signed and unsigned integers and *big.Int → Integer; []byte → ByteString;
// string → ByteString of its UTF-8 bytes; util.Uint160/Uint256 →
// ByteString of their serialized (little-endian) bytes; []Item and []any
// → Array (elements converted); map[string]any is not supported (Go maps
// are unordered). It panics on other types: use TryMake for untrusted
// input.
func Make(v any) Item {
	it, err := TryMake(v)
	if err != nil {
		panic(err)
	}
	return it
}

// TryMake is Make returning an error for unsupported values.
func TryMake(v any) (Item, error) {
	switch x := v.(type) {
	case nil:
		return Null{}, nil
	case Item:
		return x, nil
	case bool:
		return Bool(x), nil
	case int:
		return NewInt(int64(x)), nil
	case int8:
		return NewInt(int64(x)), nil
	case int16:
		return NewInt(int64(x)), nil
	case int32:
		return NewInt(int64(x)), nil
	case int64:
		return NewInt(x), nil
	case uint8:
		return NewInt(int64(x)), nil
	case uint16:
		return NewInt(int64(x)), nil
	case uint32:
		return NewInt(int64(x)), nil
	case uint64:
		return NewBigInteger(new(big.Int).SetUint64(x)), nil
	case uint:
		return NewBigInteger(new(big.Int).SetUint64(uint64(x))), nil
	case *big.Int:
		return NewBigInteger(new(big.Int).Set(x)), nil
	case []byte:
		return ByteString(x), nil
	case string:
		return ByteString(x), nil
	case util.Uint160:
		return ByteString(x.BytesLE()), nil
	case util.Uint256:
		return ByteString(x.BytesLE()), nil
	case []Item:
		return NewArray(x), nil
	case []any:
		items := make([]Item, len(x))
		for i, e := range x {
			it, err := TryMake(e)
			if err != nil {
				return nil, err
			}
			items[i] = it
		}
		return NewArray(items), nil
	}
	return nil, fmt.Errorf("%w: %T", ErrUnsupportedArg, v)
}
