package network

import (
	"sync"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/util"
)

// recentBlocks is how many of the newest blocks are served from memory.
// Peers ask for a block right after it was made (the inv of RelayBlock,
// the sync of a node one block behind); two cover a peer one block late.
const recentBlocks = 2

// blockCache holds the newest blocks the chain added (RelayBlock) and,
// once a peer asked for one, its encoded block message: serving a new
// block to every peer that asks reads nothing from the store and encodes
// (and compresses) the block once. Under neo-bench load a validator spent
// ~9% of its CPU reading back a 10,000-transaction block for each peer
// (pprof of 4+1, docs/benchmarks-tps.md).
type blockCache struct {
	mu      sync.Mutex
	entries [recentBlocks]cachedBlock
	next    int // the slot the next block goes to
}

// cachedBlock is one block and, once built, its message.
type cachedBlock struct {
	b   *block.Block
	h   util.Uint256
	msg *message.Message
}

// put adds a block the chain added, replacing the oldest.
func (c *blockCache) put(b *block.Block) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[c.next] = cachedBlock{b: b, h: b.Hash()}
	c.next = (c.next + 1) % recentBlocks
}

// byHash returns the block message of a cached block (built on the first
// call), nil when the block is not cached.
func (c *blockCache) byHash(h util.Uint256) (*message.Message, error) {
	return c.find(func(e *cachedBlock) bool { return e.h == h })
}

// byIndex is byHash for a block index.
func (c *blockCache) byIndex(i uint32) (*message.Message, error) {
	return c.find(func(e *cachedBlock) bool { return e.b.Index == i })
}

func (c *blockCache) find(match func(*cachedBlock) bool) (*message.Message, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.entries {
		e := &c.entries[k]
		if e.b == nil || !match(e) {
			continue
		}
		if e.msg == nil {
			m, err := message.New(message.CmdBlock, e.b)
			if err != nil {
				return nil, err
			}
			e.msg = m
		}
		return e.msg, nil
	}
	return nil, nil
}
