package mpt

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/util"
)

// KeyValue is one entry of the trie.
type KeyValue struct {
	Key   []byte
	Value []byte
}

// Find returns, in ascending key order, up to max entries whose key starts
// with prefix and is not less than prefix ‖ from. With a nil from every such
// entry is returned; with a non-nil from (even empty) the entry at exactly
// prefix ‖ from is left out (the semantics of the findstates RPC). Keys and
// values are copies.
func (t *Trie) Find(prefix, from []byte, max int) ([]KeyValue, error) {
	if len(prefix)+len(from) > MaxKeyLength {
		return nil, fmt.Errorf("%w: prefix and start of %d bytes", ErrBadKey, len(prefix)+len(from))
	}
	f := finder{
		t:       t,
		prefix:  toNibbles(nil, prefix),
		lo:      toNibbles(toNibbles(nil, prefix), from),
		exclude: from != nil,
		max:     max,
	}
	if max <= 0 {
		return nil, nil
	}
	r, err := f.walk(t.root, nil)
	t.root = r
	if err != nil && !errors.Is(err, errFindDone) {
		return nil, err
	}
	return f.res, nil
}

// errFindDone stops the walk once max entries are found.
var errFindDone = errors.New("mpt: find done")

type finder struct {
	t       *Trie
	prefix  []byte // nibbles every key must start with
	lo      []byte // nibbles of the smallest key wanted
	exclude bool   // leave out the key equal to lo
	max     int
	res     []KeyValue
}

// wanted reports whether the subtree at path can hold wanted keys.
func (f *finder) wanted(path []byte) bool {
	n := min(len(path), len(f.prefix))
	if !bytes.Equal(path[:n], f.prefix[:n]) {
		return false
	}
	// Below lo only when path leaves lo's path on a smaller nibble.
	n = min(len(path), len(f.lo))
	return bytes.Compare(path[:n], f.lo[:n]) >= 0
}

// walk visits the subtree n at path in key order; it returns n with the
// hash nodes it read replaced by the nodes themselves.
func (f *finder) walk(n Node, path []byte) (Node, error) {
	if n == nil || !f.wanted(path) {
		return n, nil
	}
	switch n := n.(type) {
	case *HashNode:
		r, err := f.t.resolve(n)
		if err != nil {
			return n, err
		}
		return f.walk(r, path)
	case *LeafNode:
		if len(path) < len(f.prefix) || bytes.Compare(path, f.lo) < 0 ||
			(f.exclude && bytes.Equal(path, f.lo)) {
			return n, nil
		}
		f.res = append(f.res, KeyValue{Key: fromNibbles(path), Value: bytes.Clone(n.value)})
		if len(f.res) >= f.max {
			return n, errFindDone
		}
	case *ExtensionNode:
		next, err := f.walk(n.next, append(path[:len(path):len(path)], n.key...))
		n.next = next
		return n, err
	case *BranchNode:
		// The value slot holds the shortest key: it comes first.
		c, err := f.walk(n.children[valueSlot], path)
		n.children[valueSlot] = c
		if err != nil {
			return n, err
		}
		for i := range valueSlot {
			c, err := f.walk(n.children[i], append(path[:len(path):len(path)], byte(i)))
			n.children[i] = c
			if err != nil {
				return n, err
			}
		}
	}
	return n, nil
}

// ReadNode returns the encoding of node h from the store (without the
// reference-count suffix), for serving nodes to peers that synchronise the
// state. It fails with ErrMissingNode when the store lacks it (or, in
// ModeGC, holds it only as unreferenced).
func ReadNode(cfg Config, h util.Uint256) ([]byte, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	s, ok, err := cfg.getStored(h, true)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrMissingNode, h)
	}
	return bytes.Clone(s.enc), nil
}
