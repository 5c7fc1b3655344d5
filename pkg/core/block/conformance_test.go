package block_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"github.com/n3d-io/n3d/internal/conformance"
	"os"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/stretchr/testify/require"
)

// conformanceDir returns the reference data root holding chains/ (see
// internal/conformance).
func conformanceDir(t testing.TB) string {
	t.Helper()
	return conformance.Dir(t)
}

func chainDirs(t testing.TB) []string {
	dirs, err := filepath.Glob(filepath.Join(conformanceDir(t), "chains", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	return dirs
}

func readJSONL(t testing.TB, path string) []json.RawMessage {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var res []json.RawMessage
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			res = append(res, append(json.RawMessage(nil), sc.Bytes()...))
		}
	}
	require.NoError(t, sc.Err())
	return res
}

type blockLine struct {
	Index uint32          `json:"index"`
	Hash  string          `json:"hash"`
	Block json.RawMessage `json:"block"`
	Raw   string          `json:"raw"`
}

// nodeFields are the fields that depend on the answering node, not on the
// chain.
var nodeFields = []string{"confirmations", "nextblockhash"}

func parseTree(t testing.TB, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	require.NoError(t, d.Decode(&v))
	return v
}

func dropNodeFields(v any) any {
	m := v.(map[string]any)
	for _, f := range nodeFields {
		delete(m, f)
	}
	return m
}

func TestConformanceBlocks(t *testing.T) {
	for _, dir := range chainDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			lines := readJSONL(t, filepath.Join(dir, "blocks.jsonl"))
			for _, l := range lines {
				var bl blockLine
				require.NoError(t, json.Unmarshal(l, &bl))
				checkBlock(t, bl)
			}
		})
	}
}

func checkBlock(t *testing.T, bl blockLine) {
	raw, err := base64.StdEncoding.DecodeString(bl.Raw)
	require.NoError(t, err)
	b, err := block.NewBlockFromBytes(raw)
	require.NoError(t, err, "block %d", bl.Index)
	require.Equal(t, bl.Index, b.Index)
	require.Equal(t, bl.Hash, b.Hash().String(), "block %d hash", bl.Index)
	again, err := b.Bytes()
	require.NoError(t, err)
	require.Equal(t, raw, again, "block %d re-encoding", bl.Index)
	require.Equal(t, len(raw), b.Size())

	ours, err := json.Marshal(b)
	require.NoError(t, err)
	want := dropNodeFields(parseTree(t, bl.Block))
	require.Equal(t, want, parseTree(t, ours), "block %d JSON", bl.Index)
	checkKeyOrder(t, ours)

	// Transaction hashes from the reference JSON, and standalone decoding.
	refTxs := want.(map[string]any)["tx"].([]any)
	require.Len(t, b.Transactions, len(refTxs))
	for i, tx := range b.Transactions {
		require.Equal(t, refTxs[i].(map[string]any)["hash"], tx.Hash().String())
		txb, err := tx.Bytes()
		require.NoError(t, err)
		tx2, err := transaction.NewTransactionFromBytes(txb)
		require.NoError(t, err)
		require.Equal(t, tx.Hash(), tx2.Hash())
		require.Equal(t, len(txb), tx2.Size())
	}

	// The reference JSON parses back to the same block.
	var fromJSON block.Block
	require.NoError(t, json.Unmarshal(bl.Block, &fromJSON), "block %d", bl.Index)
	again, err = fromJSON.Bytes()
	require.NoError(t, err)
	require.Equal(t, raw, again, "block %d from JSON", bl.Index)
}

func TestConformanceHeaders(t *testing.T) {
	for _, dir := range chainDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			blocks := readJSONL(t, filepath.Join(dir, "blocks.jsonl"))
			headers := readJSONL(t, filepath.Join(dir, "headers.jsonl"))
			require.Len(t, headers, len(blocks))
			for i := range headers {
				var bl blockLine
				require.NoError(t, json.Unmarshal(blocks[i], &bl))
				raw, err := base64.StdEncoding.DecodeString(bl.Raw)
				require.NoError(t, err)
				b, err := block.NewBlockFromBytes(raw)
				require.NoError(t, err)

				ours, err := json.Marshal(&b.Header)
				require.NoError(t, err)
				want := dropNodeFields(parseTree(t, headers[i]))
				require.Equal(t, want, parseTree(t, ours), "header %d", i)
				checkKeyOrder(t, ours)

				var h block.Header
				require.NoError(t, json.Unmarshal(headers[i], &h))
				require.Equal(t, b.Hash(), h.Hash())
				require.Equal(t, b.Header.Size(), h.Size())
			}
		})
	}
}
