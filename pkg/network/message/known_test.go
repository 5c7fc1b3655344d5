package message

import (
	"bytes"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/stretchr/testify/require"
)

// TestKnownBlockHeaderOnly: a block message at an index KnownBlock accepts
// decodes to its header only (same index and hash as the block's),
// compressed or not, with far fewer allocations; other indexes, and no
// KnownBlock, decode the whole block.
func TestKnownBlockHeaderOnly(t *testing.T) {
	blk := benchBlock(t, 256<<10)
	m, err := New(CmdBlock, blk)
	require.NoError(t, err)
	for _, compress := range []bool{false, true} {
		wire := m.AppendBinary(nil, compress)
		var asked []uint32
		known := func(limit uint32) Options {
			return Options{KnownBlock: func(i uint32) bool { asked = append(asked, i); return i <= limit }}
		}
		got, err := ReadWith(bytes.NewReader(wire), known(blk.Index))
		require.NoError(t, err)
		h, ok := got.Payload.(*block.Header)
		require.True(t, ok, "compress %v: %T", compress, got.Payload)
		require.Equal(t, CmdBlock, got.Command)
		require.Equal(t, blk.Index, h.Index)
		require.Equal(t, blk.Hash(), h.Hash())
		require.Equal(t, []uint32{blk.Index}, asked)

		got, err = ReadWith(bytes.NewReader(wire), known(blk.Index-1))
		require.NoError(t, err)
		b, ok := got.Payload.(*block.Block)
		require.True(t, ok)
		require.Len(t, b.Transactions, len(blk.Transactions))
		got, err = ReadWith(bytes.NewReader(wire), Options{})
		require.NoError(t, err)
		require.IsType(t, (*block.Block)(nil), got.Payload)

		whole := testing.AllocsPerRun(5, func() { _, _ = ReadWith(bytes.NewReader(wire), Options{}) })
		header := testing.AllocsPerRun(5, func() { _, _ = ReadWith(bytes.NewReader(wire), known(blk.Index)) })
		t.Logf("compress %v: %.0f allocations for the header only, %.0f for the whole block of %d transactions",
			compress, header, whole, len(blk.Transactions))
		require.Less(t, header*10, whole, "compress %v: %v allocations against %v", compress, header, whole)
	}
}
