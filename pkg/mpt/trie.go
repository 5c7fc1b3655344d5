package mpt

import (
	"bytes"
	"fmt"

	"github.com/n3d-io/n3d/pkg/util"
)

// Trie is a Merkle Patricia trie over a node Store. It is not safe for
// concurrent use: one goroutine (the block persister) owns it.
//
// Changes (Put, Delete, PutBatch) only touch the in-memory nodes; hashes are
// computed lazily (StateRoot, GetProof, Flush) and only for changed nodes;
// Flush writes the changed nodes to the store and updates reference counts.
// Nodes read from the store stay in memory, resolved, until Collapse.
//
// If a method returns a storage error or ErrCorrupted, the in-memory trie may
// be left half-updated: discard it and open a new one at the last good root.
type Trie struct {
	cfg  Config
	root Node
	// refs holds, in the reference-counted modes, the reference count
	// changes since the last Flush: -1 for each committed node replaced or
	// dropped; Flush nets a new node against them when its hash is there,
	// and otherwise counts it in the store directly.
	refs map[util.Uint256]refDelta
	// index is the block index of the Flush in progress.
	index uint32
	// epoch numbers the flush cycles: node counts read in this cycle are
	// still the stored ones (only Flush writes).
	epoch uint32
}

// refDelta is a pending reference count change of one node.
type refDelta struct {
	enc   []byte // encoding of a node added by this flush; nil for removals
	delta int32
	// count is the stored count, when known (a node read this cycle).
	count uint32
	known bool
}

// New returns a trie whose root is the node with hash root, read from
// cfg.Store as needed. The zero hash stands for the empty trie.
func New(root util.Uint256, cfg Config) (*Trie, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	t := &Trie{cfg: cfg, epoch: 1}
	if !root.IsZero() {
		t.root = &HashNode{hash: root}
	}
	if cfg.Mode.refCounted() {
		t.refs = make(map[util.Uint256]refDelta)
	}
	return t, nil
}

// SetStore switches the trie to another store layer, such as the write
// cache of the next block. The new store must hold every node the trie has
// flushed so far (typically it is a layer over the old one).
func (t *Trie) SetStore(s Store) { t.cfg.Store = s }

// StateRoot returns the root hash of the current content (the zero hash for
// an empty trie), hashing the changed nodes if needed. It does not write.
func (t *Trie) StateRoot() util.Uint256 {
	if t.root == nil {
		return util.Uint256{}
	}
	return t.root.Hash()
}

// Get returns a copy of the value stored at key, or ErrNotFound.
func (t *Trie) Get(key []byte) ([]byte, error) {
	l, err := t.findLeaf(key, nil)
	if err != nil {
		return nil, err
	}
	return bytes.Clone(l.value), nil
}

// findLeaf walks from the root to key's leaf, resolving hash nodes on the
// way, and returns ErrNotFound when key has no value. With proof non-nil
// it appends the encoding of every branch and extension node it passes.
func (t *Trie) findLeaf(key []byte, proof *[][]byte) (*LeafNode, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	var pbuf [maxPathLength]byte
	path := toNibbles(pbuf[:0], key)
	slot := &t.root
	for {
		switch n := (*slot).(type) {
		case nil:
			return nil, ErrNotFound
		case *HashNode:
			r, err := t.resolve(n)
			if err != nil {
				return nil, err
			}
			*slot = r
		case *LeafNode:
			if len(path) != 0 {
				return nil, ErrNotFound
			}
			return n, nil
		case *BranchNode:
			if proof != nil {
				*proof = append(*proof, n.Bytes())
			}
			i := valueSlot
			if len(path) != 0 {
				i, path = int(path[0]), path[1:]
			}
			slot = &n.children[i]
		case *ExtensionNode:
			if !bytes.HasPrefix(path, n.key) {
				return nil, ErrNotFound
			}
			if proof != nil {
				*proof = append(*proof, n.Bytes())
			}
			path = path[len(n.key):]
			slot = &n.next
		}
	}
}

// Put stores value at key. The trie keeps value: do not modify it later.
func (t *Trie) Put(key, value []byte) error {
	var b Batch
	if err := b.Put(key, value); err != nil {
		return err
	}
	return t.PutBatch(&b)
}

// Delete removes key; deleting a missing key is not an error.
func (t *Trie) Delete(key []byte) error {
	var b Batch
	if err := b.Delete(key); err != nil {
		return err
	}
	return t.PutBatch(&b)
}

// Collapse replaces every committed node deeper than depth by its hash, to
// bound the memory the trie holds; they are read again from the store when
// needed. Changed nodes are kept. Collapse(0) keeps only the root's hash.
func (t *Trie) Collapse(depth int) {
	t.root = collapse(t.root, depth)
}

func collapse(n Node, depth int) Node {
	if n == nil {
		return nil
	}
	m := n.meta()
	if m == nil { // already a hash node
		return n
	}
	if depth <= 0 && m.flags&flagCommitted != 0 {
		return &HashNode{hash: m.hash}
	}
	switch n := n.(type) {
	case *BranchNode:
		for i, c := range n.children {
			n.children[i] = collapse(c, depth-1)
		}
	case *ExtensionNode:
		n.next = collapse(n.next, depth-1)
	}
	return n
}

// resolve reads the node a hash node stands for.
func (t *Trie) resolve(h *HashNode) (Node, error) {
	s, ok, err := t.cfg.getStored(h.hash, true)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrMissingNode, h.hash)
	}
	n, m, err := decodeStored(s, h.hash)
	if err == nil {
		m.epoch = t.epoch
	}
	return n, err
}

// dirty marks n as about to change. A committed node loses its place in the
// store's reference count.
func (t *Trie) dirty(n Node) {
	m := n.meta()
	if m.flags&flagCommitted != 0 && t.refs != nil {
		r := t.refs[m.hash]
		r.delta--
		if m.epoch == t.epoch {
			r.count, r.known = m.count, true
		}
		t.refs[m.hash] = r
	}
	m.flags = 0
}

// discard drops n from the trie.
func (t *Trie) discard(n Node) {
	if h, ok := n.(*HashNode); ok {
		if t.refs != nil {
			r := t.refs[h.hash]
			r.delta--
			t.refs[h.hash] = r
		}
		return
	}
	t.dirty(n)
}

func checkKey(key []byte) error {
	if len(key) == 0 || len(key) > MaxKeyLength {
		return fmt.Errorf("%w: length %d", ErrBadKey, len(key))
	}
	return nil
}
