package block

import (
	"bytes"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// ShareTransactions replaces each of the block's transactions that lookup
// returns with identical witnesses by lookup's instance, and returns how
// many it replaced. Equal hashes mean equal signed data; the witnesses are
// compared byte by byte, so the block stays exactly what was decoded.
//
// Why: a block decoded from a message (DecodeBinaryBuf) keeps its
// transactions in one array whose scripts are sub-slices of the message's
// buffer, so a node that already pools those transactions (an RPC node
// that received them from clients) holds every one twice until the block
// is added. When every transaction is replaced, the header's witness is
// copied out of that buffer too: the array and the buffer (together about
// twice the block's size) are then garbage at once instead of living
// through the block's queueing and execution.
//
// Call it before the block is shared: it writes Transactions and the
// header's witness.
func (b *Block) ShareTransactions(lookup func(util.Uint256) (*transaction.Transaction, bool)) int {
	shared := 0
	for i, tx := range b.Transactions {
		other, ok := lookup(tx.Hash())
		if !ok || (other != tx && !transaction.SameWitnesses(tx.Witnesses, other.Witnesses)) {
			continue
		}
		b.Transactions[i] = other
		shared++
	}
	if shared > 0 && shared == len(b.Transactions) {
		b.Witness.InvocationScript = bytes.Clone(b.Witness.InvocationScript)
		b.Witness.VerificationScript = bytes.Clone(b.Witness.VerificationScript)
	}
	return shared
}
