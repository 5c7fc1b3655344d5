package message

import (
	"fmt"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/stretchr/testify/require"
)

// TestReferenceBlocksAndTransactions wraps every block and transaction of
// the reference chains in block / transaction / headers messages and checks
// that the payload bytes are the reference's and that the decoded hashes
// are the ones the reference reports.
func TestReferenceBlocksAndTransactions(t *testing.T) {
	for _, chain := range []string{"testblocks", "chain50x2"} {
		t.Run(chain, func(t *testing.T) {
			var headers []*block.Header
			ntx := 0
			for _, b := range loadChainBlocks(t, chain) {
				blk, err := block.NewBlockFromBytes(b.Raw)
				require.NoError(t, err)
				m := mustNew(t, CmdBlock, blk)
				require.Equal(t, b.Raw, m.RawPayload(), "block %d", b.Index)
				if m.IsCompressed() {
					require.Equal(t, compress(b.Raw), m.wire)
				}
				got := roundTrip(t, m)
				gb := got.Payload.(*block.Block)
				require.Equal(t, b.Hash, gb.Hash().String(), "block %d", b.Index)
				headers = append(headers, &gb.Header)

				require.Len(t, gb.Transactions, len(b.Block.Tx))
				for i, tx := range gb.Transactions {
					tm := mustNew(t, CmdTransaction, tx)
					gt := roundTrip(t, tm).Payload.(*transaction.Transaction)
					require.Equal(t, b.Block.Tx[i].Hash, gt.Hash().String())
					raw, err := tx.Bytes()
					require.NoError(t, err)
					require.Equal(t, raw, tm.RawPayload())
					ntx++
				}
			}
			require.Positive(t, ntx)
			hm := mustNew(t, CmdHeaders, &payload.Headers{Headers: headers})
			gh := roundTrip(t, hm).Payload.(*payload.Headers)
			require.Len(t, gh.Headers, len(headers))
			for i, h := range gh.Headers {
				require.Equal(t, headers[i].Hash(), h.Hash(), fmt.Sprint(i))
			}
		})
	}
}
