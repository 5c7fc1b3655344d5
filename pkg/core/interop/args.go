package interop

import (
	"errors"
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Argument conversions with the reference's rules (InteropParameterDescriptor):
// parameters are popped in declaration order, Null is refused where the
// parameter is not nullable, integers must fit their C# type.

func (ic *Context) pop() (stackitem.Item, error) {
	it, err := ic.vm.Estack().Pop()
	if err != nil {
		return nil, errStackEmpty
	}
	return it, nil
}

func (ic *Context) popBytes() ([]byte, error) {
	it, err := ic.pop()
	if err != nil {
		return nil, err
	}
	return itemBytes(it) // Null is an error too
}

// badArgument is an argument conversion that failed with err (the
// reference panics with err's text).
func badArgument(err error) error {
	return Bare(vm.Fault(ErrInvalidArgument, err.Error(), err))
}

func itemBytes(it stackitem.Item) ([]byte, error) {
	b, err := it.Bytes()
	if err != nil {
		return nil, badArgument(err)
	}
	return b, nil
}

func (ic *Context) popString() (string, error) {
	b, err := ic.popBytes()
	if err != nil {
		return "", err
	}
	if !utf8.Valid(b) {
		return "", Bare(Fault(ErrInvalidArgument, "invalid value: not UTF-8"))
	}
	return string(b), nil
}

func (ic *Context) popInt(lo, hi int64) (int64, error) {
	it, err := ic.pop()
	if err != nil {
		return 0, err
	}
	return itemInt(it, lo, hi)
}

func itemInt(it stackitem.Item, lo, hi int64) (int64, error) {
	if i, ok := it.(*stackitem.Integer); ok {
		if n, ok := i.Int64(); ok && n >= lo && n <= hi {
			return n, nil
		}
	}
	n, err := it.BigInt()
	if err != nil {
		return 0, badArgument(err)
	}
	if !n.IsInt64() || n.Int64() < lo || n.Int64() > hi {
		return 0, Bare(Faultf(errIntRange, "invalid value: %s is out of range", n))
	}
	return n.Int64(), nil
}

func (ic *Context) popByte() (byte, error) {
	n, err := ic.popInt(0, math.MaxUint8)
	return byte(n), err
}

func (ic *Context) popHash160() (util.Uint160, error) {
	b, err := ic.popBytes()
	if err != nil {
		return util.Uint160{}, err
	}
	h, err := util.Uint160DecodeBytesLE(b)
	if err != nil {
		return h, vm.Fault(ErrInvalidArgument, hashLengthText(util.Uint160Size, len(b)), err)
	}
	return h, nil
}

// popNullableHash160 pops a UInt160 or Null (ok=false).
func (ic *Context) popNullableHash160() (h util.Uint160, ok bool, err error) {
	it, err := ic.pop()
	if err != nil {
		return h, false, err
	}
	if _, null := it.(stackitem.Null); null {
		return h, false, nil
	}
	b, err := itemBytes(it)
	if err != nil {
		return h, false, err
	}
	h, err = util.Uint160DecodeBytesLE(b)
	if err != nil {
		return h, false, vm.Fault(ErrInvalidArgument, hashLengthText(util.Uint160Size, len(b)), err)
	}
	return h, true, nil
}

func (ic *Context) popArray() (*stackitem.Array, error) {
	it, err := ic.pop()
	if err != nil {
		return nil, err
	}
	a, ok := it.(*stackitem.Array)
	if !ok {
		return nil, Bare(Fault(ErrInvalidArgument, "element is not an array"))
	}
	return a, nil
}

// popItems pops an array parameter the reference way: an Array item gives
// its elements; any other item is a count of elements popped one by one.
func (ic *Context) popItems() ([]stackitem.Item, error) {
	it, err := ic.pop()
	if err != nil {
		return nil, err
	}
	if a, ok := it.(*stackitem.Array); ok {
		return a.Items(), nil
	}
	n, err := itemInt(it, math.MinInt32, math.MaxInt32)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > int64(ic.vm.Limits().MaxStackSize) {
		return nil, Faultf(ErrInvalidArgument, "invalid array length %d", n)
	}
	items := make([]stackitem.Item, n)
	for i := range items {
		if items[i], err = ic.pop(); err != nil {
			return nil, err
		}
	}
	return items, nil
}

func (ic *Context) popBytesArray() ([][]byte, error) {
	items, err := ic.popItems()
	if err != nil {
		return nil, err
	}
	out := make([][]byte, len(items))
	for i, it := range items {
		if out[i], err = itemBytes(it); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func decodeKey(b []byte) (*keys.PublicKey, error) {
	k, err := keys.NewPublicKeyFromBytes(b)
	if err != nil {
		return nil, vm.Fault(ErrInvalidArgument, publicKeyText(b), err)
	}
	return k, nil
}

func (ic *Context) popPublicKey() (*keys.PublicKey, error) {
	b, err := ic.popBytes()
	if err != nil {
		return nil, err
	}
	return decodeKey(b)
}

// popInterop pops an InteropInterface holding a T.
func popInterop[T any](ic *Context) (T, error) {
	var zero T
	it, err := ic.pop()
	if err != nil {
		return zero, err
	}
	io, ok := it.(*stackitem.Interop)
	if !ok {
		return zero, Bare(Fault(ErrInvalidArgument, "element is not an interop"))
	}
	v, ok := io.Value().(T)
	if !ok {
		return zero, Bare(Faultf(ErrInvalidArgument, "interface conversion: interface {} is %T, not %T", io.Value(), zero))
	}
	return v, nil
}

func (ic *Context) push(it stackitem.Item) { ic.vm.Estack().Push(it) }

func (ic *Context) pushHash(h util.Uint160) { ic.pushBytes(h.BytesLE()) }

// errIntRange is an integer argument outside its type's range.
var errIntRange = fmt.Errorf("%w: integer out of range", ErrInvalidArgument)

// isRangeError reports whether err is itemInt's out-of-range failure.
func isRangeError(err error) bool { return errors.Is(err, errIntRange) }
