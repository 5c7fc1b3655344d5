package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
)

// TestGenerateCommand generates a short chain with the default
// configuration (the single-validator privnet, whose consensus wallet is
// embedded) through the command line and restores it into LevelDB.
func TestGenerateCommand(t *testing.T) {
	tmp := t.TempDir()
	out := filepath.Join(tmp, "gen.acc")
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"n3d", "db", "generate", "-c", "6", "--txs", "3", "-o", out},
		&env{stdout: &stdout, stderr: &stderr})
	require.Zero(t, code, stderr.String())

	data, ok := config.Embedded(config.NetPrivNetSingle)
	require.True(t, ok)
	cfg, err := config.Parse(data, "")
	require.NoError(t, err)
	cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
		LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(tmp, "db")}}
	require.NoError(t, restoreDB(context.Background(), cfg, zap.NewNop(), RestoreOptions{In: out}))
	c, err := openChain(cfg, zap.NewNop(), nil)
	require.NoError(t, err)
	require.EqualValues(t, 6, c.BlockHeight())
	b, err := c.GetBlockByIndex(6)
	require.NoError(t, err)
	require.Len(t, b.Transactions, 3)
	require.NoError(t, c.Close())
}

func TestGenerateCommandKeys(t *testing.T) {
	data, ok := config.Embedded(config.NetPrivNetSingle)
	require.True(t, ok)
	cfg, err := config.Parse(data, "")
	require.NoError(t, err)
	wallet := cfg.ApplicationConfiguration.Consensus.UnlockWallet.Path

	_, err = validatorKeys(cfg, []string{wallet}, []string{"wrong"})
	require.Error(t, err)
	_, err = validatorKeys(cfg, []string{wallet, wallet}, []string{"one", "one", "one"})
	require.Error(t, err)
	ks, err := validatorKeys(cfg, []string{wallet, wallet}, []string{"one"})
	require.NoError(t, err)
	require.Len(t, ks, 1, "a key found twice counts once")

	cfg.ApplicationConfiguration.Consensus.UnlockWallet.Path = ""
	err = generateDB(context.Background(), cfg, zap.NewNop(), GenerateOptions{Blocks: 1})
	require.Error(t, err)
	require.False(t, errors.Is(err, context.Canceled))
}
