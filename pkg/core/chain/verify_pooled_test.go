package chain

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// poolOf is a Config.Pooled over a fixed set of transactions.
func poolOf(txs ...*transaction.Transaction) func(util.Uint256) (*transaction.Transaction, bool) {
	m := make(map[util.Uint256]*transaction.Transaction, len(txs))
	for _, tx := range txs {
		m[tx.Hash()] = tx
	}
	return func(h util.Uint256) (*transaction.Transaction, bool) {
		tx, ok := m[h]
		return tx, ok
	}
}

// withWitness returns a copy of tx (same hash: the hash does not cover
// the witnesses) whose first witness carries sig.
func withWitness(kc *keyChain, tx *transaction.Transaction, sig []byte) *transaction.Transaction {
	cp := *tx
	cp.Witnesses = []transaction.Witness{kc.witnessFor(tx.Signers[0].Account, sig)}
	cp.InvalidateCache()
	require.Equal(kc.t, tx.Hash(), cp.Hash())
	return &cp
}

func counterValue(t *testing.T, c prometheus.Counter) float64 {
	var m dto.Metric
	require.NoError(t, c.Write(&m))
	return m.GetCounter().GetValue()
}

// TestBlockTrustsPooledTxs: a block's transaction that the pool holds with
// the same witnesses skips the state-independent checks (a forged
// signature the pool is made to hold goes through, which only the skip
// allows) but not the state-dependent ones; one the pool does not hold,
// or holds with other witnesses, is verified in full.
func TestBlockTrustsPooledTxs(t *testing.T) {
	kc := newKeyChain(t)
	c := kc.c
	badSig := make([]byte, 64)
	pooled := func() float64 { return counterValue(t, c.metrics.pooledTxs) }

	// Not pooled: fully verified, the forged signature is caught.
	forged := withWitness(kc, kc.tx(push1), badSig)
	c.cfg.Pooled = poolOf()
	require.ErrorIs(t, c.AddBlock(kc.block(forged)), ErrWitness)

	// Pooled with different witnesses than the block's copy: not trusted.
	valid := kc.tx(push1)
	c.cfg.Pooled = poolOf(valid)
	require.ErrorIs(t, c.AddBlock(kc.block(withWitness(kc, valid, badSig))), ErrWitness)

	// Pooled, the same object: the signature is not checked again.
	before := pooled()
	c.cfg.Pooled = poolOf(forged)
	kc.add2(forged)
	require.Equal(t, before+1, pooled())

	// Pooled, an equal copy (a block decoded from the network): trusted
	// too; a transaction beside it that is not pooled is checked.
	copyOf := withWitness(kc, valid, valid.Witnesses[0].InvocationScript[2:])
	require.NotSame(t, valid, copyOf)
	other := withWitness(kc, kc.tx(push1), badSig)
	require.ErrorIs(t, c.AddBlock(kc.block(copyOf, other)), ErrWitness)
	c.cfg.Pooled = poolOf(valid, other)
	before = pooled()
	kc.add2(copyOf, other)
	require.Equal(t, before+2, pooled())

	// The state-dependent checks still run for pooled transactions: an
	// expired one, one already on chain, one twice in the block.
	expired := kc.tx(push1, func(tx *transaction.Transaction) { tx.ValidUntilBlock = c.BlockHeight() + 1 })
	kc.add2()
	twice := kc.tx(push1)
	c.cfg.Pooled = poolOf(expired, valid, twice)
	require.ErrorIs(t, c.AddBlock(kc.block(expired)), ErrTxValidUntilBlock)
	require.ErrorIs(t, c.AddBlock(kc.block(valid)), ErrAlreadyExists)
	require.ErrorIs(t, c.AddBlock(kc.block(twice, twice)), ErrAlreadyExists)
}

// add2 adds a block of txs through AddBlock alone (add also runs the full
// verification first, which a block of forged pooled transactions fails).
func (kc *keyChain) add2(txs ...*transaction.Transaction) {
	require.NoError(kc.t, kc.c.AddBlock(kc.block(txs...)))
}

// BenchmarkVerifyTxsOn is the block path's transaction check (verifyTxsOn)
// of chain50x2's last block, with its transactions pooled (the pooled
// copies are equal, not the same objects, as for a block from a peer) and
// not (the signature cache warm in both), per transaction.
func BenchmarkVerifyTxsOn(b *testing.B) {
	cfg := loadProtocol(b, "chain50x2")
	natives, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(b, err)
	c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(b, err)
	defer c.Close()
	raws := refBlocks(b, "chain50x2")[1:]
	for _, rb := range raws[:len(raws)-1] {
		blk, err := block.NewBlockFromBytes(rb.Raw)
		require.NoError(b, err)
		require.NoError(b, c.AddBlock(blk))
	}
	last, err := block.NewBlockFromBytes(raws[len(raws)-1].Raw)
	require.NoError(b, err)
	copies, err := block.NewBlockFromBytes(raws[len(raws)-1].Raw)
	require.NoError(b, err)
	for _, pooled := range []bool{false, true} {
		c.cfg.Pooled = nil
		if pooled {
			c.cfg.Pooled = poolOf(copies.Transactions...)
		}
		b.Run(map[bool]string{false: "full", true: "pooled"}[pooled], func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if err := c.verifyTxsOn(c.dao.Private(), last); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(last.Transactions)), "ns/tx")
		})
	}
}
