package mempool

import (
	"sort"

	"github.com/n3d-io/n3d/pkg/core/transaction"
)

// maxChunk bounds a chunk of the ordered list: an insert or a removal
// moves at most this many pointers.
const maxChunk = 256

// ordered keeps items from the highest priority to the lowest as a list of
// sorted chunks (a one-level B+ tree): locating an item is two binary
// searches, inserting or removing moves at most maxChunk pointers, the
// lowest item is the last of the last chunk and iteration walks the chunks
// in order. A plain sorted slice would move half the pool (50 000 items
// by default) on every insert.
//
// A slot keeps the transaction pointer next to the item's, so listing the
// transactions reads the chunks sequentially instead of visiting every
// item (a cache miss each on a full pool).
//
// Every chunk is non-empty; items are distinct (cmp == 0 only for the
// same hash). Not safe for concurrent use: the Pool's lock guards it.
type ordered struct {
	chunks [][]slot
	n      int
}

type slot struct {
	it *item
	tx *transaction.Transaction
}

// chunkFor returns the index of the first chunk whose last item does not
// go before it (len(o.chunks) when it goes after every item).
func (o *ordered) chunkFor(it *item) int {
	return sort.Search(len(o.chunks), func(i int) bool {
		c := o.chunks[i]
		return it.cmp(c[len(c)-1].it) >= 0
	})
}

// posIn returns the index of the first item of c that does not go before
// it.
func posIn(c []slot, it *item) int {
	return sort.Search(len(c), func(i int) bool { return it.cmp(c[i].it) >= 0 })
}

// insert adds it, which must not be present.
func (o *ordered) insert(it *item) {
	o.n++
	if len(o.chunks) == 0 {
		c := make([]slot, 1, maxChunk)
		c[0] = slot{it, it.tx}
		o.chunks = append(o.chunks, c)
		return
	}
	ci := o.chunkFor(it)
	if ci == len(o.chunks) {
		ci-- // after every item: the end of the last chunk
	}
	c := o.chunks[ci]
	p := posIn(c, it)
	c = append(c, slot{})
	copy(c[p+1:], c[p:])
	c[p] = slot{it, it.tx}
	if len(c) <= maxChunk {
		o.chunks[ci] = c
		return
	}
	// Split in halves; each half gets its own backing array.
	half := len(c) / 2
	right := make([]slot, len(c)-half, maxChunk)
	copy(right, c[half:])
	clear(c[half:])
	o.chunks[ci] = c[:half]
	o.chunks = append(o.chunks, nil)
	copy(o.chunks[ci+2:], o.chunks[ci+1:])
	o.chunks[ci+1] = right
}

// remove deletes it and reports whether it was present.
func (o *ordered) remove(it *item) bool {
	ci := o.chunkFor(it)
	if ci == len(o.chunks) {
		return false
	}
	c := o.chunks[ci]
	p := posIn(c, it)
	if p == len(c) || c[p].it != it {
		return false
	}
	copy(c[p:], c[p+1:])
	c[len(c)-1] = slot{}
	c = c[:len(c)-1]
	o.n--
	if len(c) > 0 {
		o.chunks[ci] = c
		return true
	}
	copy(o.chunks[ci:], o.chunks[ci+1:])
	o.chunks[len(o.chunks)-1] = nil
	o.chunks = o.chunks[:len(o.chunks)-1]
	return true
}

// last returns the lowest-priority item (nil when empty).
func (o *ordered) last() *item {
	if len(o.chunks) == 0 {
		return nil
	}
	c := o.chunks[len(o.chunks)-1]
	return c[len(c)-1].it
}

// each calls fn on the items from the highest priority down while fn
// returns true.
func (o *ordered) each(fn func(*item) bool) {
	for _, c := range o.chunks {
		for i := range c {
			if !fn(c[i].it) {
				return
			}
		}
	}
}

// appendTxs appends the transactions of the first n items to dst.
func (o *ordered) appendTxs(dst []*transaction.Transaction, n int) []*transaction.Transaction {
	for _, c := range o.chunks {
		if n <= 0 {
			break
		}
		k := min(n, len(c))
		for i := range k {
			dst = append(dst, c[i].tx)
		}
		n -= k
	}
	return dst
}

// filter keeps the items keep accepts, in one pass: chunks are compacted
// in place and empty ones dropped.
func (o *ordered) filter(keep func(*item) bool) {
	out := o.chunks[:0]
	n := 0
	for _, c := range o.chunks {
		k := 0
		for i := range c {
			if keep(c[i].it) {
				c[k] = c[i]
				k++
			}
		}
		clear(c[k:])
		if k > 0 {
			out = append(out, c[:k])
			n += k
		}
	}
	clear(o.chunks[len(out):])
	o.chunks, o.n = out, n
}

// len is the number of items.
func (o *ordered) len() int { return o.n }

// rebuild replaces the content with items, which must be in order.
// Chunks are filled to half, leaving room to insert.
func (o *ordered) rebuild(items []*item) {
	clear(o.chunks)
	o.chunks = o.chunks[:0]
	o.n = len(items)
	const fill = maxChunk / 2
	for len(items) > 0 {
		k := min(fill, len(items))
		c := make([]slot, k, maxChunk)
		for i, it := range items[:k] {
			c[i] = slot{it, it.tx}
		}
		o.chunks = append(o.chunks, c)
		items = items[k:]
	}
}
