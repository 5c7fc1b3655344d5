package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	embedded "github.com/n3d-io/n3d/config"
	"gopkg.in/yaml.v3"
)

// DefaultConfigPath is the directory searched for protocol.<network>.yml
// when no --config-path is given. Files missing there are taken from the
// copies embedded in the binary.
const DefaultConfigPath = "./config"

// Network names: the <name> part of protocol.<name>.yml.
const (
	NetMainNet       = "mainnet"
	NetTestNet       = "testnet"
	NetPrivNet       = "privnet"
	NetPrivNetSingle = "privnet.single"
	NetUnitTestNet   = "unit_testnet"
)

// DefaultPrivNetSingleWalletPath is the consensus wallet path written in
// protocol.privnet.single.yml; Wallet.ReadFile falls back to the embedded
// copy for it.
const DefaultPrivNetSingleWalletPath = "./config/wallet.privnet.single.json"

// maxConfigSize bounds a config file: real ones are a few kilobytes.
const maxConfigSize = 4 << 20

var embeddedConfigs = map[string][]byte{
	NetMainNet:       embedded.MainNet,
	NetTestNet:       embedded.TestNet,
	NetPrivNet:       embedded.PrivNet,
	NetPrivNetSingle: embedded.PrivNetSingle,
	NetUnitTestNet:   embedded.UnitTestNet,
}

// Config is a whole node configuration file.
type Config struct {
	ProtocolConfiguration    ProtocolConfiguration    `yaml:"ProtocolConfiguration"`
	ApplicationConfiguration ApplicationConfiguration `yaml:"ApplicationConfiguration"`
}

// FileName returns the config file name of a network: protocol.<net>.yml.
func FileName(network string) string {
	return "protocol." + network + ".yml"
}

// Embedded returns the embedded config of a network, if there is one.
func Embedded(network string) ([]byte, bool) {
	b, ok := embeddedConfigs[network]
	return b, ok
}

// Decode parses a YAML config strictly: an unknown field, a value of the
// wrong type or trailing documents are errors. No defaults are applied and
// nothing is validated; see Parse for that.
func Decode(data []byte) (Config, error) {
	if len(data) > maxConfigSize {
		return Config{}, fmt.Errorf("%w: %d bytes, more than %d", ErrDecode, len(data), maxConfigSize)
	}
	var cfg Config
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		if errors.Is(err, io.EOF) {
			return Config{}, fmt.Errorf("%w: empty document", ErrDecode)
		}
		return Config{}, fmt.Errorf("%w: %w", ErrDecode, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return Config{}, fmt.Errorf("%w: more than one YAML document", ErrDecode)
	}
	return cfg, nil
}

// Parse decodes, applies defaults and validates a config. relativePath, when
// not empty, prefixes every relative file path in it (see UpdateRelativePaths).
func Parse(data []byte, relativePath string) (Config, error) {
	cfg, err := Decode(data)
	if err != nil {
		return Config{}, err
	}
	if relativePath != "" {
		cfg.UpdateRelativePaths(relativePath)
	}
	cfg.ApplyDefaults()
	if err := cfg.Validate(); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

// LoadFile reads and parses a config file. A missing file under
// DefaultConfigPath named like a known network's is served from the embedded
// copy.
func LoadFile(path, relativePath string) (Config, error) {
	data, err := readConfig(path)
	if err != nil {
		return Config{}, err
	}
	cfg, err := Parse(data, relativePath)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// Load reads protocol.<network>.yml from dir (see LoadFile).
func Load(dir, network, relativePath string) (Config, error) {
	return LoadFile(filepath.Join(dir, FileName(network)), relativePath)
}

// Source tells where a config path would be read from: the file itself, or
// "embedded:<name>" when the file is missing and an embedded copy serves it,
// or an error wrapping ErrNotFound.
func Source(path string) (string, error) {
	net, err := locate(path)
	if err != nil {
		return "", err
	}
	if net != "" {
		return "embedded:" + FileName(net), nil
	}
	return path, nil
}

// locate returns "" when path exists on disk, the network whose embedded
// config replaces a missing path under DefaultConfigPath, or an error.
func locate(path string) (string, error) {
	_, err := os.Stat(path)
	if err == nil {
		return "", nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("config %s: %w", path, err)
	}
	for net := range embeddedConfigs {
		if filepath.Clean(path) == filepath.Join(DefaultConfigPath, FileName(net)) {
			return net, nil
		}
	}
	return "", fmt.Errorf("%w: %s does not exist and no embedded config matches it", ErrNotFound, path)
}

func readConfig(path string) ([]byte, error) {
	net, err := locate(path)
	if err != nil {
		return nil, err
	}
	if net != "" {
		return embeddedConfigs[net], nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return data, nil
}

// ApplyDefaults fills every unset value with the reference's default.
func (c *Config) ApplyDefaults() {
	c.ProtocolConfiguration.ApplyDefaults()
	c.ApplicationConfiguration.ApplyDefaults(&c.ProtocolConfiguration)
}

// Validate checks both sections and the rules that span them.
func (c *Config) Validate() error {
	if err := c.ProtocolConfiguration.Validate(); err != nil {
		return fmt.Errorf("ProtocolConfiguration: %w", err)
	}
	if err := c.ApplicationConfiguration.Validate(); err != nil {
		return fmt.Errorf("ApplicationConfiguration: %w", err)
	}
	p, a := &c.ProtocolConfiguration, &c.ApplicationConfiguration
	if a.P2PNotary.Enabled && !p.P2PSigExtensions {
		return fmt.Errorf("%w: P2PNotary is enabled but P2PSigExtensions is off", ErrInvalid)
	}
	if a.TrustedHeader.Index != 0 && !p.P2PStateExchangeExtensions && !p.NeoFSStateSyncExtensions {
		return fmt.Errorf("%w: TrustedHeader needs P2PStateExchangeExtensions or NeoFSStateSyncExtensions", ErrInvalid)
	}
	if p.P2PStateExchangeExtensions && a.KeepOnlyLatestState && !a.RemoveUntraceableBlocks {
		return fmt.Errorf("%w: P2PStateExchangeExtensions with KeepOnlyLatestState needs RemoveUntraceableBlocks", ErrInvalid)
	}
	if p.NeoFSStateSyncExtensions {
		if !a.NeoFSBlockFetcher.Enabled || !a.NeoFSStateFetcher.Enabled {
			return fmt.Errorf("%w: NeoFSStateSyncExtensions needs NeoFSBlockFetcher and NeoFSStateFetcher", ErrInvalid)
		}
		if !a.RemoveUntraceableBlocks {
			return fmt.Errorf("%w: NeoFSStateSyncExtensions needs RemoveUntraceableBlocks", ErrInvalid)
		}
	}
	return nil
}

// UpdateRelativePaths prefixes every relative file path of the config (log
// file, databases, wallets) with dir.
func (c *Config) UpdateRelativePaths(dir string) {
	a := &c.ApplicationConfiguration
	for _, p := range []*string{
		&a.LogPath,
		&a.DBConfiguration.LevelDBOptions.DataDirectoryPath,
		&a.DBConfiguration.BoltDBOptions.FilePath,
		&a.Consensus.UnlockWallet.Path,
		&a.P2PNotary.UnlockWallet.Path,
		&a.Oracle.UnlockWallet.Path,
		&a.StateRoot.UnlockWallet.Path,
	} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
}

// ReadFile returns the wallet file's content. The well-known single-node
// privnet wallet (DefaultPrivNetSingleWalletPath) is served from the
// embedded copy when the file is absent, so the default config works from
// any directory.
func (w Wallet) ReadFile() ([]byte, error) {
	data, err := os.ReadFile(w.Path)
	if err == nil {
		return data, nil
	}
	if errors.Is(err, fs.ErrNotExist) && filepath.Clean(w.Path) == filepath.Clean(DefaultPrivNetSingleWalletPath) {
		return embedded.PrivNetSingleWallet, nil
	}
	return nil, fmt.Errorf("wallet %s: %w", w.Path, err)
}
