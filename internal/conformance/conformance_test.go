package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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

// outcomeTB records how External ended a test: Skip and Fatalf stop the
// calling goroutine as testing.T does.
type outcomeTB struct {
	testing.TB
	skipped, failed string
}

func (o *outcomeTB) Helper() {}

func (o *outcomeTB) Skip(args ...any) {
	o.skipped = fmt.Sprint(args...)
	runtime.Goexit()
}

func (o *outcomeTB) Fatalf(format string, args ...any) {
	o.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func runExternal(tb *outcomeTB) string {
	done := make(chan string, 1)
	go func() {
		defer close(done)
		done <- External(tb, "neovm")
	}()
	return <-done
}

func TestExternalAbsent(t *testing.T) {
	t.Setenv(EnvDir, filepath.Join(t.TempDir(), "absent"))
	t.Setenv("CI", "")
	tb := &outcomeTB{TB: t}
	require.Empty(t, runExternal(tb))
	require.Contains(t, tb.skipped, EnvDir, "the skip message says how to get the data")
	require.Contains(t, tb.skipped, "neo-vm")
	require.Empty(t, tb.failed)

	t.Setenv("CI", "true")
	tb = &outcomeTB{TB: t}
	require.Empty(t, runExternal(tb))
	require.Empty(t, tb.skipped)
	require.Contains(t, tb.failed, "CI=true")
}

func TestExternalFromEnv(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "neovm"), 0o755))
	t.Setenv(EnvDir, dir)
	require.Equal(t, filepath.Join(dir, "neovm"), Dir(t, "neovm"))
}

// TestChainsInRepo: with no external folder (and CI=true, so a lookup
// there fails rather than skips) every chains path is the in-repo copy.
func TestChainsInRepo(t *testing.T) {
	t.Setenv(EnvDir, filepath.Join(t.TempDir(), "absent"))
	t.Setenv("CI", "true")
	root, err := moduleRoot()
	require.NoError(t, err)
	require.Equal(t, filepath.Join(root, "internal", "conformance", "testdata", "chains"), Dir(t, "chains"))
	require.Equal(t, filepath.Join(root, "internal", "conformance", "testdata"), Dir(t))
	// A sub path given in one piece resolves the same way.
	require.Equal(t, filepath.Join(root, "internal", "conformance", "testdata", "chains", "testblocks", "summary.json"),
		Dir(t, filepath.FromSlash("chains/testblocks/summary.json")))
	require.ElementsMatch(t, []string{"chain50x2", "testblocks"}, Chains(t))
}
