package config

import (
	"strings"
	"testing"

	embedded "github.com/n3d-io/n3d/config"
	"github.com/stretchr/testify/require"
)

func TestUnsupportedShippedConfigs(t *testing.T) {
	for _, data := range [][]byte{embedded.MainNet, embedded.UnitTestNet, embedded.PrivNetSingle} {
		cfg, err := Parse(data, "")
		require.NoError(t, err)
		require.Empty(t, cfg.Unsupported())
	}
}

func TestUnsupportedNeoFSBlockFetcher(t *testing.T) {
	// The section as neo-go's mainnet and testnet files ship it.
	cfg, err := Parse([]byte(unitTestNetYAML(t)+`
  NeoFSBlockFetcher:
    Enabled: true
    Addresses:
      - st1.storage.fs.neo.org:8080
    Timeout: 10m
    DownloaderWorkersCount: 500
    OIDBatchSize: 8000
    BQueueSize: 16000
    ContainerID: "BP71MqY7nJhpuHfdQU3infRSjMgVmSFFt9GfG2GGMZJj"
    BlockAttribute: "Block"
`), "")
	require.NoError(t, err)
	got := cfg.Unsupported()
	require.Len(t, got, 1)
	require.Equal(t, "ApplicationConfiguration.NeoFSBlockFetcher.Enabled", got[0].Setting)
	require.Contains(t, got[0].String(), "initial sync uses P2P")
	require.True(t, strings.HasPrefix(got[0].String(), got[0].Setting+" is not supported: "))
}

func TestUnsupportedOrder(t *testing.T) {
	var cfg Config
	a := &cfg.ApplicationConfiguration
	a.NeoFSBlockFetcher.Enabled, a.NeoFSStateFetcher.Enabled = true, true
	a.Oracle.Enabled, a.P2PNotary.Enabled, a.ArchivalNodesSync = true, true, true
	var names []string
	for _, u := range cfg.Unsupported() {
		names = append(names, strings.TrimPrefix(u.Setting, "ApplicationConfiguration."))
	}
	// Oracle.Enabled and P2PNotary.Enabled are implemented
	// (pkg/services/oracle and pkg/services/notary, wired in pkg/node).
	require.Equal(t, []string{"NeoFSBlockFetcher.Enabled", "NeoFSStateFetcher.Enabled",
		"ArchivalNodesSync"}, names)
}
