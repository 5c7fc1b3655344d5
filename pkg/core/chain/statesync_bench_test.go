package chain

import (
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// BenchmarkStateSync compares, on a generated chain of N3D_BENCH_BLOCKS+1
// blocks (401) with N3D_BENCH_TXS transactions each (4), what a node
// spends to reach the sync point P (the last multiple of 100 blocks,
// MaxTraceableBlocks 100): executing blocks 1..P, or synchronising the
// state (headers 1..P+1, every trie node of the state at P delivered in
// walk order in batches of 1000, blocks P-99..P stored unexecuted, the
// jump). The peer's side (walking its trie) is not counted:
//
//	go test -run '^$' -bench StateSync -benchtime 1x -count 3 ./pkg/core/chain
func BenchmarkStateSync(b *testing.B) {
	const interval, mtb = 100, 100
	blocks := uint32(benchEnvInt(b, "N3D_BENCH_BLOCKS", 400))
	cfg := syncConfig(b)
	cfg.ProtocolConfiguration.StateSyncInterval = interval
	cfg.ProtocolConfiguration.MaxTraceableBlocks = mtb
	cfg.ProtocolConfiguration.Genesis.MaxTraceableBlocks = mtb
	n, err := NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(b, err)
	a, err := Open(Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: n, BloomCapacity: 100000})
	require.NoError(b, err)
	defer a.Close()
	_, err = Generate(context.Background(), a, io.Discard, GenerateOptions{Blocks: blocks + 1,
		TxPerBlock: benchEnvInt(b, "N3D_BENCH_TXS", 4), Validators: validatorKeys(b, 3)})
	require.NoError(b, err)
	p := blocks / interval * interval
	var blks []*block.Block // blks[i] is block i+1
	for i := uint32(1); i <= p+1; i++ {
		blks = append(blks, mustBlock(b, a, i))
	}
	root := blks[p].PrevStateRoot
	var nodes [][]byte
	require.NoError(b, a.WalkStateNodes(root, func(_ util.Uint256, enc []byte) mpt.WalkAction {
		nodes = append(nodes, bytes.Clone(enc))
		return mpt.WalkOn
	}))
	open := func(set func(*config.Ledger)) *Chain {
		c := cfg
		set(&c.ApplicationConfiguration.Ledger)
		n, err := NewNativeSet(&c.ProtocolConfiguration)
		require.NoError(b, err)
		ch, err := Open(Config{Protocol: c.ProtocolConfiguration, Ledger: c.ApplicationConfiguration.Ledger,
			Store: storage.NewMemoryStore(), Natives: n, BloomCapacity: 100000})
		require.NoError(b, err)
		return ch
	}
	b.Run("execute", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := open(func(*config.Ledger) {})
			cpu := cputime.Process()
			for _, x := range blks[:p] {
				require.NoError(b, c.AddBlock(x))
			}
			b.ReportMetric(float64((cputime.Process() - cpu).Milliseconds()), "cpu-ms")
			require.NoError(b, c.Close())
		}
	})
	b.Run("statesync", func(b *testing.B) {
		b.ReportAllocs()
		b.ReportMetric(float64(len(nodes)), "nodes")
		for b.Loop() {
			c := open(func(l *config.Ledger) { l.RemoveUntraceableBlocks = true })
			cpu := cputime.Process()
			ss := c.StateSync()
			require.NoError(b, ss.Init(blocks))
			for i := 0; i <= int(p); i += 2000 {
				var hdrs []*block.Header
				for _, x := range blks[i:min(i+2000, int(p)+1)] {
					hdrs = append(hdrs, &x.Header)
				}
				require.NoError(b, ss.AddHeaders(hdrs...))
			}
			for i := 0; i < len(nodes); i += 1000 {
				require.NoError(b, ss.AddMPTNodes(nodes[i:min(i+1000, len(nodes))]))
			}
			from, to, ok := ss.BlockRange()
			require.True(b, ok)
			for i := from; i <= to; i++ {
				require.NoError(b, ss.AddBlock(blks[i-1]))
			}
			require.False(b, ss.IsActive())
			b.ReportMetric(float64((cputime.Process() - cpu).Milliseconds()), "cpu-ms")
			require.NoError(b, c.Close())
		}
	})
}
