package payload

import (
	"bytes"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func TestMPTInventoryRoundTrip(t *testing.T) {
	for _, n := range []int{0, 1, MaxMPTHashesCount} {
		p := &MPTInventory{Hashes: make([]util.Uint256, n)}
		for i := range p.Hashes {
			p.Hashes[i] = util.Uint256{byte(i), 31: 0xee}
		}
		raw := encode(t, p)
		require.Len(t, raw, p.Size())
		// var-int count then the hashes as they are (neo-go's WriteArray).
		require.Equal(t, byte(n), raw[0])
		var q MPTInventory
		require.NoError(t, decodeErr(raw, &q))
		require.Equal(t, len(p.Hashes), len(q.Hashes))
		require.Equal(t, raw, encode(t, &q))
	}
	over := &MPTInventory{Hashes: make([]util.Uint256, MaxMPTHashesCount+1)}
	require.Error(t, decodeErr(encode(t, over), new(MPTInventory)))
	// A count the input cannot hold.
	require.Error(t, decodeErr([]byte{5, 1, 2, 3}, new(MPTInventory)))
}

func TestMPTDataRoundTrip(t *testing.T) {
	p := &MPTData{Nodes: [][]byte{{0x04}, {0x02, 0x01, 0xaa}, bytes.Repeat([]byte{0x02}, MaxMPTNodeSize)}}
	raw := encode(t, p)
	require.Len(t, raw, p.Size())
	var q MPTData
	require.NoError(t, decodeErr(raw, &q))
	require.Equal(t, p.Nodes, q.Nodes)
	require.Equal(t, raw, encode(t, &q))

	require.ErrorIs(t, decodeErr([]byte{0}, new(MPTData)), ErrEmpty)
	require.ErrorIs(t, decodeErr([]byte{1, 0, 4}, new(MPTData)), ErrEmpty)
	big := encode(t, &MPTData{Nodes: [][]byte{make([]byte, MaxMPTNodeSize+1)}})
	require.Error(t, decodeErr(big, new(MPTData)))
	// 200 nodes announced in 10 bytes.
	require.Error(t, decodeErr(append([]byte{200}, make([]byte, 10)...), new(MPTData)))
}

// TestHeadersStateRoot: with the setting, headers carry the previous
// state root; without it the same bytes do not decode.
func TestHeadersStateRoot(t *testing.T) {
	h := testHeader()
	h.StateRootEnabled = true
	h.PrevStateRoot = util.Uint256{7, 31: 9}
	h.InvalidateCache()
	raw := encode(t, &Headers{Headers: []*block.Header{&h, &h}})
	p := &Headers{}
	p.SetStateRootInHeader(true)
	require.NoError(t, decodeErr(raw, p))
	require.Len(t, p.Headers, 2)
	require.Equal(t, h.PrevStateRoot, p.Headers[1].PrevStateRoot)
	require.Equal(t, h.Hash(), p.Headers[1].Hash())
	require.Error(t, decodeErr(raw, new(Headers)))

	mb := &MerkleBlock{Header: h, TxCount: 1, Hashes: []util.Uint256{{1}}, Flags: []byte{1}}
	var q MerkleBlock
	q.SetStateRootInHeader(true)
	require.NoError(t, decodeErr(encode(t, mb), &q))
	require.Equal(t, h.Hash(), q.Header.Hash())
}

func FuzzMPTInventory(f *testing.F) {
	fuzzDecoder[MPTInventory](f, &MPTInventory{Hashes: []util.Uint256{{1}, {2}}})
}

func FuzzMPTData(f *testing.F) {
	fuzzDecoder[MPTData](f, &MPTData{Nodes: [][]byte{{0x04}, {0x02, 0x01, 0xaa}}})
}

var _ io.Serializable = (*MPTData)(nil)
