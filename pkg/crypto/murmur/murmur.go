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

// Size is the length in bytes of the serialized hash.
const Size = 4

// Sum32 returns the MurmurHash3 x86_32 hash of data with the given seed.
func Sum32(data []byte, seed uint32) uint32 {
	h := seed
	length := len(data)
	for len(data) >= 4 {
		h ^= mixK(binary.LittleEndian.Uint32(data))
		h = bits.RotateLeft32(h, 13)*m + n
		data = data[4:]
	}
	var k uint32
	switch len(data) {
	case 3:
		k ^= uint32(data[2]) << 16
		fallthrough
	case 2:
		k ^= uint32(data[1]) << 8
		fallthrough
	case 1:
		k ^= uint32(data[0])
		h ^= mixK(k)
	}
	// The reference folds the length in as a 32-bit value.
	h ^= uint32(length)
	return fmix32(h)
}

// Sum32LE returns Sum32(data, seed) serialized little-endian, the byte
// string the CryptoLib murmur32 method returns.
func Sum32LE(data []byte, seed uint32) [Size]byte {
	var out [Size]byte
	binary.LittleEndian.PutUint32(out[:], Sum32(data, seed))
	return out
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
