package network

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// heldBlocks is a block sink that keeps what it is given without adding
// it to the chain: a block queue whose chain is still busy with the
// previous block.
type heldBlocks struct {
	mu  sync.Mutex
	got []util.Uint256
}

func (h *heldBlocks) Put(b *block.Block) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.got = append(h.got, b.Hash())
	return nil
}

func (h *heldBlocks) len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.got)
}

// refBlock31 is block 31 of the reference chain: the next block of a
// node restored with restoreCount 30.
func refBlock31(t *testing.T) *block.Block {
	t.Helper()
	src := openChain(t, refChain(t), true)
	defer src.Close()
	b, err := src.GetBlockByIndex(31)
	require.NoError(t, err)
	return b
}

// TestDeliveredBlockNotFetchedAgain: in a 4+1 network every validator
// announces each new block to the RPC node. The first announcement is
// asked for and delivered; the block then waits in the block queue while
// the chain adds the one before it, still unknown to the ledger. A second
// validator's announcement must not fetch (and decode) the same block a
// second time: a 20k-transaction block is ~5 MB on the wire and ~30 MB
// decoded, and loaded RPC nodes held three copies at once.
func TestDeliveredBlockNotFetchedAgain(t *testing.T) {
	next := refBlock31(t)

	held := new(heldBlocks)
	v := newNode(t, nodeOpts{restore: true, restoreCount: 30, cfg: func(c *Config) { c.Blocks = held }})
	first, second := dialRaw(t, v, 31), dialRaw(t, v, 32)

	blockInv := &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{next.Hash()}}
	first.send(message.CmdInv, blockInv)
	first.getDataFor(next.Hash())
	first.send(message.CmdBlock, next)
	require.Eventually(t, func() bool { return held.len() == 1 }, waitFor, time.Millisecond)

	// The second announcement: no getdata for the block follows.
	second.send(message.CmdInv, blockInv)
	second.requireNextGetDataFresh(util.Uint256{0xfe, 0xed}, "the delivered block was asked for again")
	require.Equal(t, 1, held.len())
}

// TestUnaddedBlockForgotten: a delivered block that the chain has not
// added by the request timeout (it was rejected, or it waits for a
// missing predecessor) is forgotten, not asked for again from the peer
// that sent it: the sync loop fetches missing blocks by index, and a
// rejected block would come back the same. The node runs on a fake
// clock that the test advances.
func TestUnaddedBlockForgotten(t *testing.T) {
	next := refBlock31(t)
	h := next.Hash()

	mem := newMemNet(t, true)
	held := new(heldBlocks)
	v := newNode(t, nodeOpts{mem: mem, host: 1, restore: true, restoreCount: 30,
		cfg: func(c *Config) { c.Blocks = held }})
	p := dialRaw(t, v, 41)
	p.send(message.CmdInv, &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{h}})
	p.getDataFor(h)
	p.send(message.CmdBlock, next)
	require.Eventually(t, func() bool { return held.len() == 1 }, waitFor, time.Millisecond)

	tracked := func() bool {
		v.srv.seen.mu.Lock()
		defer v.srv.seen.mu.Unlock()
		_, ok := v.srv.seen.m[h]
		return ok
	}
	require.True(t, tracked(), "a queued block stays tracked")
	step := v.srv.cfg.requestTimeout() / 4
	require.Eventually(t, func() bool {
		if !tracked() {
			return true
		}
		mem.fake.Advance(step)
		return false
	}, waitFor, 10*time.Millisecond, "the unadded block is still tracked")

	// Nothing was asked again: the first getdata p sees now is a marker's.
	p.requireNextGetDataFresh(util.Uint256{0xbe, 0xef}, "the unadded block was asked for again")
	require.Equal(t, 1, held.len())
}

// requireNextGetDataFresh announces the transaction hash fresh and
// requires the next getdata p receives to ask for it alone: the node
// answers in order, so a getdata for anything else sent before (a block
// asked again) would arrive first.
func (p *rawPeer) requireNextGetDataFresh(fresh util.Uint256, msg string) {
	p.t.Helper()
	p.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{fresh}})
	gd := p.expect(message.CmdGetData).Payload.(*payload.Inventory)
	require.Equal(p.t, payload.InvTX, gd.Type, msg)
	require.Equal(p.t, []util.Uint256{fresh}, gd.Hashes)
}

// TestBlockBeingAddedNotFetched: a validator adds the block its consensus
// agreed on while the other validators, done first, announce and send
// it. The node neither asks for that block nor queues a copy sent
// anyway (it is read as its header only).
func TestBlockBeingAddedNotFetched(t *testing.T) {
	next := refBlock31(t)

	held := new(heldBlocks)
	var adding atomic.Bool // the ledger is adding next
	adding.Store(true)
	v := newNode(t, nodeOpts{restore: true, restoreCount: 30, cfg: func(c *Config) {
		c.Blocks = held
		c.Adding = func() (uint32, util.Uint256, bool) {
			return next.Index, next.Hash(), adding.Load()
		}
	}})
	p := dialRaw(t, v, 33)
	p.send(message.CmdInv, &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{next.Hash()}})
	p.requireNextGetDataFresh(util.Uint256{0xad, 0xd1}, "the block being added was asked for")
	p.send(message.CmdBlock, next)
	p.requireNextGetDataFresh(util.Uint256{0xad, 0xd2}, "after the block")
	require.Zero(t, held.len(), "a copy of the block being added was queued")

	// Once the ledger is no longer adding it, the block is new again.
	adding.Store(false)
	p.send(message.CmdBlock, next)
	require.Eventually(t, func() bool { return held.len() == 1 }, waitFor, time.Millisecond)
}
