package murmur

import (
	"encoding/binary"

	"github.com/twmb/murmur3"
)

// Size is the length in bytes of the serialized hash.
const Size = 4

// Sum32 returns the MurmurHash3 x86_32 hash of data with the given seed
// (github.com/twmb/murmur3's SeedSum32).
func Sum32(data []byte, seed uint32) uint32 {
	return murmur3.SeedSum32(seed, data)
}

// Sum32LE returns Sum32(data, seed) serialized little-endian, the byte
// string the CryptoLib murmur32 method returns.
func Sum32LE(data []byte, seed uint32) [Size]byte {
	var out [Size]byte
	binary.LittleEndian.PutUint32(out[:], Sum32(data, seed))
	return out
}
