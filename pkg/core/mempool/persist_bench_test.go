package mempool

import (
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/stretchr/testify/require"
)

// BenchmarkJournalAccept is the saved pool's part of accepting a
// transaction as RPC does it: many requests at once, each returning only
// once its transaction is written (Append). Concurrent requests share
// writes (group commit). cpu-ns/op is the process's CPU time per
// transaction, which a loaded machine moves less than ns/op.
func BenchmarkJournalAccept(b *testing.B) {
	txs := benchTxs(b.N)
	j, _, err := OpenJournal(JournalConfig{Path: filepath.Join(b.TempDir(), "mempool"), MaxTransactions: b.N + 1})
	require.NoError(b, err)
	var next atomic.Int64
	b.SetParallelism(5) // 10 goroutines on 2 cores: neo-bench's 10 workers
	b.ReportAllocs()
	start := cputime.Process()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := j.Append(txs[next.Add(1)-1]); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.StopTimer()
	b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
	j.mu.Lock()
	b.ReportMetric(float64(j.writes)/float64(b.N), "writes/op") // before group commit: 1
	j.mu.Unlock()
	require.NoError(b, j.Close(nil))
}
