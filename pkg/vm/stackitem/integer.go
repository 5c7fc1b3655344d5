package stackitem

import (
	"math/big"
	"strconv"

	"github.com/n3d-io/n3d/pkg/encoding/bigint"
)

// Integer is the integer item. Values that fit in int64 are held inline;
// larger ones in a big.Int that is never modified after construction.
type Integer struct {
	small int64
	big   *big.Int // nil when the value fits in int64
}

const (
	cacheMin = -16
	cacheMax = 1024
)

var smallCache = func() []Integer {
	c := make([]Integer, cacheMax-cacheMin+1)
	for i := range c {
		c[i].small = int64(i + cacheMin)
	}
	return c
}()

// NewInt returns the Integer v; small values come from a shared cache.
func NewInt(v int64) *Integer {
	if v >= cacheMin && v <= cacheMax {
		return &smallCache[v-cacheMin]
	}
	return &Integer{small: v}
}

// NewBigInteger returns the Integer v, taking ownership of v. It does not
// check the 32-byte limit: use NewBigIntegerChecked for VM results.
func NewBigInteger(v *big.Int) *Integer {
	if v.IsInt64() {
		return NewInt(v.Int64())
	}
	return &Integer{big: v}
}

// NewBigIntegerChecked is NewBigInteger that refuses values over 32 bytes.
func NewBigIntegerChecked(v *big.Int) (*Integer, error) {
	if v.IsInt64() {
		return NewInt(v.Int64()), nil
	}
	if !FitsIntegerSize(v) {
		return nil, errTooBigInteger
	}
	return &Integer{big: v}, nil
}

// FitsIntegerSize reports whether v encodes in at most 32 bytes.
func FitsIntegerSize(v *big.Int) bool {
	bl := v.BitLen()
	if bl < MaxIntegerSize*8 {
		return true
	}
	if bl > MaxIntegerSize*8 || v.Sign() > 0 {
		return false
	}
	// -2^255 is the only 256-bit value that fits.
	return v.TrailingZeroBits() == uint(MaxIntegerSize*8-1)
}

// Type implements Item.
func (*Integer) Type() Type { return IntegerT }

// Int64 returns the value and whether it fits in int64.
func (i *Integer) Int64() (int64, bool) {
	if i.big == nil {
		return i.small, true
	}
	return 0, false
}

// Big returns the value as a big.Int (a fresh one for small values); the
// result must not be modified.
func (i *Integer) Big() *big.Int {
	if i.big != nil {
		return i.big
	}
	return big.NewInt(i.small)
}

// Sign returns -1, 0 or 1.
func (i *Integer) Sign() int {
	if i.big != nil {
		return i.big.Sign()
	}
	switch {
	case i.small < 0:
		return -1
	case i.small > 0:
		return 1
	}
	return 0
}

// Bool implements Item: non-zero.
func (i *Integer) Bool() (bool, error) { return i.Sign() != 0, nil }

// BigInt implements Item.
func (i *Integer) BigInt() (*big.Int, error) { return i.Big(), nil }

// Bytes implements Item: minimal little-endian two's complement, empty for 0.
func (i *Integer) Bytes() ([]byte, error) {
	if i.big == nil {
		return bigint.Int64ToBytes(i.small, nil), nil
	}
	return bigint.ToBytes(i.big), nil
}

// Size is the length of Bytes.
func (i *Integer) Size() int {
	if i.big == nil {
		var buf [8]byte
		return len(bigint.Int64ToBytes(i.small, buf[:0]))
	}
	b, _ := i.Bytes()
	return len(b)
}

// Equals implements Item.
func (i *Integer) Equals(o Item) bool {
	x, ok := o.(*Integer)
	if !ok {
		return false
	}
	if i.big == nil || x.big == nil {
		return i.big == nil && x.big == nil && i.small == x.small
	}
	return i.big.Cmp(x.big) == 0
}

// String implements Item: decimal.
func (i *Integer) String() string {
	if i.big == nil {
		return strconv.FormatInt(i.small, 10)
	}
	return i.big.String()
}
