package mpt

import (
	"fmt"
	"slices"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
)

// Restorer rebuilds a trie of a known root from nodes that arrive later, in
// any order (state synchronisation: nodes are fetched from peers by hash).
// It keeps only the frontier: the hashes still missing and the paths where
// each of them sits. A node offered with AddNode is checked against its hash,
// written to the store (counting one reference per path in the
// reference-counted modes, so the result is the same as if the trie had been
// built by Flush), and its children join the frontier; children already in
// the store are walked at once. Every leaf reached is reported to the leaf
// callback with its key, so the caller can fill the contract storage.
//
// A Restorer is not safe for concurrent use. If the process stops, persist
// the store (nodes and the leaves written by the callback) atomically; a new
// Restorer over that store resumes by walking the stored part of the trie.
type Restorer struct {
	cfg     Config
	root    util.Uint256
	pending map[util.Uint256][][]byte
	onLeaf  func(key, value []byte) error
}

// NewRestorer returns a restorer of the trie with the given root. onLeaf is
// called once for every key of the trie (key and value must not be kept
// without copying). The part of the trie already in cfg.Store is walked to
// find the frontier.
func NewRestorer(root util.Uint256, cfg Config, onLeaf func(key, value []byte) error) (*Restorer, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if root.IsZero() {
		return nil, fmt.Errorf("%w: zero root", ErrBadConfig)
	}
	r := &Restorer{
		cfg:     cfg,
		root:    root,
		pending: make(map[util.Uint256][][]byte),
		onLeaf:  onLeaf,
	}
	if err := r.scan(root, nil); err != nil {
		return nil, err
	}
	return r, nil
}

// Done reports whether every node of the trie is in the store.
func (r *Restorer) Done() bool { return len(r.pending) == 0 }

// Pending returns the number of node hashes still missing.
func (r *Restorer) Pending() int { return len(r.pending) }

// Missing returns up to limit hashes of missing nodes, in no particular
// order; fetch them and pass them to AddNode.
func (r *Restorer) Missing(limit int) []util.Uint256 {
	if limit <= 0 {
		return nil
	}
	res := make([]util.Uint256, 0, min(limit, len(r.pending)))
	for h := range r.pending {
		if len(res) == limit {
			break
		}
		res = append(res, h)
	}
	return res
}

// AddNode takes the encoding of a node. It returns false (and no error) when
// no missing node has this hash, for instance when a peer sends a node twice;
// an undecodable node or a node that does not fit its place fails.
func (r *Restorer) AddNode(data []byte) (bool, error) {
	h := hash.DoubleSha256(data)
	paths, ok := r.pending[h]
	if !ok {
		return false, nil
	}
	n, err := DecodeNode(data)
	if err != nil {
		return false, fmt.Errorf("%w: node %s: %w", ErrRestore, h, err)
	}
	delete(r.pending, h)
	if err := r.place(h, n, data, paths, false); err != nil {
		r.pending[h] = paths
		return false, err
	}
	return true, nil
}

// place stores node n (hash h, encoding enc, not to be kept) found at paths
// and moves on to its children; stored says the store has the node already.
func (r *Restorer) place(h util.Uint256, n Node, enc []byte, paths [][]byte, stored bool) error {
	var err error
	switch {
	case r.cfg.Mode.refCounted():
		err = r.cfg.updateCount(h, enc, false, int64(len(paths)), 0)
	case !stored:
		if err = r.cfg.Store.Put(r.cfg.nodeKey(h), slices.Clone(enc)); err != nil {
			err = fmt.Errorf("mpt: writing node %s: %w", h, err)
		}
	}
	if err != nil {
		return err
	}
	return r.visit(n, paths, r.want)
}

// visit calls next for every child of n with the children's paths, or the
// leaf callback for every path of a leaf.
func (r *Restorer) visit(n Node, paths [][]byte, next func(util.Uint256, [][]byte) error) error {
	switch n := n.(type) {
	case *LeafNode:
		for _, p := range paths {
			if len(p)%2 != 0 {
				return fmt.Errorf("%w: leaf at odd path %x", ErrRestore, p)
			}
			if r.onLeaf == nil {
				continue
			}
			if err := r.onLeaf(fromNibbles(p), n.value); err != nil {
				return fmt.Errorf("mpt: leaf callback: %w", err)
			}
		}
	case *BranchNode:
		for i, c := range n.children {
			if c == nil {
				continue
			}
			var suffix []byte
			if i != valueSlot {
				suffix = []byte{byte(i)}
			}
			if err := r.descend(c.Hash(), paths, suffix, next); err != nil {
				return err
			}
		}
	case *ExtensionNode:
		return r.descend(n.next.Hash(), paths, n.key, next)
	}
	return nil
}

func (r *Restorer) descend(h util.Uint256, paths [][]byte, suffix []byte,
	next func(util.Uint256, [][]byte) error) error {
	child := make([][]byte, len(paths))
	for i, p := range paths {
		if len(p)+len(suffix) > maxPathLength {
			return fmt.Errorf("%w: path longer than %d nibbles", ErrRestore, maxPathLength)
		}
		child[i] = slices.Concat(p, suffix)
	}
	return next(h, child)
}

// want records that node h sits at paths: it joins the frontier, or, if it
// is in the store already, it is placed again for these paths.
func (r *Restorer) want(h util.Uint256, paths [][]byte) error {
	if p, ok := r.pending[h]; ok {
		r.pending[h] = append(p, paths...)
		return nil
	}
	s, ok, err := r.cfg.getStored(h, true)
	if err != nil {
		return err
	}
	if !ok {
		r.pending[h] = paths
		return nil
	}
	n, err := DecodeNode(s.enc)
	if err != nil {
		return fmt.Errorf("%w: node %s: %w", ErrCorrupted, h, err)
	}
	return r.place(h, n, s.enc, paths, true)
}

// scan walks the stored part of the trie below h (found at path) and puts
// the missing nodes in the frontier, without touching reference counts.
func (r *Restorer) scan(h util.Uint256, path []byte) error {
	return r.scanAt(h, [][]byte{path})
}

func (r *Restorer) scanAt(h util.Uint256, paths [][]byte) error {
	s, ok, err := r.cfg.getStored(h, true)
	if err != nil {
		return err
	}
	if !ok {
		r.pending[h] = append(r.pending[h], paths...)
		return nil
	}
	n, err := DecodeNode(s.enc)
	if err != nil {
		return fmt.Errorf("%w: node %s: %w", ErrCorrupted, h, err)
	}
	if _, leaf := n.(*LeafNode); leaf {
		return nil
	}
	return r.visit(n, paths, r.scanAt)
}
