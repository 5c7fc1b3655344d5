package chain

import (
	"sync/atomic"

	"github.com/n3d-io/n3d/pkg/util"
)

// recentBlock is the serialization of one block (block.Block.Bytes).
type recentBlock struct {
	hash util.Uint256
	raw  []byte
}

// recentBlocks keeps the serialization of the newest logged block for
// AppendBlockBytes.
//
// A client following the chain (a wallet, an explorer, neo-bench's block
// poller, which asks twice per block time) asks for each block soon after
// it is added. Serving it from the database reads every transaction record
// back (one Get per transaction: 4.7% of a loaded single LevelDB node's CPU
// at 12k-transaction blocks), while the block's serialized form already
// exists: the block log record (blocklog.go) is exactly that encoding. It
// costs its bytes (~246 B per neo-bench NEO transfer: ~3.7 MB at 15k
// transfers) until the next block replaces it. Older blocks are read from
// the store.
type recentBlocks struct {
	newest atomic.Pointer[recentBlock]
}

// add remembers raw as the serialization of block h (under addMu); raw must
// not be modified afterwards.
func (r *recentBlocks) add(h util.Uint256, raw []byte) {
	r.newest.Store(&recentBlock{hash: h, raw: raw})
}

// appendTo appends the serialization of block h to dst if it is kept.
func (r *recentBlocks) appendTo(dst []byte, h util.Uint256) ([]byte, bool) {
	if b := r.newest.Load(); b != nil && b.hash == h {
		return append(dst, b.raw...), true
	}
	return dst, false
}

// clear forgets the kept block (a reset or a state jump may remove it from
// the chain).
func (r *recentBlocks) clear() { r.newest.Store(nil) }
