package murmur

import (
	"encoding/binary"
	"math/bits"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// Values from the reference's unit tests (C# tests/Neo.UnitTests/Cryptography/UT_Murmur32.cs).
func TestSum32ReferenceVectors(t *testing.T) {
	cases := []struct {
		data []byte
		seed uint32
		want uint32
	}{
		{[]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1}, 10, 378574820},
		{[]byte("hello worldhello world"), 10, 60539726},
		{[]byte("he"), 10, 972873329},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Sum32(c.data, c.seed), "%q seed %d", c.data, c.seed)
		le := Sum32LE(c.data, c.seed)
		require.Equal(t, c.want, binary.LittleEndian.Uint32(le[:]))
	}
}

// Published MurmurHash3_x86_32 vectors (SMHasher, and the commonly cited
// table of edge cases covering every tail length and seed extremes).
func TestSum32PublishedVectors(t *testing.T) {
	cases := []struct {
		data []byte
		seed uint32
		want uint32
	}{
		{nil, 0, 0},
		{nil, 1, 0x514e28b7},
		{nil, 0xffffffff, 0x81f16f39},
		{[]byte{0, 0, 0, 0}, 0, 0x2362f9de},
		{[]byte{0xff, 0xff, 0xff, 0xff}, 0, 0x76293b50},
		{[]byte{0x21, 0x43, 0x65, 0x87}, 0, 0xf55b516b},
		{[]byte{0x21, 0x43, 0x65, 0x87}, 0x5082edee, 0x2362f9de},
		{[]byte{0x21, 0x43, 0x65}, 0, 0x7e4a8634},
		{[]byte{0x21, 0x43}, 0, 0xa0f7b07a},
		{[]byte{0x21}, 0, 0x72661cf4},
		{[]byte{0, 0, 0}, 0, 0x85f0b427},
		{[]byte{0, 0}, 0, 0x30f4c306},
		{[]byte{0}, 0, 0x514e28b7},
		{[]byte("Hello, world!"), 1234, 0xfaf6cdb3},
		{[]byte("The quick brown fox jumps over the lazy dog"), 0, 0x2e4ff723},
	}
	for _, c := range cases {
		require.Equal(t, c.want, Sum32(c.data, c.seed), "%x seed %#x", c.data, c.seed)
	}
}

// TestSMHasherVerification runs SMHasher's VerificationTest: hash the keys
// {}, {0}, {0,1}, ... {0..254} with seed 256-len, hash the concatenated
// little-endian results with seed 0; MurmurHash3_x86_32 must give 0xB0F57EE3.
func TestSMHasherVerification(t *testing.T) {
	key := make([]byte, 256)
	hashes := make([]byte, 0, 256*Size)
	for i := range 256 {
		key[i] = byte(i)
		h := Sum32LE(key[:i], uint32(256-i))
		hashes = append(hashes, h[:]...)
	}
	require.Equal(t, uint32(0xb0f57ee3), Sum32(hashes, 0))
}

// naiveSum32 is a byte-at-a-time restatement of the algorithm used as a
// differential oracle.
func naiveSum32(data []byte, seed uint32) uint32 {
	h := seed
	var k uint32
	for i, b := range data {
		k |= uint32(b) << (8 * (i % 4))
		if i%4 == 3 {
			k = bits.RotateLeft32(k*0xcc9e2d51, 15) * 0x1b873593
			h = bits.RotateLeft32(h^k, 13)*5 + 0xe6546b64
			k = 0
		}
	}
	if len(data)%4 != 0 {
		h ^= bits.RotateLeft32(k*0xcc9e2d51, 15) * 0x1b873593
	}
	h ^= uint32(len(data))
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	return h ^ h>>16
}

func TestSum32MatchesNaive(t *testing.T) {
	data := make([]byte, 300)
	for i := range data {
		data[i] = byte(i*7 + 3)
	}
	for l := range len(data) {
		for _, seed := range []uint32{0, 1, 10, 0xdeadbeef, 0xffffffff} {
			require.Equal(t, naiveSum32(data[:l], seed), Sum32(data[:l], seed), "len %d seed %#x", l, seed)
		}
	}
}

func FuzzSum32(f *testing.F) {
	f.Add([]byte{}, uint32(0))
	f.Add([]byte("hello worldhello world"), uint32(10))
	f.Add([]byte{0x21, 0x43, 0x65}, uint32(0xffffffff))
	f.Fuzz(func(t *testing.T, data []byte, seed uint32) {
		require.Equal(t, naiveSum32(data, seed), Sum32(data, seed))
	})
}

// BenchmarkSum32 measures the block loop against the byte-at-a-time oracle
// in the same run (the oracle is the baseline).
func BenchmarkSum32(b *testing.B) {
	for _, size := range []int{32, 1024} {
		data := make([]byte, size)
		b.Run("fast/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				Sum32(data, 10)
			}
		})
		b.Run("naive/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				naiveSum32(data, 10)
			}
		})
	}
}
