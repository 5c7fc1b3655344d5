package dao

// recordChunk is the size of one chunk of a recordArena: ~140 records of
// a NEO transfer (its transaction and execution result, ~450 bytes).
const recordChunk = 64 << 10

// recordArena hands out exact-size, never-reused copies of values carved
// from shared chunks, for the records a block stores by the thousand (its
// transactions with their execution results). A record allocated alone
// costs a buffer grown from a size hint (the allocator's size class above
// the hint, twice that when the result outgrows it) and two small objects;
// from the arena it costs its length. The records of a block are written
// and dropped together (a private DAO per block, whose changes reach the
// write cache and leave it at one flush), so a chunk does not keep much
// more alive than its own records. Not safe for concurrent use (neither is
// a DAO).
type recordArena struct {
	free []byte // rest of the current chunk: len 0, cap what is left
}

// copy returns a copy of b that shares no bytes with any other copy (its
// capacity ends at its length, so an append to it reallocates). A value
// bigger than a quarter chunk gets its own allocation.
func (a *recordArena) copy(b []byte) []byte {
	n := len(b)
	if n > recordChunk/4 {
		return append(make([]byte, 0, n), b...)
	}
	if cap(a.free) < n {
		a.free = make([]byte, 0, recordChunk)
	}
	v := append(a.free, b...)
	a.free = v[n:n]
	return v[:n:n]
}
