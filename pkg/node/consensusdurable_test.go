package node

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/consensus"
)

func TestSignLogPath(t *testing.T) {
	require.Equal(t, "/d/chain.signlog", signLogPath(config.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: "/d/chain"}}))
	require.Equal(t, "/d/chain.bolt.signlog", signLogPath(config.DBConfiguration{Type: config.DBBoltDB,
		BoltDBOptions: config.BoltDBOptions{FilePath: "/d/chain.bolt"}}))
	require.Empty(t, signLogPath(config.DBConfiguration{Type: config.DBInMemory}))
	require.Equal(t, 8, txResendThreshold(4), "twice the validators")
	require.Equal(t, 5, txResendThreshold(1), "at least the default")
}

// ownEntries counts the entries the node signed itself at height h in
// the sign log at path (opened after the node stopped).
func ownEntries(t *testing.T, path string, h uint32) int {
	t.Helper()
	sl, err := consensus.OpenSignLog(path)
	require.NoError(t, err)
	defer func() { require.NoError(t, sl.Close()) }()
	var own int
	for _, e := range sl.Entries(h) {
		if e.Own {
			own++
		}
	}
	return own
}

// A validator on a LevelDB database keeps its consensus sign log next to
// it: the messages it signed for a block are in the file after a stop and
// are still there after a restart on the same data directory, beside
// those of the blocks it makes then.
func TestConsensusSignLogSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := singleConfig(t, true, 100*time.Millisecond)
	cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(dir, "chain")}}
	path := filepath.Join(dir, "chain.signlog")

	run := func(above uint32) uint32 {
		r := startNode(t, cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
		c := r.n.Chain()
		require.Eventually(t, func() bool { return c.BlockHeight() > above+1 }, 30*time.Second, 10*time.Millisecond)
		r.stop()
		require.Equal(t, []string{"consensus", "stateroot", "rpc", "p2p", "signlog", "mempool", "monitor", "chain"}, r.stopOrder(),
			"the sign log is closed after consensus stopped")
		return c.BlockHeight()
	}
	first := run(0)
	st, err := os.Stat(path)
	require.NoError(t, err, "the sign log is next to the database")
	require.Positive(t, st.Size())
	require.Positive(t, ownEntries(t, path, 1), "what the validator signed for block 1")

	second := run(first)
	require.Greater(t, second, first)
	require.Positive(t, ownEntries(t, path, 1), "kept across the restart")
	require.Positive(t, ownEntries(t, path, second), "and the blocks made after it")
}

// A sign log that cannot be opened is a start-up error: a validator does
// not run without it.
func TestConsensusSignLogOpenFailure(t *testing.T) {
	dir := t.TempDir()
	cfg := singleConfig(t, true, time.Second)
	cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(dir, "chain")}}
	require.NoError(t, os.Mkdir(filepath.Join(dir, "chain.signlog"), 0o700)) // a directory: not openable as a file
	n, err := New(cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	require.NoError(t, err)
	err = n.Start(context.Background())
	require.ErrorContains(t, err, "sign log")
	require.NoError(t, n.Stop())
}

// TestFourValidatorsFirstBlockInViewZero: the four privnet validators,
// started one after another, make block 1 in its first view (primary 1 of
// 4: no view change). The first round waits until the node has a
// handshake with the P2P section's MinPeers peers, so the proposal of the
// first validator to start is not sent to nobody and the round does not
// time out before the others are up.
func TestFourValidatorsFirstBlockInViewZero(t *testing.T) {
	if testing.Short() {
		t.Skip("four nodes")
	}
	data, ok := config.Embedded(config.NetPrivNet)
	require.True(t, ok)
	addrs := make([]string, len(privnetWallets))
	for i := range addrs {
		addrs[i] = freeAddr(t)
	}
	var nodes []*runningNode
	for i, w := range privnetWallets {
		cfg, err := config.Parse(data, "")
		require.NoError(t, err)
		p, a := &cfg.ProtocolConfiguration, &cfg.ApplicationConfiguration
		// Blocks of 3 s: the backups wait 6 s for the proposal, margin enough
		// for a loaded machine (the view-0 primary is what is checked).
		p.TimePerBlock, p.Genesis.TimePerBlock, p.MaxTimePerBlock = 3*time.Second, 3*time.Second, 0
		p.SeedList = addrs
		a.DBConfiguration = config.DBConfiguration{Type: config.DBInMemory}
		a.P2P.Addresses = []string{addrs[i]}
		a.P2P.MinPeers, a.P2P.ProtoTickInterval = len(addrs)-1, 50*time.Millisecond
		a.RPC.Enabled, a.Prometheus.Enabled, a.Pprof.Enabled = false, false, false
		a.Consensus.Enabled = true
		a.Consensus.UnlockWallet = config.Wallet{Path: filepath.Join("..", "..", "pkg", "wallet", "testdata", w.file),
			Password: w.password}
		nodes = append(nodes, startNode(t, cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry())))
	}
	for _, n := range nodes {
		c := n.n.Chain()
		require.Eventually(t, func() bool { return c.BlockHeight() >= 1 }, 60*time.Second, 10*time.Millisecond)
		b, err := c.GetBlockByIndex(1)
		require.NoError(t, err)
		require.Equal(t, uint8(1), b.PrimaryIndex, "block 1 made by the primary of view 0")
	}
	for i := len(nodes) - 1; i >= 0; i-- {
		nodes[i].shutdown()
	}
}

// freeAddr returns a loopback TCP address that was free a moment ago.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer l.Close()
	return l.Addr().String()
}
