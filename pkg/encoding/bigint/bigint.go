package bigint

import (
	"math/big"
	"math/bits"
)

const wordBytes = bits.UintSize / 8

// FromBytes decodes little-endian two's complement bytes. Empty input is 0.
func FromBytes(data []byte) *big.Int {
	n := new(big.Int)
	if len(data) == 0 {
		return n
	}
	neg := data[len(data)-1]&0x80 != 0
	be := make([]byte, len(data))
	for i, b := range data {
		if neg {
			b = ^b
		}
		be[len(data)-1-i] = b
	}
	n.SetBytes(be)
	if neg {
		// data = ^(|x| - 1)  =>  x = -(inverted + 1)
		n.Add(n, big.NewInt(1))
		n.Neg(n)
	}
	return n
}

// FromInt64Bytes is FromBytes for inputs of at most 8 bytes, without
// allocating a big.Int; ok is false for longer inputs.
func FromInt64Bytes(data []byte) (v int64, ok bool) {
	if len(data) > 8 {
		return 0, false
	}
	if len(data) == 0 {
		return 0, true
	}
	var u uint64
	for i := len(data) - 1; i >= 0; i-- {
		u = u<<8 | uint64(data[i])
	}
	shift := uint(64 - 8*len(data))
	return int64(u<<shift) >> shift, true
}

// ToBytes encodes n in the shortest little-endian two's complement form;
// zero gives an empty, non-nil slice.
func ToBytes(n *big.Int) []byte {
	return ToPreallocatedBytes(n, nil)
}

// ToPreallocatedBytes is ToBytes that reuses buf's capacity when it is
// large enough.
func ToPreallocatedBytes(n *big.Int, buf []byte) []byte {
	sign := n.Sign()
	if sign == 0 {
		return empty(buf)
	}
	if n.IsInt64() {
		return Int64ToBytes(n.Int64(), buf)
	}
	if sign > 0 {
		size := n.BitLen()/8 + 1 // +1 keeps room for the sign bit
		out := grow(buf, size)
		n.FillBytes(out)
		reverse(out)
		return trimPositive(out)
	}
	// Negative: two's complement of |n| over enough bytes.
	abs := new(big.Int).Neg(n)
	abs.Sub(abs, big.NewInt(1)) // ^(|n|-1) == two's complement
	size := abs.BitLen()/8 + 1
	out := grow(buf, size)
	abs.FillBytes(out)
	reverse(out)
	for i := range out {
		out[i] = ^out[i]
	}
	return trimNegative(out)
}

// Int64ToBytes encodes v in the shortest two's complement form, reusing
// buf's capacity when possible.
func Int64ToBytes(v int64, buf []byte) []byte {
	if v == 0 {
		return empty(buf)
	}
	out := grow(buf, 8)
	u := uint64(v)
	for i := range 8 {
		out[i] = byte(u >> (8 * i))
	}
	if v > 0 {
		return trimPositive(out)
	}
	return trimNegative(out)
}

func empty(buf []byte) []byte {
	if buf == nil {
		return []byte{}
	}
	return buf[:0]
}

func grow(buf []byte, n int) []byte {
	if cap(buf) >= n {
		buf = buf[:n]
		clear(buf)
		return buf
	}
	return make([]byte, n, max(n, wordBytes))
}

func reverse(b []byte) {
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
}

// trimPositive drops high zero bytes while the top bit stays clear.
func trimPositive(b []byte) []byte {
	end := len(b)
	for end > 1 && b[end-1] == 0 && b[end-2]&0x80 == 0 {
		end--
	}
	return b[:end]
}

// trimNegative drops high 0xff bytes while the top bit stays set.
func trimNegative(b []byte) []byte {
	end := len(b)
	for end > 1 && b[end-1] == 0xff && b[end-2]&0x80 != 0 {
		end--
	}
	return b[:end]
}
