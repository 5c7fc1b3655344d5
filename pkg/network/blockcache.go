package network

import (
	"sync"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/util"
)

// recentBlocks is how many of the newest blocks are served from memory.
// Peers ask for a block right after it was made (the inv of RelayBlock,
// the sync of a node one block behind). One: a 10k-transaction block with
// its message is several MB, and the 4+1 rounds made with two (whose
// objects were kept until a peer asked) had 30-40 MB more mean RSS per
// node than those before the cache.
const recentBlocks = 1

// blockCache holds the encoded messages of the newest blocks the chain
// added and announced to a peer (RelayBlock): serving a new block to every
// peer that asks reads nothing from the store and encodes (and
// compresses) the block once. Only the bytes are kept, not the block's
// objects (kept, they cost a 4+1 node ~24 MB of RSS under load). Under neo-bench load a validator spent
// ~9% of its CPU reading back a 10,000-transaction block for each peer
// (pprof of 4+1).
type blockCache struct {
	mu      sync.Mutex
	entries [recentBlocks]cachedBlock
	next    int // the slot the next block goes to
}

// cachedBlock is one block's encoded message.
type cachedBlock struct {
	h     util.Uint256
	index uint32
	msg   *message.Message
}

// put encodes a block the chain added and keeps its message, replacing
// the oldest.
func (c *blockCache) put(b *block.Block) error {
	m, err := message.New(message.CmdBlock, b)
	if err != nil {
		return err
	}
	m.Payload = nil // the encoded bytes are what is sent
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[c.next] = cachedBlock{h: b.Hash(), index: b.Index, msg: m}
	c.next = (c.next + 1) % recentBlocks
	return nil
}

// byHash returns the block message of a cached block, nil when the block
// is not cached.
func (c *blockCache) byHash(h util.Uint256) (*message.Message, error) {
	return c.find(func(e *cachedBlock) bool { return e.h == h })
}

// byIndex is byHash for a block index.
func (c *blockCache) byIndex(i uint32) (*message.Message, error) {
	return c.find(func(e *cachedBlock) bool { return e.index == i })
}

func (c *blockCache) find(match func(*cachedBlock) bool) (*message.Message, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k := range c.entries {
		if e := &c.entries[k]; e.msg != nil && match(e) {
			return e.msg, nil
		}
	}
	return nil, nil
}
