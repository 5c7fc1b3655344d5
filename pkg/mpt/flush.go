package mpt

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
)

// Flush writes every node changed since the last Flush to the store and, in
// the reference-counted modes, updates the counts of the nodes added and
// dropped; index is the block the new root belongs to (ModeGC records it in
// nodes that become unreferenced). Call it once per block, after the block's
// batch, with the store layer that persists that block.
//
// On error the store has received part of the writes: discard that store
// layer and this trie.
func (t *Trie) Flush(index uint32) error {
	t.index = index
	if err := t.commit(t.root); err != nil {
		return err
	}
	checkInvariants(t)
	if t.refs == nil {
		return nil
	}
	err := t.applyRefs(index)
	clear(t.refs)
	t.epoch++
	return err
}

// commit writes (or, in the reference-counted modes, queues) the changed
// nodes of the subtree n, children first, and marks them committed.
func (t *Trie) commit(n Node) error {
	if n == nil {
		return nil
	}
	m := n.meta()
	if m == nil || m.flags&flagCommitted != 0 {
		return nil // a hash node or an unchanged subtree
	}
	switch n := n.(type) {
	case *BranchNode:
		for _, c := range n.children {
			if err := t.commit(c); err != nil {
				return err
			}
		}
	case *ExtensionNode:
		if err := t.commit(n.next); err != nil {
			return err
		}
	}
	key, enc := encodeForStore(n, t.cfg.Prefix)
	if m.flags&flagHashed == 0 {
		m.hash = hash.DoubleSha256(enc)
	}
	m.flags = flagHashed | flagCommitted
	m.epoch = 0 // its stored count is not known to the next cycle
	copy(key[1:], m.hash[:])
	if t.refs == nil {
		if err := t.cfg.Store.Put(key, enc); err != nil {
			return fmt.Errorf("mpt: writing node %s: %w", m.hash, err)
		}
		return nil
	}
	if r, ok := t.refs[m.hash]; ok { // also dropped somewhere: net the two
		r.delta++
		r.enc = enc
		t.refs[m.hash] = r
		return nil
	}
	return t.cfg.updateCountAt(key, m.hash, enc, true, 1, t.index)
}

// encodeForStore encodes n for the store: one allocation holds the store
// key (prefix set, hash left to fill) and the encoding, with room for the
// reference-count suffix.
func encodeForStore(n Node, prefix byte) (key, enc []byte) {
	var size int
	switch n := n.(type) {
	case *BranchNode:
		size = n.encLen()
	case *ExtensionNode:
		size = n.encLen()
	case *LeafNode:
		size = n.encLen()
	}
	const keyLen = 1 + util.Uint256Size
	buf := make([]byte, keyLen, keyLen+size+rcSuffixLen)
	buf[0] = prefix
	return buf[:keyLen:keyLen], n.appendTo(buf[keyLen:keyLen])
}

// applyRefs writes the pending reference count changes.
func (t *Trie) applyRefs(index uint32) error {
	for h, r := range t.refs {
		if r.delta == 0 {
			continue
		}
		if r.known && r.enc == nil && t.cfg.Mode == ModeLatest && int64(r.count)+int64(r.delta) == 0 {
			// Dropped from every place it had: delete without reading.
			if err := t.cfg.Store.Delete(t.cfg.nodeKey(h)); err != nil {
				return fmt.Errorf("mpt: deleting node %s: %w", h, err)
			}
			continue
		}
		if err := t.cfg.updateCount(h, r.enc, true, int64(r.delta), index); err != nil {
			return err
		}
	}
	return nil
}

// updateCount adds delta to the stored reference count of node h; enc is
// the node's encoding when known (it is when delta > 0 and the node is new),
// owned says whether enc may be kept and extended by the store record.
func (c *Config) updateCount(h util.Uint256, enc []byte, owned bool, delta int64, index uint32) error {
	// Get does not keep the key, Put may: one fresh key for both.
	return c.updateCountAt(c.nodeKey(h), h, enc, owned, delta, index)
}

// updateCountAt is updateCount with a fresh node key.
func (c *Config) updateCountAt(key []byte, h util.Uint256, enc []byte, owned bool, delta int64, index uint32) error {
	s, found, err := c.getStoredAt(key, h, false)
	if err != nil {
		return err
	}
	var count int64
	if found && s.active {
		count = int64(s.count)
	}
	if enc == nil {
		enc, owned = s.enc, false
	}
	count += delta
	switch {
	case count < 0 || count > 1<<32-1 || enc == nil:
		return fmt.Errorf("%w: node %s reference count %d%+d", ErrCorrupted, h, count-delta, delta)
	case count > 0:
		err = c.Store.Put(key, rcRecord(enc, owned, true, uint32(count)))
	case c.Mode.gc():
		err = c.Store.Put(key, rcRecord(enc, owned, false, index))
	default:
		err = c.Store.Delete(key)
	}
	if err != nil {
		return fmt.Errorf("mpt: writing node %s: %w", h, err)
	}
	return nil
}
