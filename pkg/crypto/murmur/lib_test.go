package murmur

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/twmb/murmur3"
)

// TestSum32AgainstOwn: Sum32 (github.com/twmb/murmur3) equals our own
// block-loop implementation on every length 0..1024 with random seeds, and
// on random inputs (with the byte-at-a-time oracle and the reference
// vectors of murmur_test.go, three implementations agree).
func TestSum32AgainstOwn(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	data := make([]byte, 1024)
	for i := range data {
		data[i] = byte(r.Uint32())
	}
	for n := 0; n <= len(data); n++ {
		seed := r.Uint32()
		require.Equal(t, ownSum32(data[:n], seed), Sum32(data[:n], seed), "length %d seed %#x", n, seed)
	}
	for range 1000 {
		b := make([]byte, r.IntN(100))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		seed := r.Uint32()
		require.Equal(t, ownSum32(b, seed), Sum32(b, seed), "%x seed %#x", b, seed)
	}
}

// FuzzSum32AgainstOwn is the differential test on fuzzed inputs.
func FuzzSum32AgainstOwn(f *testing.F) {
	f.Add([]byte("hello worldhello world"), uint32(10))
	f.Add([]byte{}, uint32(0))
	f.Fuzz(func(t *testing.T, data []byte, seed uint32) {
		if len(data) > 1<<16 {
			t.Skip()
		}
		if got, want := Sum32(data, seed), ownSum32(data, seed); got != want {
			t.Fatalf("%x seed %#x: %#x, own %#x", data, seed, got, want)
		}
	})
}

// BenchmarkSum32VsLibrary compares our own block loop with
// github.com/twmb/murmur3's SeedSum32 (what Sum32 uses) on the sizes
// CryptoLib.murmur32 sees.
func BenchmarkSum32VsLibrary(b *testing.B) {
	for _, size := range []int{4, 32, 256, 1024} {
		data := make([]byte, size)
		for i := range data {
			data[i] = byte(i * 7)
		}
		b.Run("own/"+strconv.Itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			var sink uint32
			for b.Loop() {
				sink ^= ownSum32(data, 10)
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
