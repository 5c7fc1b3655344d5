package mempool

import (
	"math/rand/v2"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

const benchPool = 50000 // the protocol's default MemPoolSize

func benchTxs(n int) []*transaction.Transaction {
	r := rand.New(rand.NewPCG(3, 4))
	txs := make([]*transaction.Transaction, n)
	for i := range txs {
		txs[i] = txSpec{nonce: uint32(i), signers: []util.Uint160{acc(r.IntN(1000))},
			netFee: int64(r.IntN(100)) * 10000}.build()
		txs[i].Hash()
	}
	return txs
}

func fullPool(b *testing.B, txs []*transaction.Transaction) (*Pool, *fakeLedger) {
	p, l := newPool(b, benchPool)
	for _, tx := range txs {
		require.NoError(b, add(p, l, tx))
	}
	return p, l
}

// BenchmarkAdd adds transactions with random fees into a pool holding
// benchPool of them (a full pool evicts one per add).
func BenchmarkAdd(b *testing.B) {
	txs := benchTxs(2 * benchPool)
	b.ResetTimer()
	for i := 0; i < b.N; {
		b.StopTimer()
		p, l := fullPool(b, txs[:benchPool])
		b.StartTimer()
		for _, tx := range txs[benchPool:] {
			err := add(p, l, tx)
			if err != nil && err != ErrOOM {
				b.Fatal(err)
			}
			if i++; i == b.N {
				break
			}
		}
	}
}

func BenchmarkGetVerifiedTransactions(b *testing.B) {
	p, _ := fullPool(b, benchTxs(benchPool))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if len(p.GetVerifiedTransactions()) != benchPool {
			b.Fatal("short")
		}
	}
}

func BenchmarkUpdateForBlock(b *testing.B) {
	txs := benchTxs(benchPool)
	p, _ := fullPool(b, txs)
	b.ResetTimer()
	for range b.N {
		p.RemoveStale(func(*transaction.Transaction) bool { return true })
	}
}

// BenchmarkUpdateForBlockIncluded removes a block of 10,000 transactions
// from a pool of 20,000 (a loaded node's pool holds a block or two).
func BenchmarkUpdateForBlockIncluded(b *testing.B) {
	txs := benchTxs(20000)
	b.ReportAllocs()
	for range b.N {
		b.StopTimer()
		p, _ := fullPool(b, txs)
		b.StartTimer()
		p.UpdateForBlock(txs[:10000], func(*transaction.Transaction) bool { return true })
	}
}
