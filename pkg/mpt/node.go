package mpt

import (
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
)

// NodeType is the tag byte that starts every encoded node.
type NodeType byte

// Node types, as tagged in the encoding.
const (
	BranchT    NodeType = 0x00
	ExtensionT NodeType = 0x01
	LeafT      NodeType = 0x02
	HashT      NodeType = 0x03
	EmptyT     NodeType = 0x04
)

const (
	// MaxKeyLength is the longest key (in bytes) the trie accepts: a 4-byte
	// contract id and a 64-byte storage key.
	MaxKeyLength = 4 + 64
	// MaxValueLength is the longest leaf value the trie accepts.
	MaxValueLength = 3 + 65535 + 1
	// maxPathLength is the longest path in nibbles.
	maxPathLength = 2 * MaxKeyLength

	// branchSlots is the number of children of a branch: 16 nibbles and the
	// value slot for the key that ends at the branch.
	branchSlots = 17
	valueSlot   = branchSlots - 1

	// childEncLen is the size of a non-empty child reference.
	childEncLen = 1 + util.Uint256Size
	// branchMaxEnc is the size of a branch encoding with every slot used.
	branchMaxEnc = 1 + branchSlots*childEncLen
	// extMaxEnc is the size of the largest extension encoding.
	extMaxEnc = 1 + 3 + maxPathLength + childEncLen
)

// Node is one node of the trie: *BranchNode, *ExtensionNode, *LeafNode or
// *HashNode (a node known only by its hash). The empty node is nil.
type Node interface {
	// Type returns the node's tag.
	Type() NodeType
	// Hash returns the double SHA-256 of the node's encoding. It is computed
	// once and cached until the node changes.
	Hash() util.Uint256
	// Bytes returns the node's canonical encoding in a fresh slice.
	Bytes() []byte

	appendTo(dst []byte) []byte
	meta() *nodeMeta
}

// Node state flags.
const (
	// flagHashed: nodeMeta.hash is the hash of the current content.
	flagHashed uint8 = 1 << iota
	// flagCommitted: the node, with this hash, is in the store and counted
	// in its reference count; every descendant is committed too.
	flagCommitted
)

// nodeMeta is the cached hash and the state of a full node.
type nodeMeta struct {
	hash  util.Uint256
	flags uint8
	// count is the node's stored reference count as read from the store in
	// flush cycle epoch (reference-counted modes); only valid in that cycle.
	epoch uint32
	count uint32
}

func (m *nodeMeta) meta() *nodeMeta { return m }

// BranchNode has one child per nibble and a value slot (index 16) for the
// key that ends here. A canonical branch has at least two children.
type BranchNode struct {
	nodeMeta
	children [branchSlots]Node
}

// ExtensionNode holds a shared path (in nibbles, never empty) leading to a
// branch or a leaf.
type ExtensionNode struct {
	nodeMeta
	key  []byte
	next Node
}

// LeafNode holds a value.
type LeafNode struct {
	nodeMeta
	value []byte
}

// HashNode stands for a node that is known only by its hash: in the store,
// or still to be fetched.
type HashNode struct {
	hash util.Uint256
}

// NewHashNode returns a node standing for the node with hash h.
func NewHashNode(h util.Uint256) *HashNode { return &HashNode{hash: h} }

// Child returns the child in slot i (0..15 for nibbles, 16 for the value
// slot); nil is the empty node.
func (b *BranchNode) Child(i int) Node { return b.children[i] }

// Key returns the extension's path in nibbles; do not modify it.
func (e *ExtensionNode) Key() []byte { return e.key }

// Next returns the node the extension leads to.
func (e *ExtensionNode) Next() Node { return e.next }

// Value returns the leaf's value; do not modify it.
func (l *LeafNode) Value() []byte { return l.value }

// Type implements Node.
func (*BranchNode) Type() NodeType { return BranchT }

// Type implements Node.
func (*ExtensionNode) Type() NodeType { return ExtensionT }

// Type implements Node.
func (*LeafNode) Type() NodeType { return LeafT }

// Type implements Node.
func (*HashNode) Type() NodeType { return HashT }

// Hash implements Node.
func (b *BranchNode) Hash() util.Uint256 {
	if b.flags&flagHashed == 0 {
		var buf [branchMaxEnc]byte
		b.hash = hash.DoubleSha256(b.appendTo(buf[:0]))
		b.flags |= flagHashed
	}
	return b.hash
}

// Hash implements Node.
func (e *ExtensionNode) Hash() util.Uint256 {
	if e.flags&flagHashed == 0 {
		var buf [extMaxEnc]byte
		e.hash = hash.DoubleSha256(e.appendTo(buf[:0]))
		e.flags |= flagHashed
	}
	return e.hash
}

// Hash implements Node.
func (l *LeafNode) Hash() util.Uint256 {
	if l.flags&flagHashed == 0 {
		var buf [256]byte // most values fit; larger ones go to the heap
		l.hash = hash.DoubleSha256(l.appendTo(buf[:0]))
		l.flags |= flagHashed
	}
	return l.hash
}

// Hash implements Node.
func (h *HashNode) Hash() util.Uint256 { return h.hash }

// Bytes implements Node.
func (b *BranchNode) Bytes() []byte { return b.appendTo(make([]byte, 0, b.encLen())) }

// Bytes implements Node.
func (e *ExtensionNode) Bytes() []byte { return e.appendTo(make([]byte, 0, e.encLen())) }

// Bytes implements Node.
func (l *LeafNode) Bytes() []byte { return l.appendTo(make([]byte, 0, l.encLen())) }

// Bytes implements Node.
func (h *HashNode) Bytes() []byte { return h.appendTo(make([]byte, 0, childEncLen)) }

func (h *HashNode) meta() *nodeMeta { return nil }

func (b *BranchNode) encLen() int {
	n := 1 + branchSlots
	for _, c := range b.children {
		if c != nil {
			n += util.Uint256Size
		}
	}
	return n
}

func (e *ExtensionNode) encLen() int { return 1 + varSize(len(e.key)) + len(e.key) + childEncLen }

func (l *LeafNode) encLen() int { return 1 + varSize(len(l.value)) + len(l.value) }

func (b *BranchNode) appendTo(dst []byte) []byte {
	dst = append(dst, byte(BranchT))
	for _, c := range b.children {
		dst = appendChild(dst, c)
	}
	return dst
}

func (e *ExtensionNode) appendTo(dst []byte) []byte {
	dst = append(dst, byte(ExtensionT))
	dst = appendVarUint(dst, uint64(len(e.key)))
	dst = append(dst, e.key...)
	return appendChild(dst, e.next)
}

func (l *LeafNode) appendTo(dst []byte) []byte {
	dst = append(dst, byte(LeafT))
	dst = appendVarUint(dst, uint64(len(l.value)))
	return append(dst, l.value...)
}

func (h *HashNode) appendTo(dst []byte) []byte {
	dst = append(dst, byte(HashT))
	return append(dst, h.hash[:]...)
}

// appendChild appends the reference to a child: EmptyT for nil, otherwise
// HashT and the child's hash.
func appendChild(dst []byte, c Node) []byte {
	if c == nil {
		return append(dst, byte(EmptyT))
	}
	h := c.Hash()
	dst = append(dst, byte(HashT))
	return append(dst, h[:]...)
}

func varSize(n int) int {
	switch {
	case n < 0xfd:
		return 1
	case n <= 0xffff:
		return 3
	default:
		return 5
	}
}

func appendVarUint(dst []byte, v uint64) []byte {
	switch {
	case v < 0xfd:
		return append(dst, byte(v))
	case v <= 0xffff:
		return append(dst, 0xfd, byte(v), byte(v>>8))
	case v <= 0xffffffff:
		return append(dst, 0xfe, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	default:
		return append(dst, 0xff, byte(v), byte(v>>8), byte(v>>16), byte(v>>24),
			byte(v>>32), byte(v>>40), byte(v>>48), byte(v>>56))
	}
}

// toNibbles appends the nibbles of key (high half first) to dst.
func toNibbles(dst, key []byte) []byte {
	for _, b := range key {
		dst = append(dst, b>>4, b&0x0f)
	}
	return dst
}

// fromNibbles packs an even-length nibble path back into bytes.
func fromNibbles(path []byte) []byte {
	res := make([]byte, len(path)/2)
	for i := range res {
		res[i] = path[2*i]<<4 | path[2*i+1]
	}
	return res
}

// commonPrefix returns the length of the longest common prefix of a and b.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
