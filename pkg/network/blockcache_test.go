package network

import (
	"sync/atomic"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// countingLedger counts the blocks read from the ledger.
type countingLedger struct {
	Ledger
	reads atomic.Int32
}

func (l *countingLedger) GetBlock(h util.Uint256) (*block.Block, error) {
	l.reads.Add(1)
	return l.Ledger.GetBlock(h)
}

// TestRecentBlocksServedFromMemory: the newest blocks the chain added
// (RelayBlock) are served to getdata and getblockbyindex without reading
// the ledger, the same bytes as read from it; an older block (evicted by
// the newer ones) is read from the ledger again.
func TestRecentBlocksServedFromMemory(t *testing.T) {
	var led *countingLedger
	a := newNode(t, nodeOpts{restore: true, cfg: func(c *Config) {
		led = &countingLedger{Ledger: c.Ledger}
		c.Ledger = led
	}})
	p := dialRaw(t, a, 1)
	top := a.chain.BlockHeight()
	blockAt := func(i uint32) *block.Block {
		b, err := a.chain.GetBlockByIndex(i)
		require.NoError(t, err)
		return b
	}
	getData := func(b *block.Block) []byte {
		p.send(message.CmdGetData, &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{b.Hash()}})
		m := p.expect(message.CmdBlock)
		require.Equal(t, b.Hash(), m.Payload.(*block.Block).Hash())
		return m.RawPayload()
	}

	// Read from the ledger before RelayBlock.
	fromLedger := getData(blockAt(top))
	require.EqualValues(t, 1, led.reads.Load())

	for i := top - recentBlocks; i <= top; i++ {
		a.srv.RelayBlock(blockAt(i))
	}
	require.Equal(t, fromLedger, getData(blockAt(top)))
	first := top - recentBlocks + 1 // the oldest block still cached
	getData(blockAt(first))
	p.send(message.CmdGetBlockByIndex, &payload.GetBlockByIndex{IndexStart: first, Count: recentBlocks})
	for i := first; i <= top; i++ {
		require.Equal(t, blockAt(i).Hash(), p.expect(message.CmdBlock).Payload.(*block.Block).Hash())
	}
	require.EqualValues(t, 1, led.reads.Load(), "a recent block was read from the ledger")

	// The block before them was evicted by the newer ones.
	getData(blockAt(top - recentBlocks))
	require.EqualValues(t, 2, led.reads.Load())
}
