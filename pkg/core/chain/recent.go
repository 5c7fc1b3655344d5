package chain

import (
	"sync"

	"github.com/n3d-io/n3d/pkg/util"
)

// recentBlockCount is how many of the newest blocks recentBlocks keeps.
//
// A client following the chain (a wallet, an explorer, neo-bench's block
// poller) asks for each block soon after it is added. Serving it from the
// database reads every transaction record back (one Get per transaction:
// ~5% of a loaded single node's CPU at 12k-transaction blocks), while the
// block's serialized form already exists: the block log record
// (blocklog.go) is exactly that encoding. The newest block is what a
// follower asks for (neo-bench polls twice per block time); it costs the
// bytes of its serialization (~3.7 MB at 15k transfers) until the next
// block replaces it. Older blocks are read from the store.
const recentBlockCount = 1

// recentBlock is the serialization of one block (block.Block.Bytes).
type recentBlock struct {
	hash util.Uint256
	raw  []byte
}

// recentBlocks holds the serializations of the newest logged blocks for
// AppendBlockBytes. add runs under addMu; bytes from any goroutine.
type recentBlocks struct {
	mu     sync.RWMutex
	blocks [recentBlockCount]recentBlock
	next   int
}

// add remembers raw as the serialization of block h; raw must not be
// modified afterwards.
func (r *recentBlocks) add(h util.Uint256, raw []byte) {
	r.mu.Lock()
	r.blocks[r.next] = recentBlock{hash: h, raw: raw}
	r.next = (r.next + 1) % recentBlockCount
	r.mu.Unlock()
}

// appendTo appends the serialization of block h to dst if it is kept.
func (r *recentBlocks) appendTo(dst []byte, h util.Uint256) ([]byte, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for i := range r.blocks {
		if b := &r.blocks[i]; b.raw != nil && b.hash == h {
			return append(dst, b.raw...), true
		}
	}
	return dst, false
}

// clear forgets every block (a reset or a state jump may remove them from
// the chain).
func (r *recentBlocks) clear() {
	r.mu.Lock()
	r.blocks = [recentBlockCount]recentBlock{}
	r.mu.Unlock()
}
