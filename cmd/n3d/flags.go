package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/logging"
	"github.com/urfave/cli/v3"
	"go.uber.org/zap"
)

// configFlags select and adjust the configuration; the names, aliases and
// meanings are neo-go's.
func configFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{
			Name:  "config-path",
			Usage: "Directory with protocol.<network>.yml files (default " + config.DefaultConfigPath + "; --config-file overrides)",
		},
		&cli.StringFlag{
			Name:  "config-file",
			Usage: "Path to the configuration file (overrides --config-path and the network flags)",
		},
		&cli.StringFlag{
			Name:  "relative-path",
			Usage: "Prefix for every relative path in the configuration file",
		},
		&cli.BoolFlag{Name: "privnet", Aliases: []string{"p"}, Usage: "Use protocol.privnet.yml (four validators)"},
		&cli.BoolFlag{Name: "mainnet", Aliases: []string{"m"}, Usage: "Use protocol.mainnet.yml"},
		&cli.BoolFlag{Name: "testnet", Aliases: []string{"t"}, Usage: "Use protocol.testnet.yml"},
		&cli.BoolFlag{Name: "unittest", Hidden: true},
	}
}

// logFlags tune logging on top of the configuration.
func logFlags() []cli.Flag {
	return []cli.Flag{
		&cli.BoolFlag{
			Name:    "debug",
			Aliases: []string{"d"},
			Usage:   "Enable debug logging (overrides LogLevel)",
		},
		&cli.BoolFlag{
			Name:  "force-timestamp-logs",
			Usage: "Timestamp every log entry, even when not on a terminal",
		},
	}
}

// networkFromFlags returns the network the flags ask for, "" when none.
func networkFromFlags(cmd *cli.Command) (string, error) {
	var chosen []string
	for _, f := range []struct{ flag, net string }{
		{"privnet", config.NetPrivNet},
		{"mainnet", config.NetMainNet},
		{"testnet", config.NetTestNet},
		{"unittest", config.NetUnitTestNet},
	} {
		if cmd.Bool(f.flag) {
			chosen = append(chosen, f.net)
		}
	}
	switch len(chosen) {
	case 0:
		return "", nil
	case 1:
		return chosen[0], nil
	default:
		return "", fmt.Errorf("network flags %v conflict: pick one", chosen)
	}
}

// configPath picks the file to load:
//   - --config-file, as is;
//   - with a network flag: <config-path>/protocol.<network>.yml;
//   - with none: protocol.privnet.single.yml, else protocol.privnet.yml
//     (neo-go's default) if only that one is in the directory, else the
//     embedded single-validator config when the directory is the default.
func configPath(cmd *cli.Command) (string, error) {
	if file := cmd.String("config-file"); file != "" {
		return file, nil
	}
	dir := cmd.String("config-path")
	if dir == "" {
		dir = config.DefaultConfigPath
	}
	net, err := networkFromFlags(cmd)
	if err != nil {
		return "", err
	}
	if net != "" {
		return filepath.Join(dir, config.FileName(net)), nil
	}
	single := filepath.Join(dir, config.FileName(config.NetPrivNetSingle))
	for _, candidate := range []string{single, filepath.Join(dir, config.FileName(config.NetPrivNet))} {
		_, err := os.Stat(candidate)
		if err == nil {
			return candidate, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("config %s: %w", candidate, err)
		}
	}
	return single, nil // embedded for the default directory, else not found
}

// loadConfig loads the configuration the flags select and says where it
// came from (a path or "embedded:<name>").
func loadConfig(cmd *cli.Command) (config.Config, string, error) {
	path, err := configPath(cmd)
	if err != nil {
		return config.Config{}, "", err
	}
	src, err := config.Source(path)
	if err != nil {
		return config.Config{}, "", err
	}
	cfg, err := config.LoadFile(path, cmd.String("relative-path"))
	if err != nil {
		return config.Config{}, "", err
	}
	return cfg, src, nil
}

// newLogger builds the logger from the configuration and the log flags.
func newLogger(cmd *cli.Command, cfg config.ApplicationConfiguration, e *env) (*zap.Logger, *zap.AtomicLevel, func() error, error) {
	log, level, closeLog, err := logging.New(logging.Options{
		Level:          cfg.LogLevel,
		Encoding:       cfg.LogEncoding,
		Path:           cfg.LogPath,
		Timestamp:      cfg.LogTimestamp,
		Debug:          cmd.Bool("debug"),
		ForceTimestamp: cmd.Bool("force-timestamp-logs"),
		Output:         e.stderr,
	})
	if err != nil {
		return nil, nil, nil, err
	}
	return log, level, closeLog, nil
}
