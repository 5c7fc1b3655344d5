package txpipe

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/stretchr/testify/require"
)

// BenchmarkPipeline takes signed transactions from 8 peers through dedup,
// real signature verification and the pool, with one worker and with
// GOMAXPROCS workers in the same run.
func BenchmarkPipeline(b *testing.B) {
	privs := make([]*keys.PrivateKey, 64)
	for i := range privs {
		var err error
		privs[i], err = keys.NewPrivateKey()
		require.NoError(b, err)
	}
	var signed []*transaction.Transaction
	txs := func(n int) []*transaction.Transaction {
		for len(signed) < n {
			signed = append(signed, signedTx(b, privs[len(signed)%len(privs)], uint32(len(signed))))
		}
		return signed[:n]
	}
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			batch := txs(b.N)
			h := newHarness(b, b.N+1, func(c *Config) { c.Workers, c.PerSource, c.MaxQueued = workers, b.N, b.N })
			h.chain.verify = verifySignature
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			b.ResetTimer()
			start := time.Now()
			go func() { done <- h.pipe.Run(ctx) }()
			for i, tx := range batch {
				if err := h.pipe.Submit(Source(i%8+1), tx); err != nil {
					b.Fatal(err)
				}
			}
			for h.pool.Count() < b.N {
				time.Sleep(100 * time.Microsecond)
			}
			elapsed := time.Since(start)
			b.StopTimer()
			cancel()
			require.NoError(b, <-done)
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "tx/s")
		})
	}
}
