package mpt

import (
	"bytes"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
)

// GetProof returns the proof that key holds its value: the encodings of the
// nodes on the path from the root to the key's leaf, root first (the order
// the reference's getproof returns). It returns ErrNotFound when key has no
// value.
func (t *Trie) GetProof(key []byte) ([][]byte, error) {
	var proof [][]byte
	l, err := t.findLeaf(key, &proof)
	if err != nil {
		return nil, err
	}
	return append(proof, l.Bytes()), nil
}

// VerifyProof checks that proof leads from the trie root to key and returns
// key's value. A proof that is malformed or does not reach the end of the
// path fails with ErrInvalidProof; a valid proof that the path ends early
// (the key is absent) fails with ErrNotFound.
func VerifyProof(root util.Uint256, key []byte, proof [][]byte) ([]byte, error) {
	if err := checkKey(key); err != nil {
		return nil, err
	}
	nodes := make(map[util.Uint256][]byte, len(proof))
	for _, p := range proof {
		nodes[hash.DoubleSha256(p)] = p
	}
	var pbuf [maxPathLength]byte
	path := toNibbles(pbuf[:0], key)
	want := root
	for {
		enc, ok := nodes[want]
		if !ok {
			return nil, fmt.Errorf("%w: no node %s", ErrInvalidProof, want)
		}
		n, err := DecodeNode(enc)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalidProof, err)
		}
		var next Node
		switch n := n.(type) {
		case *LeafNode:
			if len(path) != 0 {
				return nil, ErrNotFound
			}
			return n.value, nil
		case *BranchNode:
			i := valueSlot
			if len(path) != 0 {
				i, path = int(path[0]), path[1:]
			}
			next = n.children[i]
		case *ExtensionNode:
			if !bytes.HasPrefix(path, n.key) {
				return nil, ErrNotFound
			}
			path = path[len(n.key):]
			next = n.next
		}
		if next == nil {
			return nil, ErrNotFound
		}
		want = next.Hash()
	}
}
