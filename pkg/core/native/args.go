package native

import (
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
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

// badArg is an argument that failed to convert with err; the text is
// err's (the reference Go node's conversion errors are worded the same).
func badArg(err error) error { return vm.Fault(ErrInvalidArgument, err.Error(), err) }

// errValueRange is an integer argument outside its type's range.
var errValueRange = fmt.Errorf("%w: integer out of range", ErrInvalidArgument)

// invalidValue is an argument of a valid type but a bad value, worded as
// the reference's stackitem conversions word it.
func invalidValue(format string, args ...any) error {
	return interop.Faultf(ErrInvalidArgument, "invalid value: "+format, args...)
}

func argBytes(it stackitem.Item) ([]byte, error) {
	b, err := it.Bytes() // Null fails too
	if err != nil {
		return nil, badArg(err)
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
		return nil, interop.Fault(ErrTooBigInput, "input is too big")
	}
	return b, nil
}

func argString(it stackitem.Item) (string, error) {
	b, err := argBytes(it)
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", invalidValue("not UTF-8")
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
		return nil, badArg(err)
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
		return 0, interop.Faultf(errValueRange, "invalid value: bigint is not in %s range", rangeName(lo, hi))
	}
	return n.Int64(), nil
}

// rangeName names the Go integer type of [lo, hi] as the reference's
// range errors do.
func rangeName(lo, hi int64) string {
	switch {
	case lo == math.MinInt32 && hi == math.MaxInt32:
		return "int32"
	case lo == 0 && hi == math.MaxUint32:
		return "uint32"
	case lo == 0 && hi == math.MaxUint8:
		return "uint8"
	case lo == math.MinInt64 && hi == math.MaxInt64:
		return "int64"
	}
	return fmt.Sprintf("[%d, %d]", lo, hi)
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
		return false, badArg(err)
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
		return util.Uint160{}, vm.Fault(ErrInvalidArgument, fmt.Sprintf("invalid value: expected byte size of %d got %d", util.Uint160Size, len(b)), err)
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
		return util.Uint256{}, vm.Fault(ErrInvalidArgument, fmt.Sprintf("failed to decode hash: expected []byte of size %d got %d", util.Uint256Size, len(b)), err)
	}
	return u, nil
}
