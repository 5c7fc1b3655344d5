package mpt

import (
	"bytes"
	"fmt"
	"slices"
)

// Batch is a set of changes applied to a trie in one pass: what the chain
// does once per block. Changes may be added in any order; a later change of
// the same key replaces an earlier one. The zero Batch is ready to use.
type Batch struct {
	items  []change
	nibbls []byte // backing store of the items' paths
	sorted bool
}

// change is one change: value nil means delete.
type change struct {
	path  []byte // key in nibbles; trimmed as the batch descends the trie
	value []byte
	seq   int // insertion order, to keep the last change of a key
}

// NewBatch returns a batch of the given changes: key → new value, a nil
// value deletes the key. Values are kept, not copied.
func NewBatch(changes map[string][]byte) (*Batch, error) {
	b := &Batch{items: make([]change, 0, len(changes))}
	size := 0
	for k := range changes {
		size += 2 * len(k)
	}
	b.nibbls = make([]byte, 0, size)
	for k, v := range changes {
		if err := b.add([]byte(k), v); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// Put adds a change storing value at key; the batch keeps value (not a copy).
// A nil value is stored as an empty one.
func (b *Batch) Put(key, value []byte) error {
	if value == nil {
		value = []byte{}
	}
	return b.add(key, value)
}

// Delete adds a change deleting key.
func (b *Batch) Delete(key []byte) error { return b.add(key, nil) }

// Len returns the number of changes added.
func (b *Batch) Len() int { return len(b.items) }

func (b *Batch) add(key, value []byte) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if len(value) > MaxValueLength {
		return fmt.Errorf("%w: length %d", ErrBadValue, len(value))
	}
	start := len(b.nibbls)
	b.nibbls = toNibbles(b.nibbls, key)
	b.items = append(b.items, change{
		path:  b.nibbls[start:len(b.nibbls):len(b.nibbls)],
		value: value,
		seq:   len(b.items),
	})
	b.sorted = false
	return nil
}

// prepare sorts the changes by path and keeps the last change of each key.
func (b *Batch) prepare() []change {
	if b.sorted {
		return b.items
	}
	slices.SortFunc(b.items, func(x, y change) int {
		if c := bytes.Compare(x.path, y.path); c != 0 {
			return c
		}
		return x.seq - y.seq
	})
	out := b.items[:0]
	for i, c := range b.items {
		if i+1 < len(b.items) && bytes.Equal(c.path, b.items[i+1].path) {
			continue
		}
		out = append(out, c)
	}
	b.items = out
	b.sorted = true
	return out
}

// PutBatch applies the batch. The batch is consumed: do not reuse it.
func (t *Trie) PutBatch(b *Batch) error {
	items := b.prepare()
	if len(items) == 0 {
		return nil
	}
	b.items = nil // paths are trimmed in place below
	r, _, err := t.apply(t.root, items)
	t.root = r
	return err
}

// apply applies the changes cs (sorted, distinct, paths relative to n) to the
// subtree n and returns its new root and whether anything changed. The
// returned node replaces n in its parent even when nothing changed (a hash
// node may have been resolved).
func (t *Trie) apply(n Node, cs []change) (Node, bool, error) {
	switch n := n.(type) {
	case nil:
		return t.build(cs)
	case *HashNode:
		r, err := t.resolve(n)
		if err != nil {
			return n, false, err
		}
		return t.apply(r, cs)
	case *LeafNode:
		return t.applyLeaf(n, cs)
	case *ExtensionNode:
		return t.applyExtension(n, cs)
	case *BranchNode:
		r, changed, err := t.applyBranch(n, cs)
		if err != nil || !changed {
			return r, changed, err
		}
		return t.normalize(n)
	default:
		panic(fmt.Sprintf("mpt: unknown node type %T", n))
	}
}

// build makes a new subtree from cs, ignoring deletions.
func (t *Trie) build(cs []change) (Node, bool, error) {
	cs = dropDeletes(cs)
	switch len(cs) {
	case 0:
		return nil, false, nil
	case 1:
		return newLeafAt(cs[0].path, cs[0].value), true, nil
	}
	p := commonPrefix(cs[0].path, cs[len(cs)-1].path)
	prefix := cs[0].path[:p]
	trim(cs, p)
	b := new(BranchNode)
	if _, _, err := t.applyBranch(b, cs); err != nil {
		return b, true, err
	}
	if p == 0 {
		return b, true, nil
	}
	return &ExtensionNode{key: bytes.Clone(prefix), next: b}, true, nil
}

func (t *Trie) applyLeaf(l *LeafNode, cs []change) (Node, bool, error) {
	// Deleting keys that run past the leaf changes nothing.
	cs = slices.DeleteFunc(cs, func(c change) bool { return c.value == nil && len(c.path) != 0 })
	switch {
	case len(cs) == 0:
		return l, false, nil
	case len(cs) == 1 && len(cs[0].path) == 0:
		v := cs[0].value
		if v == nil {
			t.discard(l)
			return nil, true, nil
		}
		if bytes.Equal(v, l.value) {
			return l, false, nil
		}
		t.dirty(l)
		l.value = v
		return l, true, nil
	}
	// Keys below the leaf: the leaf moves to the value slot of a new branch.
	b := new(BranchNode)
	b.children[valueSlot] = l
	_, changed, err := t.applyBranch(b, cs)
	if err != nil || !changed {
		return l, changed, err
	}
	return t.normalize(b)
}

func (t *Trie) applyExtension(e *ExtensionNode, cs []change) (Node, bool, error) {
	// Deleting keys off the extension's path changes nothing.
	cs = slices.DeleteFunc(cs, func(c change) bool {
		return c.value == nil && !bytes.HasPrefix(c.path, e.key)
	})
	if len(cs) == 0 {
		return e, false, nil
	}
	p := min(commonPrefix(e.key, cs[0].path), commonPrefix(e.key, cs[len(cs)-1].path))
	if p == len(e.key) {
		trim(cs, p)
		next, changed, err := t.apply(e.next, cs)
		if err != nil || !changed {
			e.next = next
			return e, changed, err
		}
		t.dirty(e)
		switch nx := next.(type) {
		case nil:
			return nil, true, nil
		case *ExtensionNode:
			e.key = slices.Concat(e.key, nx.key)
			e.next = nx.next
			t.discard(nx)
		default:
			e.next = next
		}
		return e, true, nil
	}
	// The changes leave the path at nibble p: split there with a branch.
	prefix := e.key[:p]
	b := new(BranchNode)
	if p+1 == len(e.key) {
		b.children[e.key[p]] = e.next
		t.discard(e)
	} else {
		t.dirty(e)
		b.children[e.key[p]] = e
		e.key = e.key[p+1:]
	}
	trim(cs, p)
	if _, _, err := t.applyBranch(b, cs); err != nil {
		return b, true, err
	}
	r, _, err := t.normalize(b)
	if err != nil || p == 0 {
		return r, true, err
	}
	return t.prefixed(prefix, r)
}

// applyBranch routes cs to the children of b; it does not normalise b.
func (t *Trie) applyBranch(b *BranchNode, cs []change) (Node, bool, error) {
	changed := false
	for len(cs) != 0 {
		i, j := valueSlot, 1
		if len(cs[0].path) != 0 {
			i = int(cs[0].path[0])
			for j < len(cs) && cs[j].path[0] == byte(i) {
				j++
			}
			trim(cs[:j], 1)
		}
		c, ch, err := t.apply(b.children[i], cs[:j])
		b.children[i] = c
		if ch && !changed {
			changed = true
			t.dirty(b)
		}
		if err != nil {
			return b, changed, err
		}
		cs = cs[j:]
	}
	return b, changed, nil
}

// normalize restores the invariants of a changed branch: a branch with one
// child becomes that child (prefixed with its nibble), with none nothing.
func (t *Trie) normalize(b *BranchNode) (Node, bool, error) {
	count, last := 0, 0
	for i, c := range b.children {
		if c != nil {
			count++
			last = i
		}
	}
	switch {
	case count >= 2:
		return b, true, nil
	case count == 0:
		t.discard(b)
		return nil, true, nil
	}
	t.discard(b)
	c := b.children[last]
	if last == valueSlot {
		return c, true, nil
	}
	return t.prefixed([]byte{byte(last)}, c)
}

// prefixed returns c moved down by the nibbles of prefix: an extension.
func (t *Trie) prefixed(prefix []byte, c Node) (Node, bool, error) {
	if h, ok := c.(*HashNode); ok {
		r, err := t.resolve(h)
		if err != nil {
			return c, true, err
		}
		c = r
	}
	if e, ok := c.(*ExtensionNode); ok {
		t.dirty(e)
		e.key = slices.Concat(prefix, e.key)
		return e, true, nil
	}
	return &ExtensionNode{key: bytes.Clone(prefix), next: c}, true, nil
}

// newLeafAt returns a leaf holding value, below an extension for path.
func newLeafAt(path, value []byte) Node {
	if len(path) == 0 {
		return &LeafNode{value: value}
	}
	// The extension, its leaf and its key in one allocation.
	p := &struct {
		e ExtensionNode
		l LeafNode
		k [2 * 2 * 32]byte // room for the key of most storage items
	}{}
	p.l.value = value
	p.e.key = append(p.k[:0:len(p.k)], path...)
	p.e.next = &p.l
	return &p.e
}

func dropDeletes(cs []change) []change {
	return slices.DeleteFunc(cs, func(c change) bool { return c.value == nil })
}

func trim(cs []change, n int) {
	for i := range cs {
		cs[i].path = cs[i].path[n:]
	}
}
