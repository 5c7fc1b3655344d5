package mpt

import (
	"bytes"
	"testing"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

func testHash(b byte) util.Uint256 {
	var h util.Uint256
	for i := range h {
		h[i] = b + byte(i)
	}
	return h
}

// sampleNodes returns nodes of every kind and size class.
func sampleNodes() []Node {
	full := new(BranchNode)
	for i := range full.children {
		full.children[i] = NewHashNode(testHash(byte(i)))
	}
	sparse := new(BranchNode)
	sparse.children[3] = NewHashNode(testHash(1))
	sparse.children[valueSlot] = NewHashNode(testHash(2))
	longKey := make([]byte, maxPathLength)
	for i := range longKey {
		longKey[i] = byte(i % 16)
	}
	return []Node{
		full,
		sparse,
		new(BranchNode),
		&ExtensionNode{key: []byte{0}, next: NewHashNode(testHash(3))},
		&ExtensionNode{key: longKey, next: NewHashNode(testHash(4))},
		&LeafNode{value: []byte{}},
		&LeafNode{value: []byte("value")},
		&LeafNode{value: bytes.Repeat([]byte{7}, 0xfc)},
		&LeafNode{value: bytes.Repeat([]byte{8}, 0xfd)},
		&LeafNode{value: bytes.Repeat([]byte{9}, MaxValueLength)},
	}
}

func TestNodeRoundTrip(t *testing.T) {
	for _, n := range sampleNodes() {
		enc := n.Bytes()
		require.Equal(t, byte(n.Type()), enc[0])
		d, err := DecodeNode(enc)
		require.NoError(t, err)
		require.Equal(t, n.Type(), d.Type())
		require.Equal(t, enc, d.Bytes())
		require.Equal(t, hash.DoubleSha256(enc), d.Hash())
		require.Equal(t, n.Hash(), d.Hash())
	}
}

func TestNodeEncodingLayout(t *testing.T) {
	// The layout facts the reference defines: tag byte, var-int lengths,
	// children as EmptyT or HashT ‖ 32-byte hash.
	h := testHash(5)
	b := new(BranchNode)
	b.children[0] = NewHashNode(h)
	enc := b.Bytes()
	require.Len(t, enc, 1+17+32)
	require.Equal(t, []byte{byte(BranchT), byte(HashT)}, enc[:2])
	require.Equal(t, h[:], enc[2:34])
	for _, c := range enc[34:] {
		require.Equal(t, byte(EmptyT), c)
	}
	e := &ExtensionNode{key: []byte{1, 2}, next: NewHashNode(h)}
	require.Equal(t, append([]byte{byte(ExtensionT), 2, 1, 2, byte(HashT)}, h[:]...), e.Bytes())
	l := &LeafNode{value: bytes.Repeat([]byte{1}, 300)}
	require.Equal(t, []byte{byte(LeafT), 0xfd, 0x2c, 0x01}, l.Bytes()[:4])
	require.Equal(t, append([]byte{byte(HashT)}, h[:]...), NewHashNode(h).Bytes())
}

func TestDecodeNodeErrors(t *testing.T) {
	h := testHash(1)
	hashRef := append([]byte{byte(HashT)}, h[:]...)
	empties := bytes.Repeat([]byte{byte(EmptyT)}, 17)
	cases := map[string][]byte{
		"empty input":         {},
		"unknown type":        {0x05},
		"hash node":           append([]byte{byte(HashT)}, h[:]...),
		"empty node":          {byte(EmptyT)},
		"branch truncated":    append([]byte{byte(BranchT)}, empties[:16]...),
		"branch bad child":    append([]byte{byte(BranchT), byte(LeafT)}, empties[:16]...),
		"branch trailing":     append(append([]byte{byte(BranchT)}, empties...), 0),
		"branch short hash":   append([]byte{byte(BranchT)}, hashRef[:20]...),
		"ext empty key":       append([]byte{byte(ExtensionT), 0}, hashRef...),
		"ext bad nibble":      append([]byte{byte(ExtensionT), 1, 0x10}, hashRef...),
		"ext to empty":        {byte(ExtensionT), 1, 1, byte(EmptyT)},
		"ext key too long":    append(append([]byte{byte(ExtensionT), 137}, make([]byte, 137)...), hashRef...),
		"ext no next":         {byte(ExtensionT), 1, 1},
		"leaf truncated":      {byte(LeafT), 5, 1, 2},
		"leaf no length":      {byte(LeafT)},
		"leaf short varint":   {byte(LeafT), 0xfd, 1},
		"leaf non-canonical":  {byte(LeafT), 0xfd, 1, 0, 7},
		"leaf too long":       {byte(LeafT), 0xfe, 0x04, 0x00, 0x01, 0x00},
		"leaf huge varint":    {byte(LeafT), 0xff, 0, 0, 0, 0, 1, 0, 0, 0},
		"leaf trailing bytes": {byte(LeafT), 1, 1, 1},
	}
	for name, data := range cases {
		_, err := DecodeNode(data)
		require.ErrorIs(t, err, ErrInvalidNode, name)
	}
}

func FuzzDecodeNode(f *testing.F) {
	for _, n := range sampleNodes() {
		if len(n.Bytes()) < 1000 {
			f.Add(n.Bytes())
		}
	}
	f.Add([]byte{byte(LeafT), 0xfd, 1, 0, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := DecodeNode(data)
		if err != nil {
			require.Nil(t, n)
			return
		}
		// Strict decoding: the node re-encodes to exactly the input, so
		// its hash is the hash of the input.
		require.Equal(t, data, n.Bytes())
		require.Equal(t, hash.DoubleSha256(data), n.Hash())
	})
}
