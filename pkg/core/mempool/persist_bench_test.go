package mempool

import (
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

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
	start := benchCPUTime()
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
	b.ReportMetric(float64(benchCPUTime()-start)/float64(b.N), "cpu-ns/op")
	j.mu.Lock()
	b.ReportMetric(float64(j.writes)/float64(b.N), "writes/op") // before group commit: 1
	j.mu.Unlock()
	require.NoError(b, j.Close(nil))
}

func benchCPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
