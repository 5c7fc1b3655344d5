package block_test

import (
	"encoding/json"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func newSRBlock(ntx int) *block.Block {
	b := newBlock(ntx)
	b.StateRootEnabled = true
	b.PrevStateRoot = util.Uint256{0xaa, 0xbb, 31: 0xcc}
	b.InvalidateCache()
	return b
}

// TestStateRootInHeaderRoundTrip: with StateRootInHeader the previous
// state root follows NextConsensus in the hashed part (neo-go's layout),
// the header is 32 bytes longer, and a decoder must be told the setting.
func TestStateRootInHeaderRoundTrip(t *testing.T) {
	for _, n := range []int{0, 2} {
		b := newSRBlock(n)
		raw := mustBytes(t, b)
		require.Equal(t, len(raw), b.Size())
		require.Equal(t, len(mustBytes(t, newBlock(n)))+util.Uint256Size, len(raw))
		unsigned := raw[:block.UnsignedHeaderSize+util.Uint256Size]
		require.Equal(t, b.PrevStateRoot[:], unsigned[block.UnsignedHeaderSize:])
		require.Equal(t, hash.Sha256(unsigned), b.Hash())
		require.NotEqual(t, newBlock(n).Hash(), b.Hash())

		dec, err := block.NewBlockFromBytesSR(raw, true)
		require.NoError(t, err)
		require.True(t, dec.StateRootEnabled)
		require.Equal(t, b.PrevStateRoot, dec.PrevStateRoot)
		require.Equal(t, b.Hash(), dec.Hash())
		require.Equal(t, raw, mustBytes(t, dec))

		// Without the setting the bytes do not decode as a block.
		_, err = block.NewBlockFromBytes(raw)
		require.Error(t, err)
		// Nor does a plain block with it.
		_, err = block.NewBlockFromBytesSR(mustBytes(t, newBlock(n)), true)
		require.Error(t, err)

		// Trimmed form (the ledger's record) keeps the root.
		tr := dec.Trim()
		w := io.NewBufBinWriter()
		tr.EncodeBinary(w.BinWriter)
		require.NoError(t, w.Err)
		require.Equal(t, w.Len(), tr.Size())
		tr2 := &block.Trimmed{Header: block.Header{StateRootEnabled: true}}
		r := io.NewBinReaderFromBuf(w.Bytes())
		tr2.DecodeBinary(r)
		require.NoError(t, r.Err)
		require.Equal(t, b.Hash(), tr2.Hash())
		require.Equal(t, b.PrevStateRoot, tr2.PrevStateRoot)
	}
}

// TestStateRootInHeaderJSON: "previousstateroot" (neo-go's key) is written
// only with the setting and read back into it.
func TestStateRootInHeaderJSON(t *testing.T) {
	b := newSRBlock(1)
	js, err := json.Marshal(b)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(js, &m))
	require.Equal(t, b.PrevStateRoot.String(), m["previousstateroot"])
	var back block.Block
	require.NoError(t, json.Unmarshal(js, &back))
	require.True(t, back.StateRootEnabled)
	require.Equal(t, b.Hash(), back.Hash())

	js, err = json.Marshal(newBlock(1))
	require.NoError(t, err)
	require.NotContains(t, string(js), "previousstateroot")
}

func FuzzHeaderStateRoot(f *testing.F) {
	b := newSRBlock(0)
	f.Add(mustBytes(f, b)[:b.Header.Size()])
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := block.NewHeaderFromBytesSR(data, true)
		if err != nil {
			return
		}
		w := io.NewBufBinWriter()
		h.EncodeBinary(w.BinWriter)
		require.NoError(t, w.Err)
		h2, err := block.NewHeaderFromBytesSR(w.Bytes(), true)
		require.NoError(t, err)
		require.Equal(t, h.Hash(), h2.Hash())
		require.Equal(t, h.PrevStateRoot, h2.PrevStateRoot)
	})
}
