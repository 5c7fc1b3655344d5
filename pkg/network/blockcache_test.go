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
// two newer ones) is read from the ledger again.
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

	a.srv.RelayBlock(blockAt(top - 2))
	a.srv.RelayBlock(blockAt(top - 1))
	a.srv.RelayBlock(blockAt(top))
	require.Equal(t, fromLedger, getData(blockAt(top)))
	getData(blockAt(top - 1))
	p.send(message.CmdGetBlockByIndex, &payload.GetBlockByIndex{IndexStart: top - 1, Count: 2})
	for _, i := range []uint32{top - 1, top} {
		require.Equal(t, blockAt(i).Hash(), p.expect(message.CmdBlock).Payload.(*block.Block).Hash())
	}
	require.EqualValues(t, 1, led.reads.Load(), "a recent block was read from the ledger")

	// top-2 was evicted by the two newer ones.
	getData(blockAt(top - 2))
	require.EqualValues(t, 2, led.reads.Load())
}
