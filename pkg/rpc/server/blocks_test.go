package server

import (
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/stretchr/testify/require"
)

type refBlockLine struct {
	Index uint32          `json:"index"`
	Hash  string          `json:"hash"`
	Block json.RawMessage `json:"block"`
	Raw   string          `json:"raw"`
}

// The reference chains are exactly as long as ours, so confirmations and
// nextblockhash are compared too.
func TestGetBlock(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		blocks := conformance.ReadJSONL[refBlockLine](t, filepath.Join(n.dir, "blocks.jsonl"))
		require.Len(t, blocks, int(n.chain.BlockHeight())+1)
		for _, b := range blocks {
			got := n.result(t, "getblock", b.Index, true)
			requireJSON(t, b.Block, got, "block %d", b.Index)
			require.Equal(t, []string{"hash", "size", "version", "previousblockhash", "merkleroot", "time", "nonce",
				"index", "primary", "nextconsensus", "witnesses", "tx", "confirmations", "nextblockhash"}[:len(keyOrder(t, got))],
				keyOrder(t, got))
			requireJSON(t, b.Block, n.result(t, "getblock", b.Hash, 1), "block %s", b.Hash)
			requireJSON(t, []byte(`"`+b.Raw+`"`), n.result(t, "getblock", b.Index), "raw block %d", b.Index)
			requireJSON(t, []byte(`"`+b.Raw+`"`), n.result(t, "getblock", strings.TrimPrefix(b.Hash, "0x"), false))
			requireJSON(t, []byte(`"`+b.Hash+`"`), n.result(t, "getblockhash", b.Index))
		}
		last := blocks[len(blocks)-1]
		requireJSON(t, []byte(`"`+last.Hash+`"`), n.result(t, "getbestblockhash"))
		requireJSON(t, []byte(jsonNum(len(blocks))), n.result(t, "getblockcount"))
		requireJSON(t, []byte(jsonNum(len(blocks))), n.result(t, "getblockheadercount"))
	})
}

func jsonNum(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestGetBlockHeader(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		blocks := conformance.ReadJSONL[refBlockLine](t, filepath.Join(n.dir, "blocks.jsonl"))
		headers := conformance.ReadJSONL[json.RawMessage](t, filepath.Join(n.dir, "headers.jsonl"))
		require.Len(t, headers, len(blocks))
		for i, h := range headers {
			requireJSON(t, h, n.result(t, "getblockheader", i, true), "header %d", i)
			requireJSON(t, h, n.result(t, "getblockheader", blocks[i].Hash, true), "header %d", i)
			// The raw header is the block's bytes up to its transactions.
			raw, err := base64.StdEncoding.DecodeString(blocks[i].Raw)
			require.NoError(t, err)
			b, err := block.NewBlockFromBytes(raw)
			require.NoError(t, err)
			var hdrB64 string
			require.NoError(t, json.Unmarshal(n.result(t, "getblockheader", i), &hdrB64))
			hdr, err := base64.StdEncoding.DecodeString(hdrB64)
			require.NoError(t, err)
			require.Equal(t, raw[:b.Header.Size()], hdr)
		}
	})
}

func TestBlockSysFee(t *testing.T) {
	forChains(t, func(t *testing.T, n *testNode) {
		blocks := conformance.ReadJSONL[refBlockLine](t, filepath.Join(n.dir, "blocks.jsonl"))
		for _, b := range blocks {
			var ref struct {
				Tx []struct {
					SysFee string `json:"sysfee"`
				} `json:"tx"`
			}
			require.NoError(t, json.Unmarshal(b.Block, &ref))
			var sum int64
			for _, tx := range ref.Tx {
				var f int64
				require.NoError(t, json.Unmarshal([]byte(tx.SysFee), &f))
				sum += f
			}
			requireJSON(t, []byte(`"`+jsonNum(int(sum))+`"`), n.result(t, "getblocksysfee", b.Index))
		}
	})
}
