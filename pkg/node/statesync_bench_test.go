package node

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/node/nodetest"
)

// BenchmarkJoin: a node joins a peer holding a generated chain (210
// blocks, 100 transactions each from block 2, the default 8 accounts and a storage
// contract; StateRootInHeader, sync points every 50 blocks, a window of
// 100) and reaches its height, either executing every block
// (mode=blocks) or with the state sync (mode=statesync: headers, the trie
// at block 200, blocks 101..200 stored, then 201..210 executed). One op
// is one whole join; cpu-ns/op is the process's CPU time (both nodes)
// per join. With -count=N the two modes alternate.
func BenchmarkJoin(b *testing.B) {
	src := joinSource(b)
	for _, mode := range []string{"blocks", "statesync"} {
		b.Run("mode="+mode, func(b *testing.B) {
			start := cputime.Process()
			for range b.N {
				joinOnce(b, src, mode == "statesync")
			}
			b.ReportMetric(float64(cputime.Process()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

const (
	joinInterval = 50
	joinBlocks   = 210
)

func joinConfig(b *testing.B) config.Config {
	cfg := nodetest.SingleConfig(b, false, 100*time.Millisecond)
	p := &cfg.ProtocolConfiguration
	p.StateRootInHeader, p.P2PStateExchangeExtensions = true, true
	p.StateSyncInterval = joinInterval
	p.MaxTraceableBlocks, p.Genesis.MaxTraceableBlocks = 2*joinInterval, 2*joinInterval
	p.MaxValidUntilBlockIncrement = joinInterval
	a := &cfg.ApplicationConfiguration
	a.RPC.Enabled = false
	a.P2P.MinPeers = 1
	a.P2P.ProtoTickInterval = 100 * time.Millisecond
	return cfg
}

// joinSource is a node with the generated chain, serving it.
func joinSource(b *testing.B) *Node {
	cfg := joinConfig(b)
	cons := cfg.ApplicationConfiguration.Consensus
	cons.Enabled = true
	ks, err := ConsensusKeys(cons)
	require.NoError(b, err)
	n, err := New(cfg, WithLogger(zap.NewNop()), WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.NoError(b, err)
	b.Cleanup(func() { require.NoError(b, n.Stop()) })
	_, err = chain.Generate(context.Background(), n.Chain(), io.Discard, chain.GenerateOptions{
		Blocks: joinBlocks, TxPerBlock: 100, Validators: []*keys.PrivateKey{ks[0]}, Seed: "join"})
	require.NoError(b, err)
	require.NoError(b, n.Start(context.Background()))
	return n
}

// joinOnce starts a node at genesis seeded with src, waits until it has
// src's height and state root, and stops it.
func joinOnce(b *testing.B, src *Node, stateSync bool) {
	cfg := joinConfig(b)
	cfg.ApplicationConfiguration.RemoveUntraceableBlocks = stateSync
	cfg.ProtocolConfiguration.SeedList = []string{src.P2PAddrs()[0].String()}
	n, err := New(cfg, WithLogger(zap.NewNop()), WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.NoError(b, err)
	require.NoError(b, n.Start(context.Background()))
	c, top := n.Chain(), src.Chain().BlockHeight()
	require.True(b, waitCond(func() bool { return c.BlockHeight() >= top }, 5*time.Minute),
		"stuck at %d of %d", c.BlockHeight(), top)
	require.Equal(b, src.Chain().CurrentStateRoot(), c.CurrentStateRoot())
	if stateSync {
		_, err := c.StateRoot(1)
		require.Error(b, err, "block 1 was executed")
	}
	require.NoError(b, n.Stop())
}
