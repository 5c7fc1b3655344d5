package murmur

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/murmur3"
)

// TestSum32AgainstLibrary: Sum32 equals github.com/twmb/murmur3's
// SeedSum32 (a maintained MurmurHash3 implementation) on every length
// 0..1024 and random seeds, and on random inputs.
func TestSum32AgainstLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 1024)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for n := 0; n <= len(data); n++ {
		seed := r.Uint32()
		require.Equal(t, murmur3.SeedSum32(seed, data[:n]), Sum32(data[:n], seed), "length %d seed %#x", n, seed)
	}
	for range 1000 {
		b := make([]byte, r.IntN(100))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		seed := r.Uint32()
		require.Equal(t, murmur3.SeedSum32(seed, b), Sum32(b, seed), "%x seed %#x", b, seed)
	}
}

// FuzzSum32AgainstLibrary is the differential test on fuzzed inputs.
func FuzzSum32AgainstLibrary(f *testing.F) {
	f.Add([]byte("hello worldhello world"), uint32(10))
	f.Add([]byte{}, uint32(0))
	f.Fuzz(func(t *testing.T, data []byte, seed uint32) {
		if len(data) > 1<<16 {
			t.Skip()
		}
		if got, want := Sum32(data, seed), murmur3.SeedSum32(seed, data); got != want {
			t.Fatalf("%x seed %#x: %#x, library %#x", data, seed, got, want)
		}
	})
}

// BenchmarkSum32VsLibrary compares Sum32 with github.com/twmb/murmur3's
// SeedSum32 on the sizes CryptoLib.murmur32 sees.
func BenchmarkSum32VsLibrary(b *testing.B) {
	for _, size := range []int{4, 32, 256, 1024} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i * 7)
		}
		b.Run("n3d/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			var sink uint32
			for b.Loop() {
				sink ^= Sum32(data, 10)
			}
			_ = sink
		})
		b.Run("twmb/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			var sink uint32
			for b.Loop() {
				sink ^= murmur3.SeedSum32(10, data)
			}
			_ = sink
		})
	}
}
