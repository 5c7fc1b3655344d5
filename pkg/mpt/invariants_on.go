//go:build invariants

package mpt

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
)

// checkInvariants walks the in-memory trie after a Flush and panics on a
// broken invariant: every node committed, the shapes canonical (branches
// with two or more children, extensions with a non-empty key not leading to
// an extension or to nothing, values only in leaves), and every cached hash
// equal to the hash of the node's encoding. Built with -tags invariants.
func checkInvariants(t *Trie) {
	if err := checkNode(t.root); err != nil {
		panic(fmt.Sprintf("mpt invariant: %v", err))
	}
}

func checkNode(n Node) error {
	if n == nil {
		return nil
	}
	m := n.meta()
	if m == nil {
		return nil // hash node: stored, not held
	}
	if m.flags != flagHashed|flagCommitted {
		return fmt.Errorf("node %s not committed after Flush (flags %b)", m.hash, m.flags)
	}
	if got := hash.DoubleSha256(n.Bytes()); got != m.hash {
		return fmt.Errorf("node cached hash %s, encoding hashes to %s", m.hash, got)
	}
	switch n := n.(type) {
	case *BranchNode:
		count := 0
		for i, c := range n.children {
			if c == nil {
				continue
			}
			count++
			if _, leaf := c.(*LeafNode); i == valueSlot && !leaf && c.Type() != HashT {
				return fmt.Errorf("branch %s holds a %T in its value slot", m.hash, c)
			}
			if err := checkNode(c); err != nil {
				return err
			}
		}
		if count < 2 {
			return fmt.Errorf("branch %s has %d children", m.hash, count)
		}
	case *ExtensionNode:
		if len(n.key) == 0 || n.next == nil {
			return fmt.Errorf("extension %s with key %x next %v", m.hash, n.key, n.next)
		}
		if _, ext := n.next.(*ExtensionNode); ext {
			return fmt.Errorf("extension %s leads to an extension", m.hash)
		}
		return checkNode(n.next)
	}
	return nil
}
