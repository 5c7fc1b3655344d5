package conformance

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReadJSONL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	require.NoError(t, os.WriteFile(path, []byte("{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n"), 0o600))
	type line struct {
		A int `json:"a"`
	}
	require.Equal(t, []line{{1}, {2}, {3}}, ReadJSONL[line](t, path))
	var n int
	EachLine(t, path, func([]byte) { n++ })
	require.Equal(t, 3, n)
}

func TestChainsReadable(t *testing.T) {
	chains := Chains(t)
	require.NotEmpty(t, chains)
	for _, c := range chains {
		blocks := ReadJSONL[struct {
			Index uint32 `json:"index"`
		}](t, filepath.Join(Dir(t, "chains", c), "blocks.jsonl"))
		require.NotEmpty(t, blocks, c)
		for i, b := range blocks {
			require.Equal(t, uint32(i), b.Index, c)
		}
	}
}

func TestRawBlocks(t *testing.T) {
	for _, c := range Chains(t) {
		raw := RawBlocks(t, c)
		require.NotEmpty(t, raw, c)
		for i, b := range raw {
			// A block starts with its version (0) and is longer than a header.
			require.Greater(t, len(b), 100, "%s block %d", c, i)
			require.Zero(t, b[0], "%s block %d", c, i)
		}
	}
}
