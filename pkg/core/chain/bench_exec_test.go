package chain

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chaindump"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// BenchmarkExecuteBlock executes the last block of the generated chain
// (benchDump: NEO and GAS transfers and storage writes, N3D_BENCH_TXS a
// block) on a throw-away layer of the state before it, again and again:
// the block processing's script execution alone (OnPersist, every
// transaction, PostPersist), without verification, MPT or persistence.
// CPU and allocations are reported per transaction:
//
//	N3D_BENCH_BLOCKS=20 N3D_BENCH_TXS=500 go test -run '^$' -bench ExecuteBlock ./pkg/core/chain
func BenchmarkExecuteBlock(b *testing.B) {
	dump := benchDump(b)
	last := lastDumpBlock(b, dump)
	c := openMemChain(b, unitTestnet(b))
	_, err := Restore(context.Background(), c, bytes.NewReader(dump), RestoreOptions{Count: last.Index - 1})
	require.NoError(b, err)
	require.Equal(b, last.Index-1, c.BlockHeight())
	n := len(last.Transactions)
	b.ReportAllocs()
	start := cputime.Process()
	for b.Loop() {
		layer := c.dao.Private()
		if _, err := c.exec.execute(layer, last); err != nil {
			b.Fatal(err)
		}
		_ = layer.Discard()
	}
	cpu := cputime.Process() - start
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/tx")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tx")
}

// lastDumpBlock decodes the last block of an .acc dump.
func lastDumpBlock(b *testing.B, dump []byte) *block.Block {
	d, err := chaindump.NewReader(bytes.NewReader(dump))
	require.NoError(b, err)
	var last []byte
	for {
		raw, err := d.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		require.NoError(b, err)
		last = append(last[:0], raw...)
	}
	blk, err := block.NewBlockFromBytes(last)
	require.NoError(b, err)
	return blk
}

// BenchmarkVerifyTxPool verifies the transactions of the generated chain's
// last block one by one as the pool's pipeline does (VerifyTxConcurrent,
// against the state before the block), with the signature cache holding
// every check (a transaction seen again) and without it (the first time):
//
//	N3D_BENCH_BLOCKS=20 N3D_BENCH_TXS=500 go test -run '^$' -bench VerifyTxPool ./pkg/core/chain
func BenchmarkVerifyTxPool(b *testing.B) {
	dump := benchDump(b)
	last := lastDumpBlock(b, dump)
	c := openMemChain(b, unitTestnet(b))
	_, err := Restore(context.Background(), c, bytes.NewReader(dump), RestoreOptions{Count: last.Index - 1})
	require.NoError(b, err)
	sigs := c.sigs
	for _, cached := range []bool{false, true} {
		name := "nosigcache"
		if cached {
			name = "sigcache"
		}
		b.Run(name, func(b *testing.B) {
			c.sigs = nil
			if cached {
				c.sigs = sigs
			}
			n := len(last.Transactions)
			b.ReportAllocs()
			start := cputime.Process()
			for b.Loop() {
				for _, tx := range last.Transactions {
					if err := c.VerifyTxConcurrent(tx); err != nil {
						b.Fatal(err)
					}
				}
			}
			cpu := cputime.Process() - start
			b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/tx")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/tx")
		})
	}
	c.sigs = sigs
}

// BenchmarkGetBlockBytes serves the generated chain's last block as the
// RPC getblock (non-verbose) does: decoded and re-encoded (GetBlock, then
// Bytes) against copied from the stored records (AppendBlockBytes), with
// the chain persisted to LevelDB (reads reach the backend) and in memory
// (as a block still in the write cache):
//
//	N3D_BENCH_BLOCKS=20 N3D_BENCH_TXS=500 go test -run '^$' -bench GetBlockBytes ./pkg/core/chain
func BenchmarkGetBlockBytes(b *testing.B) {
	dump := benchDump(b)
	last := lastDumpBlock(b, dump)
	want, err := last.Bytes()
	require.NoError(b, err)
	for _, typ := range []string{"leveldb", "memory"} {
		b.Run(typ, func(b *testing.B) {
			var st storage.Store = storage.NewMemoryStore()
			if typ == "leveldb" {
				st = benchStore(b, typ, b.TempDir())
			}
			cfg := unitTestnet(b)
			natives, err := NewNativeSet(&cfg.ProtocolConfiguration)
			require.NoError(b, err)
			c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
				Store: st, Natives: natives, PersistSync: true})
			require.NoError(b, err)
			b.Cleanup(func() { require.NoError(b, c.Close()) })
			_, err = Restore(context.Background(), c, bytes.NewReader(dump), RestoreOptions{})
			require.NoError(b, err)
			benchGetBlock(b, c, last, want)
		})
	}
}

func benchGetBlock(b *testing.B, c *Chain, last *block.Block, want []byte) {
	h := last.Hash()
	n := len(last.Transactions)
	run := func(b *testing.B, get func() ([]byte, error)) {
		got, err := get()
		require.NoError(b, err)
		require.Equal(b, want, got)
		b.ReportAllocs()
		start := cputime.Process()
		for b.Loop() {
			if _, err := get(); err != nil {
				b.Fatal(err)
			}
		}
		cpu := cputime.Process() - start
		b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N*n), "cpu-ns/tx")
	}
	b.Run("decoded", func(b *testing.B) {
		run(b, func() ([]byte, error) {
			blk, err := c.GetBlock(h)
			if err != nil {
				return nil, err
			}
			return blk.Bytes()
		})
	})
	b.Run("stored", func(b *testing.B) {
		run(b, func() ([]byte, error) { return c.AppendBlockBytes(nil, h) })
	})
}
