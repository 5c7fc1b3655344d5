package mpt

import (
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/util"
)

// DecodeNode decodes one stored node: a branch, an extension or a leaf in
// canonical form. It is strict, so that the encoding of the result is exactly
// data (and its hash is the hash of data):
//   - children are references only: EmptyT, or HashT and 32 bytes; an
//     extension's next is never empty;
//   - an extension's key is 1..136 nibbles, each below 16;
//   - a leaf value is at most MaxValueLength bytes;
//   - lengths use the shortest var-int form, and no byte may follow the node.
//
// The result does not alias data.
func DecodeNode(data []byte) (Node, error) {
	if len(data) == 0 {
		return nil, fmt.Errorf("%w: empty input", ErrInvalidNode)
	}
	var (
		n   Node
		pos int
		err error
	)
	switch NodeType(data[0]) {
	case BranchT:
		n, pos, err = decodeBranch(data)
	case ExtensionT:
		n, pos, err = decodeExtension(data)
	case LeafT:
		n, pos, err = decodeLeaf(data)
	default:
		return nil, fmt.Errorf("%w: node type %#x", ErrInvalidNode, data[0])
	}
	if err != nil {
		return nil, err
	}
	if pos != len(data) {
		return nil, fmt.Errorf("%w: %d trailing bytes", ErrInvalidNode, len(data)-pos)
	}
	return n, nil
}

func decodeBranch(data []byte) (Node, int, error) {
	b := new(BranchNode)
	// One allocation for all the hash children.
	hs := make([]HashNode, 0, countHashRefs(data[1:]))
	pos := 1
	for i := range b.children {
		h, empty, next, err := decodeRef(data, pos)
		if err != nil {
			return nil, 0, fmt.Errorf("branch child %d: %w", i, err)
		}
		if !empty {
			hs = append(hs, HashNode{hash: h})
			b.children[i] = &hs[len(hs)-1]
		}
		pos = next
	}
	return b, pos, nil
}

// countHashRefs counts the hash references among the (at most 17) child
// references at the start of data, stopping at anything else.
func countHashRefs(data []byte) int {
	n := 0
	for i := 0; i < branchSlots && len(data) > 0; i++ {
		switch NodeType(data[0]) {
		case EmptyT:
			data = data[1:]
		case HashT:
			n++
			data = data[min(childEncLen, len(data)):]
		default:
			return n
		}
	}
	return n
}

func decodeExtension(data []byte) (Node, int, error) {
	n, pos, err := decodeVarLen(data, 1, maxPathLength)
	if err != nil {
		return nil, 0, fmt.Errorf("extension key: %w", err)
	}
	if n == 0 {
		return nil, 0, fmt.Errorf("%w: empty extension key", ErrInvalidNode)
	}
	key := make([]byte, n)
	copy(key, data[pos:pos+n])
	for _, k := range key {
		if k > 0x0f {
			return nil, 0, fmt.Errorf("%w: extension key nibble %#x", ErrInvalidNode, k)
		}
	}
	h, empty, end, err := decodeRef(data, pos+n)
	if err != nil {
		return nil, 0, fmt.Errorf("extension next: %w", err)
	}
	if empty {
		return nil, 0, fmt.Errorf("%w: extension to the empty node", ErrInvalidNode)
	}
	return &ExtensionNode{key: key, next: &HashNode{hash: h}}, end, nil
}

func decodeLeaf(data []byte) (Node, int, error) {
	n, pos, err := decodeVarLen(data, 1, MaxValueLength)
	if err != nil {
		return nil, 0, fmt.Errorf("leaf value: %w", err)
	}
	v := make([]byte, n)
	copy(v, data[pos:pos+n])
	return &LeafNode{value: v}, pos + n, nil
}

// decodeRef decodes a child reference at data[pos:]: the empty node or a
// hash.
func decodeRef(data []byte, pos int) (h util.Uint256, empty bool, next int, err error) {
	if pos >= len(data) {
		return h, false, 0, fmt.Errorf("%w: truncated", ErrInvalidNode)
	}
	switch NodeType(data[pos]) {
	case EmptyT:
		return h, true, pos + 1, nil
	case HashT:
		if len(data)-pos < childEncLen {
			return h, false, 0, fmt.Errorf("%w: truncated hash", ErrInvalidNode)
		}
		copy(h[:], data[pos+1:pos+childEncLen])
		return h, false, pos + childEncLen, nil
	default:
		return h, false, 0, fmt.Errorf("%w: child type %#x", ErrInvalidNode, data[pos])
	}
}

// decodeVarLen decodes a canonical var-int length at data[pos:], checks it
// against limit and against the bytes left, and returns it with the position
// of the first byte after the var-int.
func decodeVarLen(data []byte, pos, limit int) (int, int, error) {
	if pos >= len(data) {
		return 0, 0, fmt.Errorf("%w: truncated length", ErrInvalidNode)
	}
	var (
		v    uint64
		size int
	)
	switch b := data[pos]; b {
	case 0xfd:
		size = 3
	case 0xfe:
		size = 5
	case 0xff:
		size = 9
	default:
		v, size = uint64(b), 1
	}
	if len(data)-pos < size {
		return 0, 0, fmt.Errorf("%w: truncated length", ErrInvalidNode)
	}
	switch size {
	case 3:
		v = uint64(binary.LittleEndian.Uint16(data[pos+1:]))
	case 5:
		v = uint64(binary.LittleEndian.Uint32(data[pos+1:]))
	case 9:
		v = binary.LittleEndian.Uint64(data[pos+1:])
	}
	if varUintSize(v) != size {
		return 0, 0, fmt.Errorf("%w: non-canonical length", ErrInvalidNode)
	}
	if v > uint64(limit) {
		return 0, 0, fmt.Errorf("%w: length %d over %d", ErrInvalidNode, v, limit)
	}
	pos += size
	if uint64(len(data)-pos) < v {
		return 0, 0, fmt.Errorf("%w: truncated data", ErrInvalidNode)
	}
	return int(v), pos, nil
}

// decodeStored decodes a node read from the store under hash h and marks it
// committed with that hash.
func decodeStored(s storedNode, h util.Uint256) (Node, *nodeMeta, error) {
	n, err := DecodeNode(s.enc)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: node %s: %w", ErrCorrupted, h, err)
	}
	m := n.meta()
	m.hash = h
	m.flags = flagHashed | flagCommitted
	m.count = s.count
	return n, m, nil
}

// varUintSize returns the size of the canonical var-int encoding of v.
func varUintSize(v uint64) int {
	switch {
	case v < 0xfd:
		return 1
	case v <= 0xffff:
		return 3
	case v <= 0xffffffff:
		return 5
	default:
		return 9
	}
}
