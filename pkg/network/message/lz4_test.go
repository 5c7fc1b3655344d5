package message

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pierrec/lz4/v4"
	"github.com/stretchr/testify/require"
)

// lz4Vector is one case of testdata/lz4_vectors.json, produced by
// testdata/gen_lz4_vectors.py with the LZ4 C library.
type lz4Vector struct {
	Name   string `json:"name"`
	In     int    `json:"in"`
	Out    int    `json:"out"`
	SHA256 string `json:"sha256"`
}

func loadLZ4Vectors(t *testing.T) []lz4Vector {
	b, err := os.ReadFile("testdata/lz4_vectors.json")
	require.NoError(t, err)
	var v struct {
		Cases []lz4Vector `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(b, &v))
	require.NotEmpty(t, v.Cases)
	return v.Cases
}

// lcg is the generator of gen_lz4_vectors.py.
func lcg(seed uint64, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		seed = seed*6364136223846793005 + 1442695040888963407
		out[i] = byte(seed >> 56)
	}
	return out
}

func words(seed uint64, n int) []byte {
	ws := [][]byte{[]byte("neo"), []byte("block"), []byte("transaction"), []byte("witness"),
		[]byte("0x"), []byte("gas"), []byte("contract"), {0, 1}}
	r := lcg(seed, n)
	out := []byte{}
	for i := 0; len(out) < n; i++ {
		out = append(out, ws[int(r[i%n])%len(ws)]...)
		out = append(out, ' ')
	}
	return out[:n]
}

// syntheticInput rebuilds the synthetic inputs of gen_lz4_vectors.py.
func syntheticInput(name string) ([]byte, bool) {
	switch name {
	case "zeros-200":
		return make([]byte, 200), true
	case "zeros-70000":
		return make([]byte, 70000), true
	case "abc-90000":
		return bytes.Repeat([]byte("abc"), 30000), true
	case "rand-5000":
		return lcg(1, 5000), true
	case "acgt-100000":
		b := lcg(3, 100000)
		for i := range b {
			b[i] = "ACGT"[b[i]>>6]
		}
		return b, true
	case "far-repeat":
		x := lcg(2, 70000)
		return append(append(append([]byte{}, x...), x[:5000]...), x...), true
	}
	var n int
	if _, err := fmt.Sscanf(name, "words-%d", &n); err == nil {
		return words(uint64(n), n), true
	}
	return nil, false
}

func checkLZ4Vector(t *testing.T, v lz4Vector, in []byte) {
	t.Helper()
	require.Len(t, in, v.In, v.Name)
	c := compress(in)
	require.Equal(t, uint32(len(in)), uint32(c[0])|uint32(c[1])<<8|uint32(c[2])<<16|uint32(c[3])<<24)
	block := c[lz4SizePrefixLen:]
	sum := sha256.Sum256(block)
	require.Equal(t, v.Out, len(block), "%s: compressed length differs from liblz4", v.Name)
	require.Equal(t, v.SHA256, hex.EncodeToString(sum[:]), "%s: compressed bytes differ from liblz4", v.Name)
	out, err := decompress(c, PayloadMaxSize)
	require.NoError(t, err)
	require.Equal(t, in, out)
}

// TestCompressMatchesLiblz4 checks that our compressor writes the LZ4 C
// library's bytes, on inputs below and above the 64 KiB table switch.
func TestCompressMatchesLiblz4(t *testing.T) {
	n := 0
	for _, v := range loadLZ4Vectors(t) {
		if in, ok := syntheticInput(v.Name); ok {
			checkLZ4Vector(t, v, in)
			n++
		}
	}
	require.GreaterOrEqual(t, n, 10)
}

// TestCompressChainBlocksMatchesLiblz4 does the same on every reference
// block and on all of them concatenated 20 times (1.6 MB).
func TestCompressChainBlocksMatchesLiblz4(t *testing.T) {
	raws := map[string][]byte{}
	var all []byte
	for _, chain := range []string{"testblocks", "chain50x2"} {
		for _, b := range loadChainBlocks(t, chain) {
			raws[fmt.Sprintf("%s/%d", chain, b.Index)] = b.Raw
			all = append(all, b.Raw...)
		}
	}
	n := 0
	for _, v := range loadLZ4Vectors(t) {
		switch {
		case v.Name == "chains-x20":
			checkLZ4Vector(t, v, bytes.Repeat(all, 20))
			n++
		case strings.Contains(v.Name, "/"):
			in, ok := raws[v.Name]
			require.True(t, ok, v.Name)
			checkLZ4Vector(t, v, in)
			n++
		}
	}
	require.Equal(t, len(raws)+1, n)
}

// TestCompressDiffersFromPierrec documents why we do not compress with
// pierrec/lz4: its block compressor is valid LZ4 but not the reference's
// bytes (it uses another hash), so a C# node and we would frame the same
// payload differently.
func TestCompressDiffersFromPierrec(t *testing.T) {
	in := words(1000, 1000)
	var c lz4.Compressor
	dst := make([]byte, lz4.CompressBlockBound(len(in)))
	m, err := c.CompressBlock(in, dst)
	require.NoError(t, err)
	ours := compress(in)[lz4SizePrefixLen:]
	require.NotEqual(t, dst[:m], ours)
	// Both decode to the input.
	out := make([]byte, len(in))
	k, err := lz4.UncompressBlock(ours, out)
	require.NoError(t, err)
	require.Equal(t, in, out[:k])
}

func TestDecompressErrors(t *testing.T) {
	good := compress(words(5, 1000))
	cases := map[string][]byte{
		"short":           {1, 0, 0},
		"negative length": {0xff, 0xff, 0xff, 0xff, 0},
		"over max":        {1, 0, 0, 2, 0}, // 0x02000001
		"length mismatch": append([]byte{0xe9, 0x03, 0, 0}, good[4:]...),
		"length too big":  append([]byte{0xe9, 0x04, 0, 0}, good[4:]...),
		"truncated block": good[:len(good)-10],
		"garbage":         {10, 0, 0, 0, 0xff, 0xff, 0xff},
		"empty bad block": {0, 0, 0, 0, 0x10, 'a'},
		"empty no block":  {0, 0, 0, 0},
	}
	for name, in := range cases {
		_, err := decompress(in, PayloadMaxSize)
		require.ErrorIs(t, err, ErrBadCompression, name)
	}
	out, err := decompress([]byte{0, 0, 0, 0, 0}, PayloadMaxSize)
	require.NoError(t, err)
	require.Empty(t, out)
	_, err = decompress(good, 999)
	require.ErrorIs(t, err, ErrBadCompression)
}

func FuzzCompress(f *testing.F) {
	f.Add([]byte("neo neo neo neo neo neo neo neo neo"))
	f.Add(words(7, 300))
	f.Add(lcg(9, 100))
	f.Fuzz(func(t *testing.T, in []byte) {
		c := compress(in)
		require.LessOrEqual(t, len(c), lz4SizePrefixLen+compressBound(len(in)))
		out, err := decompress(c, len(in))
		require.NoError(t, err)
		require.True(t, bytes.Equal(in, out))
	})
}

func FuzzDecompress(f *testing.F) {
	f.Add(compress(words(3, 500)))
	f.Add([]byte{0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := decompress(in, 1<<16)
		if err == nil {
			require.LessOrEqual(t, len(out), 1<<16)
		}
	})
}
