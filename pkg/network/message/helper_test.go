package message

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/stretchr/testify/require"
)

// chainBlock is one line of a reference chain's blocks.jsonl.
type chainBlock struct {
	Index uint32 `json:"index"`
	Hash  string `json:"hash"`
	Raw   []byte `json:"raw"`
	Block struct {
		Tx []struct {
			Hash string `json:"hash"`
		} `json:"tx"`
	} `json:"block"`
}

func loadChainBlocks(t testing.TB, chain string) []chainBlock {
	t.Helper()
	f, err := os.Open(filepath.Join(conformance.Dir(t, "chains", chain), "blocks.jsonl"))
	require.NoError(t, err)
	defer f.Close()
	var out []chainBlock
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var b chainBlock
		require.NoError(t, json.Unmarshal(sc.Bytes(), &b))
		out = append(out, b)
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, out)
	return out
}
