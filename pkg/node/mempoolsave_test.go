package node

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/util"
)

// A node on LevelDB keeps its pool across a restart (MempoolPersistence,
// on by default): a transaction pooled through the node's pipeline is in
// <database>.mempool after the stop and in the pool again after a start
// on the same data directory. Disabled, nothing is saved.
func TestNodeKeepsPoolAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	cfg := singleConfig(t, false, time.Second) // no blocks: the transaction stays valid and pooled
	cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(dir, "chain")}}
	key := validatorKey(t, cfg)
	start := func(cfg config.Config) *runningNode {
		return startNode(t, cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	}

	r := start(cfg)
	tx := gasTransfer(t, r.n, key, 7, util.Uint160{1}, 1_0000_0000)
	require.NoError(t, r.n.SubmitTx(t.Context(), tx))
	require.True(t, r.n.Pool().Contains(tx.Hash()))
	// Accepted means written (a SIGKILL now would keep it), not only staged.
	raw, err := os.ReadFile(filepath.Join(dir, "chain.mempool"))
	require.NoError(t, err)
	txBytes, err := tx.Bytes()
	require.NoError(t, err)
	require.True(t, bytes.Contains(raw, txBytes), "the saved pool has the transaction once SubmitTx returned")
	r.stop()
	st, err := os.Stat(filepath.Join(dir, "chain.mempool"))
	require.NoError(t, err, "the saved pool is next to the database")
	require.Positive(t, st.Size())

	r = start(cfg)
	require.True(t, r.n.Pool().Contains(tx.Hash()), "reloaded after the restart")
	r.stop()

	cfg.ApplicationConfiguration.MempoolPersistence.Disabled = true
	r = start(cfg)
	require.False(t, r.n.Pool().Contains(tx.Hash()), "not reloaded when disabled")
	r.stop()
}

// TestNodeRefusesWhatItCannotSave: once the saved pool takes no more
// records, sendrawtransaction's path refuses a transaction with
// chain.ErrStorage and the pool does not keep it (a restart would lose
// it); the chain's own storage is fine throughout.
func TestNodeRefusesWhatItCannotSave(t *testing.T) {
	dir := t.TempDir()
	cfg := singleConfig(t, false, time.Second)
	cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(dir, "chain")}}
	key := validatorKey(t, cfg)
	r := startNode(t, cfg, WithMetrics(prometheus.NewRegistry(), prometheus.NewRegistry()))
	ok := gasTransfer(t, r.n, key, 7, util.Uint160{1}, 1_0000_0000)
	require.NoError(t, r.n.SubmitTx(t.Context(), ok))

	require.NoError(t, r.n.saved.Close(nil)) // as a file that takes no more writes
	tx := gasTransfer(t, r.n, key, 8, util.Uint160{2}, 1_0000_0000)
	err := r.n.SubmitTx(t.Context(), tx)
	require.ErrorIs(t, err, chain.ErrStorage)
	require.False(t, r.n.Pool().Contains(tx.Hash()), "not pooled when not saved")
	require.True(t, r.n.Pool().Contains(ok.Hash()), "what was saved stays")
}
