package boltdb

import (
	"bytes"

	"github.com/n3d-io/n3d/pkg/storage/internal/kv"
	bolt "go.etcd.io/bbolt"
)

// chunk holds entries copied out of one read transaction. Keys and values
// share one arena so a chunk costs a couple of allocations.
type chunk struct {
	arena []byte
	offs  []int // 2 offsets per entry: key end, value end (starts implied)
}

func (c *chunk) reset() {
	c.arena = c.arena[:0]
	c.offs = c.offs[:0]
}

func (c *chunk) add(k, v []byte) {
	c.arena = append(c.arena, k...)
	c.offs = append(c.offs, len(c.arena))
	c.arena = append(c.arena, v...)
	c.offs = append(c.offs, len(c.arena))
}

func (c *chunk) len() int { return len(c.offs) / 2 }

func (c *chunk) entry(i int) (k, v []byte) {
	start := 0
	if i > 0 {
		start = c.offs[2*i-1]
	}
	kEnd, vEnd := c.offs[2*i], c.offs[2*i+1]
	return c.arena[start:kEnd:kEnd], c.arena[kEnd:vEnd:vEnd]
}

func (c *chunk) full() bool {
	return c.len() >= seekChunkEntries || len(c.arena) >= seekChunkBytes
}

// Seek calls fn for each key in rng, in ascending (or, with
// rng.Backwards, descending) order, until fn returns false. k and v are
// valid only during the call. Entries are read in chunks, each from its
// own read transaction, so the walk is not one point-in-time snapshot when
// other goroutines write meanwhile; fn runs outside any transaction.
func (s *Store) Seek(rng kv.SeekRange, fn func(k, v []byte) bool) error {
	lo, hi := kv.Bounds(rng)
	if s.log != nil && s.log.Overlaps(lo, hi) {
		// Rare (the block log is read at Open, after its fold): commit
		// the records first so the walk finds them in bbolt.
		if err := s.PutChangeSet(nil, nil); err != nil {
			return err
		}
	}
	var (
		c      chunk
		resume []byte // last key handed out; nil before the first chunk
		more   bool
	)
	for {
		c.reset()
		err := s.db.View(func(tx *bolt.Tx) error {
			cur := tx.Bucket(Bucket).Cursor()
			if rng.Backwards {
				more = fillBackward(cur, &c, lo, hi, resume)
			} else {
				more = fillForward(cur, &c, hi, lo, resume)
			}
			return nil
		})
		if err != nil {
			return mapErr(err)
		}
		n := c.len()
		for i := range n {
			k, v := c.entry(i)
			if !fn(k, v) {
				return nil
			}
		}
		if !more || n == 0 {
			return nil
		}
		k, _ := c.entry(n - 1)
		resume = append(resume[:0], k...)
	}
}

// fillForward copies keys in [lo, hi) greater than resume (if set) in
// ascending order until the chunk is full; it reports whether keys may
// remain.
func fillForward(cur *bolt.Cursor, c *chunk, hi, lo, resume []byte) bool {
	var k, v []byte
	if resume == nil {
		k, v = cur.Seek(lo)
	} else {
		k, v = cur.Seek(resume)
		if k != nil && bytes.Equal(k, resume) {
			k, v = cur.Next()
		}
	}
	for ; k != nil; k, v = cur.Next() {
		if hi != nil && bytes.Compare(k, hi) >= 0 {
			return false
		}
		if c.full() {
			return true
		}
		c.add(k, v)
	}
	return false
}

// fillBackward copies keys in [lo, hi) smaller than resume (if set) in
// descending order until the chunk is full; it reports whether keys may
// remain.
func fillBackward(cur *bolt.Cursor, c *chunk, lo, hi, resume []byte) bool {
	bound := hi
	if resume != nil {
		bound = resume
	}
	var k, v []byte
	if bound == nil {
		k, v = cur.Last()
	} else {
		// The largest key below bound.
		if k, _ = cur.Seek(bound); k == nil {
			k, v = cur.Last()
		} else {
			k, v = cur.Prev()
		}
	}
	for ; k != nil; k, v = cur.Prev() {
		if bytes.Compare(k, lo) < 0 {
			return false
		}
		if c.full() {
			return true
		}
		c.add(k, v)
	}
	return false
}
