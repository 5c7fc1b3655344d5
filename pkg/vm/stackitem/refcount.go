package stackitem

// RefCounter counts stack references with the reference VM's semantics
// (neo-vm ReferenceCounter, adopted from neo-go): every item on an
// evaluation stack, in a slot or inside a referenced compound counts once;
// a compound's children are counted when the compound gets its first stack
// reference and uncounted when it loses its last one. The count drives the
// MaxStackSize limit, so it must match the reference exactly.
type RefCounter struct {
	n int
}

// Count is the current number of references.
func (r *RefCounter) Count() int { return r.n }

// Inc adds d to the count without touching any item.
func (r *RefCounter) Inc(d int) { r.n += d }

// Add adds n stack references to it (reference AddStackReference).
func (r *RefCounter) Add(it Item, n int) {
	r.n += n
	switch c := it.(type) {
	case *Array:
		c.refs += n
		if c.refs == n {
			for _, s := range c.items {
				r.Add(s, 1)
			}
		}
	case *Map:
		c.refs += n
		if c.refs == n {
			for _, e := range c.elems {
				r.Add(e.Key, 1)
			}
			for _, e := range c.elems {
				r.Add(e.Value, 1)
			}
		}
	}
}

// Remove drops one stack reference from it (reference
// RemoveStackReference). A compound without stack references is left
// alone.
func (r *RefCounter) Remove(it Item) {
	switch c := it.(type) {
	case *Array:
		if c.refs == 0 {
			return
		}
		r.n--
		c.refs--
		if c.refs == 0 {
			for _, s := range c.items {
				r.Remove(s)
			}
		}
	case *Map:
		if c.refs == 0 {
			return
		}
		r.n--
		c.refs--
		if c.refs == 0 {
			for _, e := range c.elems {
				r.Remove(e.Key)
			}
			for _, e := range c.elems {
				r.Remove(e.Value)
			}
		}
	default:
		r.n--
	}
}

// AdjustOwn changes only the compound's own stack-reference count (the
// reference's direct StackReferences++/-- in PACK, UNPACK, VALUES…).
func (r *RefCounter) AdjustOwn(it Item, d int) {
	switch c := it.(type) {
	case *Array:
		c.refs += d
	case *Map:
		c.refs += d
	}
}

// IsReferenced reports whether a compound has stack references; primitive
// items report true.
func (r *RefCounter) IsReferenced(it Item) bool {
	switch c := it.(type) {
	case *Array:
		return c.refs != 0
	case *Map:
		return c.refs != 0
	}
	return true
}
