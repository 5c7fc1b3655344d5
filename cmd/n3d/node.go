package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/buildinfo"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/urfave/cli/v3"
	"go.uber.org/zap"
)

func nodeCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "node",
		Usage:     "Run a node",
		UsageText: "n3d node [--config-path dir] [-p|-m|-t] [--config-file file] [--relative-path dir] [-d] [--force-timestamp-logs]",
		Flags:     append(configFlags(), logFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			return nodeAction(ctx, cmd, e)
		},
	}
}

func nodeAction(ctx context.Context, cmd *cli.Command, e *env) (err error) {
	if err := ensureNoArgs(cmd); err != nil {
		return err
	}
	cfg, src, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	log, closeLog, err := newLogger(cmd, cfg.ApplicationConfiguration, e)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeLog()) }()

	ctx, stop := signalContext(ctx)
	defer stop()
	return runNode(ctx, cfg, src, log, e.ready)
}

// runNode runs the node until ctx is cancelled (SIGINT/SIGTERM) and returns
// nil on a clean shutdown. Services (storage, chain, P2P, RPC, consensus)
// are started here, in dependency order, and stopped in reverse order
// before it returns.
func runNode(ctx context.Context, cfg config.Config, src string, log *zap.Logger, ready func()) error {
	p := &cfg.ProtocolConfiguration
	log.Info("starting n3d node",
		zap.String("version", buildinfo.Version),
		zap.String("commit", buildinfo.Commit),
		zap.String("config", src),
		zap.Stringer("network", p.Magic),
		zap.Uint32("magic", uint32(p.Magic)),
		zap.Int("committee", len(p.StandbyCommittee)),
		zap.Int("validators", p.ValidatorsCountAt(0)),
		zap.Duration("timePerBlock", p.TimePerBlock),
		zap.Stringers("hardforksAtGenesis", p.ActiveHardforks(0)),
		zap.String("db", cfg.ApplicationConfiguration.DBConfiguration.Type),
	)
	log.Debug("protocol limits",
		zap.Uint32("maxBlockSize", p.MaxBlockSize),
		zap.Int64("maxBlockSystemFee", p.MaxBlockSystemFee),
		zap.Uint16("maxTransactionsPerBlock", p.MaxTransactionsPerBlock),
		zap.Uint32("maxTraceableBlocks", p.MaxTraceableBlocks),
		zap.Uint32("maxValidUntilBlockIncrement", p.MaxValidUntilBlockIncrement),
		zap.Int("memPoolSize", p.MemPoolSize),
		zap.Stringer("initialGASSupply", p.InitialGASSupply),
		zap.Strings("seeds", p.SeedList),
	)
	for _, hf := range p.ActiveHardforks(^uint32(0)) {
		if h, _ := p.HardforkHeight(hf); h > 0 {
			log.Info("hardfork scheduled", zap.Stringer("hardfork", hf), zap.Uint32("height", h))
		}
	}
	if err := checkConsensusWallet(cfg.ApplicationConfiguration.Consensus); err != nil {
		return err
	}
	// No service is wired into the binary yet: say so rather than pretend.
	log.Warn("chain, P2P, RPC and consensus services are not wired into n3d yet: " +
		"the node validated its configuration and now only waits for a signal")
	if ready != nil {
		ready()
	}
	<-ctx.Done()
	log.Info("signal received, shutting down")
	return nil
}

// checkConsensusWallet makes sure an enabled consensus service can read its
// wallet, so that a wrong path fails at start-up rather than later.
func checkConsensusWallet(c config.InternalService) error {
	if !c.Enabled {
		return nil
	}
	if _, err := c.UnlockWallet.ReadFile(); err != nil {
		return fmt.Errorf("consensus: %w", err)
	}
	return nil
}
