package config

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	embedded "github.com/n3d-io/n3d/config"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"
)

func TestShippedConfigsLoad(t *testing.T) {
	root := repoRoot(t)
	want := map[string]protocol.Magic{
		NetMainNet:       protocol.MainNet,
		NetTestNet:       protocol.TestNet,
		NetPrivNet:       protocol.PrivNet,
		NetPrivNetSingle: protocol.PrivNet,
		NetUnitTestNet:   protocol.UnitTestNet,
	}
	files, err := filepath.Glob(filepath.Join(root, "config", "protocol.*.yml"))
	require.NoError(t, err)
	require.Len(t, files, len(want), "every shipped config has an expected magic here")
	for net, magic := range want {
		t.Run(net, func(t *testing.T) {
			fromDisk, err := Load(filepath.Join(root, "config"), net, "")
			require.NoError(t, err)
			require.Equal(t, magic, fromDisk.ProtocolConfiguration.Magic)

			data, ok := Embedded(net)
			require.True(t, ok)
			fromEmbed, err := Parse(data, "")
			require.NoError(t, err)
			require.Equal(t, fromDisk, fromEmbed, "embedded copy differs from the file")
		})
	}
}

func TestLoadEmbeddedFallback(t *testing.T) {
	t.Chdir(t.TempDir()) // no ./config here
	cfg, err := Load(DefaultConfigPath, NetMainNet, "")
	require.NoError(t, err)
	require.Equal(t, protocol.MainNet, cfg.ProtocolConfiguration.Magic)

	src, err := Source(filepath.Join(DefaultConfigPath, FileName(NetPrivNetSingle)))
	require.NoError(t, err)
	require.Equal(t, "embedded:"+FileName(NetPrivNetSingle), src)

	_, err = Load(DefaultConfigPath, "nosuchnet", "")
	require.ErrorIs(t, err, ErrNotFound)
	_, err = Load(t.TempDir(), NetMainNet, "") // not the default dir: no fallback
	require.ErrorIs(t, err, ErrNotFound)
}

func TestLoadFilePrefersDisk(t *testing.T) {
	body := []byte(unitTestNetYAML(t))
	t.Chdir(t.TempDir())
	require.NoError(t, os.MkdirAll("config", 0o755))
	require.NoError(t, os.WriteFile(filepath.Join("config", FileName(NetMainNet)), body, 0o600))
	cfg, err := Load(DefaultConfigPath, NetMainNet, "")
	require.NoError(t, err)
	require.Equal(t, protocol.UnitTestNet, cfg.ProtocolConfiguration.Magic, "a file on disk wins over the embedded copy")
}

func TestDecodeUnknownFieldNamesIt(t *testing.T) {
	_, err := Decode([]byte("ProtocolConfiguration:\n  Magic: 1\n  MagicNumber: 2\n"))
	require.ErrorIs(t, err, ErrDecode)
	require.ErrorContains(t, err, "MagicNumber")

	_, err = Decode([]byte("ApplicationConfiguration:\n  P2P:\n    Adresses: [\":1\"]\n"))
	require.ErrorIs(t, err, ErrDecode)
	require.ErrorContains(t, err, "Adresses")

	_, err = Decode([]byte("ProtocolConfiguration:\n  Genesis:\n    Transaction:\n      Scrip: AA==\n"))
	require.ErrorIs(t, err, ErrDecode)
	require.ErrorContains(t, err, "Scrip")
}

func TestDecodeRejectsMalformed(t *testing.T) {
	for name, doc := range map[string]string{
		"empty":         "",
		"two documents": "ProtocolConfiguration: {}\n---\nProtocolConfiguration: {}\n",
		"int duration":  "ProtocolConfiguration:\n  TimePerBlock: 15\n",
		"bad duration":  "ProtocolConfiguration:\n  TimePerBlock: 15 seconds\n",
		"bad GAS":       "ProtocolConfiguration:\n  InitialGASSupply: lots\n",
		"bad base64":    "ProtocolConfiguration:\n  Genesis:\n    Transaction:\n      Script: '!!'\n",
		"bad trusted":   "ApplicationConfiguration:\n  TrustedHeader:\n    5: nothex\n",
		"two trusted":   "ApplicationConfiguration:\n  TrustedHeader:\n    5: " + zeroHash + "\n    6: " + zeroHash + "\n",
		"not a map":     "- 1\n- 2\n",
		"magic too big": "ProtocolConfiguration:\n  Magic: 4294967296\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Decode([]byte(doc))
			require.ErrorIs(t, err, ErrDecode)
		})
	}
}

const zeroHash = "0000000000000000000000000000000000000000000000000000000000000000"

func TestDecodeValueTypes(t *testing.T) {
	cfg, err := Decode([]byte(`
ProtocolConfiguration:
  InitialGASSupply: 1.5
  Genesis:
    Transaction:
      Script: "AQID"
      SystemFee: 7
ApplicationConfiguration:
  RPC:
    MaxGasInvoke: 15
  TrustedHeader:
    12: 0x0102030000000000000000000000000000000000000000000000000000000000
`))
	require.NoError(t, err)
	require.EqualValues(t, 150000000, cfg.ProtocolConfiguration.InitialGASSupply)
	require.Equal(t, Base64Bytes{1, 2, 3}, cfg.ProtocolConfiguration.Genesis.Transaction.Script)
	require.EqualValues(t, 15_00000000, cfg.ApplicationConfiguration.RPC.MaxGasInvoke)
	th := cfg.ApplicationConfiguration.TrustedHeader
	require.EqualValues(t, 12, th.Index)
	require.Equal(t, byte(1), th.Hash[0], "the hash is read little-endian")
}

func TestRoundTrip(t *testing.T) {
	for _, data := range [][]byte{embedded.MainNet, embedded.UnitTestNet, embedded.PrivNetSingle} {
		cfg, err := Parse(data, "")
		require.NoError(t, err)
		out, err := yaml.Marshal(cfg)
		require.NoError(t, err)
		again, err := Decode(out)
		require.NoError(t, err, string(out))
		out2, err := yaml.Marshal(again)
		require.NoError(t, err)
		require.Equal(t, string(out), string(out2))
		require.Equal(t, cfg.ProtocolConfiguration.HardforkHeights(), again.ProtocolConfiguration.HardforkHeights())
	}
}

func TestGenesisTransactionRoundTrip(t *testing.T) {
	cfg, err := Decode([]byte(unitTestNetYAML(t)))
	require.NoError(t, err)
	cfg.ProtocolConfiguration.Genesis.Transaction = &GenesisTransaction{Script: Base64Bytes{1, 2, 3}, SystemFee: 100000000}
	cfg.ApplyDefaults()
	require.NoError(t, cfg.Validate())
	out, err := yaml.Marshal(cfg)
	require.NoError(t, err)
	require.Contains(t, string(out), "Script: AQID")
	again, err := Parse(out, "")
	require.NoError(t, err)
	require.Equal(t, cfg.ProtocolConfiguration.Genesis.Transaction, again.ProtocolConfiguration.Genesis.Transaction)
	require.EqualValues(t, 52_000_000_00000000, again.ProtocolConfiguration.InitialGASSupply.Fixed8())
}

func TestUpdateRelativePaths(t *testing.T) {
	cfg, err := Parse(embedded.PrivNetSingle, "/srv/n3d")
	require.NoError(t, err)
	a := cfg.ApplicationConfiguration
	require.Equal(t, filepath.Join("/srv/n3d", "chains/privnet-single"), a.DBConfiguration.LevelDBOptions.DataDirectoryPath)
	require.Equal(t, filepath.Join("/srv/n3d", DefaultPrivNetSingleWalletPath), a.Consensus.UnlockWallet.Path)

	cfg, err = Parse(embedded.MainNet, "/srv/n3d")
	require.NoError(t, err)
	require.Equal(t, "/cn_wallet.json", cfg.ApplicationConfiguration.Consensus.UnlockWallet.Path, "absolute paths stay")
}

func TestWalletReadFile(t *testing.T) {
	t.Chdir(t.TempDir())
	data, err := Wallet{Path: DefaultPrivNetSingleWalletPath}.ReadFile()
	require.NoError(t, err)
	require.Equal(t, embedded.PrivNetSingleWallet, data)

	_, err = Wallet{Path: "./config/other.json"}.ReadFile()
	require.ErrorIs(t, err, os.ErrNotExist)

	require.NoError(t, os.WriteFile("w.json", []byte("{}"), 0o600))
	data, err = Wallet{Path: "w.json"}.ReadFile()
	require.NoError(t, err)
	require.Equal(t, []byte("{}"), data)
}

func TestSessionLifetimeDefault(t *testing.T) {
	cfg, err := Parse(embedded.PrivNetSingle, "")
	require.NoError(t, err)
	rpc := cfg.ApplicationConfiguration.RPC
	require.True(t, rpc.SessionEnabled)
	// TimePerBlock is 1s there, so the 5 s floor applies.
	require.Equal(t, 5*time.Second, rpc.SessionLifetime)
	require.Equal(t, DefaultSessionPoolSize, rpc.SessionPoolSize)
}
