package interop

import (
	"encoding/binary"
	"math/bits"
)

// murmur128 is MurmurHash3 x64 128 as the reference's Murmur128: the two
// 64-bit halves little-endian.
func murmur128(data []byte, seed uint32) [16]byte {
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	h1, h2 := uint64(seed), uint64(seed)
	n := len(data)
	for ; len(data) >= 16; data = data[16:] {
		k1 := binary.LittleEndian.Uint64(data)
		k2 := binary.LittleEndian.Uint64(data[8:])
		h1 ^= bits.RotateLeft64(k1*c1, 31) * c2
		h1 = bits.RotateLeft64(h1, 27) + h2
		h1 = h1*5 + 0x52dce729
		h2 ^= bits.RotateLeft64(k2*c2, 33) * c1
		h2 = bits.RotateLeft64(h2, 31) + h1
		h2 = h2*5 + 0x38495ab5
	}
	if len(data) > 0 {
		var tail [16]byte
		copy(tail[:], data)
		k1 := binary.LittleEndian.Uint64(tail[:])
		k2 := binary.LittleEndian.Uint64(tail[8:])
		h2 ^= bits.RotateLeft64(k2*c2, 33) * c1
		h1 ^= bits.RotateLeft64(k1*c1, 31) * c2
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1, h2 = fmix(h1), fmix(h2)
	h1 += h2
	h2 += h1
	var out [16]byte
	binary.LittleEndian.PutUint64(out[:], h1)
	binary.LittleEndian.PutUint64(out[8:], h2)
	return out
}

func fmix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
