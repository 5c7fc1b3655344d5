package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/n3d-io/n3d/pkg/core/chain"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/urfave/cli/v3"
	"go.uber.org/zap"
)

// DumpOptions are the `db dump` flags.
type DumpOptions struct {
	// Out is the output file; empty means stdout.
	Out string
	// Start is the first block; Count the number of blocks (0: up to the tip).
	Start, Count uint32
	// NonIncremental writes the plain format (no start field) when Start is 0.
	NonIncremental bool
}

// RestoreOptions are the `db restore` flags.
type RestoreOptions struct {
	// In is the input file; empty means stdin.
	In string
	// Count is the number of blocks to import (0: all).
	Count uint32
	// DumpDir, when set, receives per-block storage change dumps
	// (SaveStorageBatch is switched on for it).
	DumpDir string
}

func dbCommand(e *env) *cli.Command {
	// Every command gets its own flag values: urfave/cli keeps state in them.
	flags := func(extra ...cli.Flag) []cli.Flag {
		out := append(configFlags(), logFlags()...)
		out = append(out, &cli.Uint32Flag{Name: "count", Aliases: []string{"c"}, Usage: "Number of blocks (0 or unset: all)"})
		return append(out, extra...)
	}
	return &cli.Command{
		Name:  "db",
		Usage: "Database manipulations",
		Commands: []*cli.Command{
			generateCommand(e),
			{
				Name:      "dump",
				Usage:     "Dump blocks (from the genesis or --start) to a file",
				UsageText: "n3d db dump [-o file] [-s start] [-c count] [--non-incremental] [--config-path dir] [-p|-m|-t] [--config-file file]",
				Flags: flags(
					&cli.Uint32Flag{Name: "start", Aliases: []string{"s"}, Usage: "Block number to start from"},
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "Output file (stdout if not given)"},
					&cli.BoolFlag{Name: "non-incremental", Usage: "Write the plain format (no start field)"},
				),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o := DumpOptions{Out: cmd.String("out"), Start: cmd.Uint32("start"),
						Count: cmd.Uint32("count"), NonIncremental: cmd.Bool("non-incremental")}
					return withConfig(ctx, cmd, e, func(ctx context.Context, cfg config.Config, log *zap.Logger) error {
						return dumpDB(ctx, cfg, log, o)
					})
				},
			},
			{
				Name:      "dump-bin",
				Usage:     "Dump blocks to a directory, one binary file per block (block-<index>.bin)",
				UsageText: "n3d db dump-bin -o dir [-s start] [-c count] [--config-path dir] [-p|-m|-t] [--config-file file]",
				Flags: flags(
					&cli.Uint32Flag{Name: "start", Aliases: []string{"s"}, Usage: "Block number to start from"},
					&cli.StringFlag{Name: "out", Aliases: []string{"o"}, Usage: "Output directory", Required: true},
				),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o := DumpBinOptions{Dir: cmd.String("out"), Start: cmd.Uint32("start"), Count: cmd.Uint32("count")}
					return withConfig(ctx, cmd, e, func(_ context.Context, cfg config.Config, log *zap.Logger) error {
						return dumpBinDB(cfg, log, o)
					})
				},
			},
			{
				Name:      "reset",
				Usage:     "Reset the database to the state right after a block",
				UsageText: "n3d db reset --height height [--config-path dir] [-p|-m|-t] [--config-file file]",
				Flags: append(append(configFlags(), logFlags()...),
					&cli.Uint32Flag{Name: "height", Usage: "Height of the state to reset to", Required: true}),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					h := cmd.Uint32("height")
					return withConfig(ctx, cmd, e, func(_ context.Context, cfg config.Config, log *zap.Logger) error {
						return resetDB(cfg, log, h)
					})
				},
			},
			{
				Name:      "restore",
				Usage:     "Restore blocks from a file",
				UsageText: "n3d db restore [-i file] [-c count] [--dump dir] [--config-path dir] [-p|-m|-t] [--config-file file]",
				Flags: flags(
					&cli.StringFlag{Name: "in", Aliases: []string{"i"}, Usage: "Input file (stdin if not given)"},
					&cli.StringFlag{Name: "dump", Usage: "Directory for per-block storage change dumps"},
				),
				Action: func(ctx context.Context, cmd *cli.Command) error {
					o := RestoreOptions{In: cmd.String("in"), Count: cmd.Uint32("count"), DumpDir: cmd.String("dump")}
					return withConfig(ctx, cmd, e, func(ctx context.Context, cfg config.Config, log *zap.Logger) error {
						if o.DumpDir != "" {
							cfg.ApplicationConfiguration.SaveStorageBatch = true
						}
						return restoreDB(ctx, cfg, log, o)
					})
				},
			},
		},
	}
}

// withConfig loads the configuration and the logger, then runs fn with a
// context cancelled on SIGINT/SIGTERM.
func withConfig(ctx context.Context, cmd *cli.Command, e *env,
	fn func(context.Context, config.Config, *zap.Logger) error) (err error) {
	if err := ensureNoArgs(cmd); err != nil {
		return err
	}
	cfg, _, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	log, _, closeLog, err := newLogger(cmd, cfg.ApplicationConfiguration, e)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeLog()) }()
	ctx, stop := signalContext(ctx)
	defer stop()
	return fn(ctx, cfg, log)
}

// dumpDB writes blocks of the configured chain in the .acc format
// (docs/formats: u32 start (unless plain) | u32 count | count × (u32 size |
// block)): incremental unless --non-incremental with start 0, as neo-go.
func dumpDB(_ context.Context, cfg config.Config, log *zap.Logger, o DumpOptions) (err error) {
	c, err := openChain(cfg, log, nil)
	if err != nil {
		return fmt.Errorf("db dump: %w", err)
	}
	defer func() { err = errors.Join(err, c.Close()) }()
	out, finish, err := outputFile(o.Out)
	if err != nil {
		return fmt.Errorf("db dump: %w", err)
	}
	defer func() { err = finish(err) }()
	plain := o.NonIncremental && o.Start == 0
	if err := chain.Dump(c, out, o.Start, o.Count, plain); err != nil {
		return fmt.Errorf("db dump: %w", err)
	}
	return nil
}

// resetDB rolls the configured chain back to the state right after block
// height (see chain.Reset); an interrupted reset is completed by the next
// open of the database, by any command.
func resetDB(cfg config.Config, log *zap.Logger, height uint32) (err error) {
	c, err := openChain(cfg, log, nil)
	if err != nil {
		return fmt.Errorf("db reset: %w", err)
	}
	defer func() { err = errors.Join(err, c.Close()) }()
	if err := c.Reset(height); err != nil {
		return fmt.Errorf("db reset: %w", err)
	}
	log.Info("chain reset", zap.Uint32("height", c.BlockHeight()), zap.Stringer("hash", c.CurrentBlockHash()),
		zap.Stringer("stateroot", c.CurrentStateRoot()))
	return nil
}

// restoreDB imports blocks from an .acc dump into the configured chain,
// skipping a genesis entry and blocks already present, verifying each
// block as configured; --dump writes each block's storage changes.
func restoreDB(ctx context.Context, cfg config.Config, log *zap.Logger, o RestoreOptions) (err error) {
	var sd *storageDump
	var onChanges func(uint32, []chain.StorageChange)
	var genesis []chain.StorageChange // the genesis batch, when this run creates the chain
	genesisMade := false
	if o.DumpDir != "" {
		sd = &storageDump{dir: o.DumpDir}
		onChanges = func(index uint32, ch []chain.StorageChange) {
			if index == 0 {
				genesis, genesisMade = ch, true
				return
			}
			sd.add(index, ch)
		}
		defer func() { err = errors.Join(err, sd.Close()) }()
	}
	defer restoreGC(os.Getenv)()
	c, err := openRestoreChain(cfg, log, onChanges)
	if err != nil {
		return fmt.Errorf("db restore: %w", err)
	}
	defer func() { err = errors.Join(err, c.Close()) }()
	in, closeIn, err := inputFile(o.In)
	if err != nil {
		return fmt.Errorf("db restore: %w", err)
	}
	defer func() { err = errors.Join(err, closeIn()) }()
	// neo-go dumps the genesis batch when the chain is created by this
	// restore and the dump starts with the genesis block.
	if genesisMade && firstDumpIndex(in) == 0 {
		sd.add(0, genesis)
	}
	if _, err := chain.Restore(ctx, c, in, chain.RestoreOptions{Count: o.Count, Log: log, CacheKeys: restoreCacheKeys}); err != nil {
		return fmt.Errorf("db restore: %w", err)
	}
	return nil
}

// firstDumpIndex peeks at the index of the first block of an .acc dump
// (plain: u32 count; incremental: u32 start, u32 count; then u32 size and
// the block) without consuming input; -1 when it cannot be read (Restore
// then reports why).
func firstDumpIndex(in *bufio.Reader) int64 {
	head, err := in.Peek(12)
	if err != nil {
		return -1
	}
	blockAt := 8 // plain: count, size
	if binary.LittleEndian.Uint32(head[8:]) != 0 {
		// The third u32 of a plain dump is the first block's version (0).
		blockAt = 12
	}
	const indexOffset = 4 + 32 + 32 + 8 + 8 // version, prev hash, merkle root, timestamp, nonce
	b, err := in.Peek(blockAt + indexOffset + 4)
	if err != nil {
		return -1
	}
	return int64(binary.LittleEndian.Uint32(b[blockAt+indexOffset:]))
}

func inputFile(path string) (*bufio.Reader, func() error, error) {
	if path == "" {
		return bufio.NewReaderSize(os.Stdin, 1<<20), func() error { return nil }, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return bufio.NewReaderSize(f, 1<<20), f.Close, nil
}

// outputFile opens where a dump goes. A file is written under a temporary
// name and renamed into place by finish only when the dump succeeded, so a
// failed dump never leaves a partial file behind; finish(err) returns err
// joined with any error of its own.
func outputFile(path string) (io.Writer, func(error) error, error) {
	if path == "" {
		return os.Stdout, func(err error) error { return err }, nil
	}
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	finish := func(err error) error {
		if err == nil {
			err = errors.Join(bw.Flush(), f.Sync())
		}
		err = errors.Join(err, f.Close())
		if err != nil {
			return errors.Join(err, os.Remove(tmp))
		}
		return os.Rename(tmp, path)
	}
	return bw, finish, nil
}
