package chain

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/stretchr/testify/require"
)

// refBlock is one line of a chain's blocks.jsonl.
type refBlock struct {
	Index uint32 `json:"index"`
	Hash  string `json:"hash"`
	Raw   []byte `json:"raw"`
}

// loadProtocol loads the exact configuration a reference chain was made with.
func loadProtocol(t testing.TB, chainName string) config.Config {
	t.Helper()
	cfg, err := config.LoadFile(filepath.Join(conformance.Dir(t, "chains", chainName), "protocol.yml"), "")
	require.NoError(t, err)
	return cfg
}

// readJSONL decodes every line of a reference .jsonl file into a T.
func readJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	return decodeJSONL[T](t, f, path)
}

// decodeJSONL decodes every line of r (named path in messages) into a T.
func decodeJSONL[T any](t testing.TB, r io.Reader, path string) []T {
	t.Helper()
	var out []T
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		var v T
		require.NoError(t, json.Unmarshal(sc.Bytes(), &v), "%s line %d", path, len(out)+1)
		out = append(out, v)
	}
	require.NoError(t, sc.Err())
	return out
}

func refBlocks(t testing.TB, chainName string) []refBlock {
	return readJSONL[refBlock](t, filepath.Join(conformance.Dir(t, "chains", chainName), "blocks.jsonl"))
}
