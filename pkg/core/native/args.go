package native

import (
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// The argument conversions of the reference's native method binder: a
// Null argument FAULTs unless the parameter is nullable, integers are
// range-checked like C# explicit conversions, strings are strict UTF-8 and
// hashes must have their exact length.

func isNull(it stackitem.Item) bool {
	_, ok := it.(stackitem.Null)
	return ok
}

func argBytes(it stackitem.Item) ([]byte, error) {
	if isNull(it) {
		return nil, fmt.Errorf("%w: null", ErrInvalidArgument)
	}
	b, err := it.Bytes()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return b, nil
}

// argLimitedBytes is argBytes with the MaxLength validator (checked before
// conversion, as the reference does).
func argLimitedBytes(it stackitem.Item, limit int) ([]byte, error) {
	b, err := argBytes(it)
	if err != nil {
		return nil, err
	}
	if len(b) > limit {
		return nil, fmt.Errorf("%w: %d bytes, max %d", ErrTooBigInput, len(b), limit)
	}
	return b, nil
}

func argString(it stackitem.Item) (string, error) {
	b, err := argBytes(it)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", fmt.Errorf("%w: invalid UTF-8", ErrInvalidArgument)
	}
	return string(b), nil
}

func argLimitedString(it stackitem.Item, limit int) (string, error) {
	if _, err := argLimitedBytes(it, limit); err != nil {
		return "", err
	}
	return argString(it)
}

func argBigInt(it stackitem.Item) (*big.Int, error) {
	n, err := it.BigInt()
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return n, nil
}

// argIntRange converts an integer argument that must lie in [lo, hi].
func argIntRange(it stackitem.Item, lo, hi int64) (int64, error) {
	if i, ok := it.(*stackitem.Integer); ok {
		if v, ok := i.Int64(); ok && v >= lo && v <= hi {
			return v, nil
		}
	}
	n, err := argBigInt(it)
	if err != nil {
		return 0, err
	}
	if !n.IsInt64() || n.Int64() < lo || n.Int64() > hi {
		return 0, fmt.Errorf("%w: %s out of range", ErrInvalidArgument, n)
	}
	return n.Int64(), nil
}

func argInt32(it stackitem.Item) (int32, error) {
	v, err := argIntRange(it, math.MinInt32, math.MaxInt32)
	return int32(v), err
}

func argUint32(it stackitem.Item) (uint32, error) {
	v, err := argIntRange(it, 0, math.MaxUint32)
	return uint32(v), err
}

func argUint8(it stackitem.Item) (uint8, error) {
	v, err := argIntRange(it, 0, math.MaxUint8)
	return uint8(v), err
}

func argInt64(it stackitem.Item) (int64, error) {
	return argIntRange(it, math.MinInt64, math.MaxInt64)
}

func argBool(it stackitem.Item) (bool, error) {
	b, err := it.Bool()
	if err != nil {
		return false, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return b, nil
}

func argUint160(it stackitem.Item) (util.Uint160, error) {
	b, err := argBytes(it)
	if err != nil {
		return util.Uint160{}, err
	}
	u, err := util.Uint160DecodeBytesLE(b)
	if err != nil {
		return util.Uint160{}, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return u, nil
}

func argUint256(it stackitem.Item) (util.Uint256, error) {
	b, err := argBytes(it)
	if err != nil {
		return util.Uint256{}, err
	}
	u, err := util.Uint256DecodeBytesLE(b)
	if err != nil {
		return util.Uint256{}, fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	return u, nil
}
