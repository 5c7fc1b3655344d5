package chain

import (
	"bytes"
	"context"
	"testing"

	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/stretchr/testify/require"
)

// BenchmarkRestore restores the chain50x2 reference chain (50 blocks, 2
// transactions each, full verification and execution) into memory.
func BenchmarkRestore(b *testing.B) {
	acc := accFile(b, "chain50x2")
	cfg := loadProtocol(b, "chain50x2")
	b.ReportAllocs()
	for b.Loop() {
		n, err := NewNativeSet(&cfg.ProtocolConfiguration)
		require.NoError(b, err)
		c, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Store: storage.NewMemoryStore(),
			Natives: n, BloomCapacity: 1000})
		require.NoError(b, err)
		_, err = Restore(context.Background(), c, bytes.NewReader(acc), RestoreOptions{})
		require.NoError(b, err)
		require.NoError(b, c.Close())
	}
	b.ReportMetric(float64(b.N*50)/b.Elapsed().Seconds(), "blocks/s")
}
