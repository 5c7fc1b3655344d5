package mempool

import (
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
)

// item is a pooled transaction with the figures the pool orders and
// accounts by, computed once when it enters the pool.
type item struct {
	tx         *transaction.Transaction
	hash       util.Uint256
	sender     util.Uint160
	feePerByte int64 // NetworkFee / Size, as the reference's FeePerByte
	netFee     int64
	fee        int64 // SystemFee + NetworkFee (the decoder rules out overflow)
	high       bool  // has a HighPriority attribute
	oracle     bool  // has an OracleResponse attribute
	oracleID   uint64
	conflicts  []util.Uint256 // hashes named by its Conflicts attributes

	// The verdict of UpdateForBlock's isStillValid in round epoch; written
	// by one check worker, read under the pool lock after they finished.
	epoch uint64
	valid bool

	gone bool // left the indexes, to leave the ordered list (under the pool lock)
}

func newItem(tx *transaction.Transaction) *item {
	it := &item{
		tx:         tx,
		hash:       tx.Hash(),
		sender:     tx.Sender(),
		feePerByte: tx.FeePerByte(),
		netFee:     tx.NetworkFee,
		fee:        tx.SystemFee + tx.NetworkFee,
	}
	for i := range tx.Attributes {
		switch v := tx.Attributes[i].Value.(type) {
		case *transaction.OracleResponse:
			it.oracle, it.oracleID = true, v.ID
		case *transaction.Conflicts:
			it.conflicts = append(it.conflicts, v.Hash)
		default:
			if tx.Attributes[i].Type == transaction.AttrHighPriority {
				it.high = true
			}
		}
	}
	return it
}

// cmp orders items by priority as the reference's PoolItem.CompareTo:
// HighPriority first, then fee per byte, then network fee (both higher
// first), then the hash, the numerically smaller hash first (the
// reference compares UInt256 values, most significant word first). It
// returns > 0 when a goes before b, < 0 when after, and 0 only for the
// same hash, so the order is total over distinct transactions.
func (a *item) cmp(b *item) int {
	if c := a.cmpPriority(b); c != 0 {
		return c
	}
	return b.hash.Compare(a.hash)
}

// cmpPriority is cmp without the hash: what a transaction must beat to
// take the place of a pooled one in a full pool. Two transactions of equal
// priority never displace each other there (as in neo-go): the pooled one
// was accepted (its sender was told so and may rely on it being relayed),
// while the newcomer gets ErrOOM, a clear answer it can retry on. With the
// hash deciding, a full pool of equal fees (neo-bench's load on a 4+1 RPC
// node whose validators lag a block) dropped accepted transactions that
// no peer had fetched yet.
func (a *item) cmpPriority(b *item) int {
	if a.high != b.high {
		if a.high {
			return 1
		}
		return -1
	}
	if a.feePerByte != b.feePerByte {
		if a.feePerByte > b.feePerByte {
			return 1
		}
		return -1
	}
	if a.netFee != b.netFee {
		if a.netFee > b.netFee {
			return 1
		}
		return -1
	}
	return 0
}

// hasSigner reports whether acc signs it.
func (a *item) hasSigner(acc util.Uint160) bool { return a.tx.HasSigner(acc) }

// sharesSigner reports whether a and b have a signer in common.
func (a *item) sharesSigner(b *item) bool {
	for i := range a.tx.Signers {
		if b.tx.HasSigner(a.tx.Signers[i].Account) {
			return true
		}
	}
	return false
}
