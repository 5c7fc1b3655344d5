package message

import (
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
	out := conformance.ReadJSONL[chainBlock](t, filepath.Join(conformance.Dir(t, "chains", chain), "blocks.jsonl"))
	require.NotEmpty(t, out)
	return out
}
