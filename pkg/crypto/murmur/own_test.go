package murmur

import (
	"encoding/binary"
	"math/bits"
)

// Mixing constants of MurmurHash3 x86_32.
const (
	c1 = 0xcc9e2d51
	c2 = 0x1b873593
	m  = 5
	n  = 0xe6546b64
)

// ownSum32 is our own block-loop MurmurHash3 x86_32 (the package used it
// until BenchmarkSum32VsLibrary found the library at least as fast): a
// differential oracle and the benchmark's baseline.
func ownSum32(data []byte, seed uint32) uint32 {
	h := seed
	length := len(data)
	// An index loop over the whole blocks (one bound, no re-slicing per
	// block: the compiler drops the bounds checks).
	blocks := length &^ 3
	for i := 0; i < blocks; i += 4 {
		h ^= mixK(binary.LittleEndian.Uint32(data[i : i+4 : i+4]))
		h = bits.RotateLeft32(h, 13)*m + n
	}
	tail := data[blocks:]
	var k uint32
	switch len(tail) {
	case 3:
		k ^= uint32(tail[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(tail[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(tail[0])
		h ^= mixK(k)
	}
	// The reference folds the length in as a 32-bit value.
	h ^= uint32(length)
	return fmix32(h)
}

func mixK(k uint32) uint32 {
	k *= c1
	k = bits.RotateLeft32(k, 15)
	return k * c2
}

func fmix32(h uint32) uint32 {
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}
