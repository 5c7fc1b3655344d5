package payload

import (
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/capability"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// fuzzDecoder checks that decoding arbitrary bytes never panics, stays
// within the input, and that whatever decodes re-encodes to bytes that
// decode to the same encoding (the input may be non-canonical: var-ints).
func fuzzDecoder[T any, P interface {
	*T
	io.Serializable
}](f *testing.F, seeds ...io.Encodable) {
	for _, s := range seeds {
		f.Add(encode(f, s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var v T
		r := io.NewBinReaderFromBuf(b)
		P(&v).DecodeBinary(r)
		if r.Err != nil {
			return
		}
		once := encode(t, P(&v))
		require.LessOrEqual(t, len(once), len(b))
		var w T
		r = io.NewBinReaderFromBuf(once)
		P(&w).DecodeBinary(r)
		require.NoError(t, r.Err)
		require.Zero(t, r.Len())
		require.Equal(t, once, encode(t, P(&w)))
	})
}

func FuzzVersion(f *testing.F) {
	fuzzDecoder[Version](f, &Version{UserAgent: "/neo:3/", Capabilities: capability.Capabilities{
		capability.NewTCPServer(1), capability.NewFullNode(2), capability.NewArchivalNode(),
		capability.NewDisableCompression(), {Type: 0xf0, Data: []byte{1}}}})
}

func FuzzAddrList(f *testing.F) {
	fuzzDecoder[AddrList](f, &AddrList{Addrs: []NetworkAddress{{Timestamp: 1, IP: [16]byte{10: 0xff, 11: 0xff, 12: 1},
		Capabilities: capability.Capabilities{capability.NewTCPServer(10333)}}}})
}

func FuzzPing(f *testing.F) { fuzzDecoder[Ping](f, &Ping{1, 2, 3}) }

func FuzzInventory(f *testing.F) {
	fuzzDecoder[Inventory](f, &Inventory{Type: InvBlock, Hashes: []util.Uint256{{1}, {2}}})
}

func FuzzGetBlocks(f *testing.F) { fuzzDecoder[GetBlocks](f, &GetBlocks{Count: -1}) }

func FuzzGetBlockByIndex(f *testing.F) {
	fuzzDecoder[GetBlockByIndex](f, &GetBlockByIndex{IndexStart: 9, Count: 2000})
}

func FuzzHeaders(f *testing.F) {
	h := testHeader()
	fuzzDecoder[Headers](f, &Headers{Headers: []*block.Header{&h}})
}

func FuzzFilterLoad(f *testing.F) {
	fuzzDecoder[FilterLoad](f, &FilterLoad{Filter: []byte{1, 2}, K: 3, Tweak: 4})
}

func FuzzFilterAdd(f *testing.F) { fuzzDecoder[FilterAdd](f, &FilterAdd{Data: []byte{1}}) }

func FuzzMerkleBlock(f *testing.F) {
	fuzzDecoder[MerkleBlock](f, &MerkleBlock{Header: testHeader(), TxCount: 2, Hashes: []util.Uint256{{1}}, Flags: []byte{3}})
}

func FuzzExtensible(f *testing.F) {
	fuzzDecoder[Extensible](f, &Extensible{Category: "dBFT", ValidBlockStart: 1, ValidBlockEnd: 2,
		Data: []byte{1}, Witness: testWitness()})
}
