package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"reflect"
	"strings"
	"syscall"

	"github.com/n3d-io/n3d/pkg/buildinfo"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/urfave/cli/v3"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
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

// node is a running node: its configuration, logger and the means to reload
// the configuration on SIGHUP.
type node struct {
	cfg    config.Config
	src    string
	log    *zap.Logger
	level  *zap.AtomicLevel
	debug  bool                          // --debug pins the level
	reload func() (config.Config, error) // rereads the same file
	ready  func()                        // test hook, may be nil
	// started, when set, is called with the running services before
	// ready (in-process tests).
	started func(*services)
}

func nodeAction(ctx context.Context, cmd *cli.Command, e *env) (err error) {
	if err := ensureNoArgs(cmd); err != nil {
		return err
	}
	cfg, src, err := loadConfig(cmd)
	if err != nil {
		return err
	}
	if e.adjust != nil {
		e.adjust(&cfg)
	}
	log, level, closeLog, err := newLogger(cmd, cfg.ApplicationConfiguration, e)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, closeLog()) }()

	ctx, stop := signalContext(ctx)
	defer stop()
	n := &node{cfg: cfg, src: src, log: log, level: level, debug: cmd.Bool("debug"), ready: e.ready,
		reload: func() (config.Config, error) {
			c, _, err := loadConfig(cmd)
			return c, err
		}}
	return n.run(ctx)
}

// run runs the node until ctx is cancelled (SIGINT/SIGTERM) and returns nil
// on a clean shutdown. The chain is opened, then the services are started
// in dependency order (mempool and ingress pipeline, P2P, RPC, consensus)
// and stopped in reverse order before the chain is closed (see
// docs/node.md).
func (n *node) run(ctx context.Context) (err error) {
	n.logStart()
	consKeys, err := consensusKeys(n.cfg.ApplicationConfiguration.Consensus)
	if err != nil {
		return err
	}
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)

	c, err := openChain(n.cfg, n.log, nil)
	if err != nil {
		return fmt.Errorf("chain: %w", err)
	}
	defer func() {
		if cerr := c.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("closing the chain: %w", cerr))
		}
		n.log.Info("chain closed")
	}()
	n.log.Info("chain opened",
		zap.Uint32("height", c.BlockHeight()),
		zap.Stringer("hash", c.CurrentBlockHash()),
		zap.Stringer("stateRoot", c.CurrentStateRoot()))
	st := &stages{log: n.log}
	defer func() { err = errors.Join(err, st.stopAll()) }()
	svc, err := n.startServices(ctx, c, consKeys, st)
	if err != nil {
		return err
	}
	n.logServices(svc)
	if n.started != nil {
		n.started(svc)
	}
	if n.ready != nil {
		n.ready()
	}
	for {
		select {
		case <-ctx.Done():
			n.log.Info("signal received, shutting down")
			return nil
		case <-hup:
			n.onReload()
		}
	}
}

// logServices says what runs; the line ends with the words the signal
// tests and operators' scripts wait for.
func (n *node) logServices(svc *services) {
	fields := []zap.Field{zap.Bool("consensus", svc.cons != nil), zap.Bool("rpc", svc.rpc != nil)}
	if p := svc.p2p.Load(); p != nil {
		fields = append(fields, zap.Stringers("p2p", p.Addrs()))
	}
	if svc.rpc != nil {
		fields = append(fields, zap.Stringers("rpcAddresses", svc.rpc.Addrs()))
	}
	if len(svc.monitor) != 0 {
		fields = append(fields, zap.Stringers("monitoring", svc.monitor))
	}
	n.log.Info("node running, waits for a signal", fields...)
}

func (n *node) logStart() {
	p := &n.cfg.ProtocolConfiguration
	n.log.Info("starting n3d node",
		zap.String("version", buildinfo.Version),
		zap.String("commit", buildinfo.Commit),
		zap.String("config", n.src),
		zap.Stringer("network", p.Magic),
		zap.Uint32("magic", uint32(p.Magic)),
		zap.Int("committee", len(p.StandbyCommittee)),
		zap.Int("validators", p.ValidatorsCountAt(0)),
		zap.Duration("timePerBlock", p.TimePerBlock),
		zap.Stringers("hardforksAtGenesis", p.ActiveHardforks(0)),
		zap.String("db", n.cfg.ApplicationConfiguration.DBConfiguration.Type),
	)
	n.log.Debug("protocol limits",
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
			n.log.Info("hardfork scheduled", zap.Stringer("hardfork", hf), zap.Uint32("height", h))
		}
	}
}

// onReload rereads the configuration on SIGHUP, as neo-go does: the
// protocol section must not change; the log level is applied (unless
// --debug pins it). Services will pick up their sections here once wired.
func (n *node) onReload() {
	n.log.Info("SIGHUP received, rereading the configuration")
	cfg, err := n.reload()
	if err != nil {
		n.log.Warn("cannot reread the configuration, signal ignored", zap.Error(err))
		return
	}
	if !reflect.DeepEqual(cfg.ProtocolConfiguration, n.cfg.ProtocolConfiguration) {
		n.log.Warn("ProtocolConfiguration changed, signal ignored (restart the node to change it)")
		return
	}
	if !n.debug && cfg.ApplicationConfiguration.LogLevel != n.cfg.ApplicationConfiguration.LogLevel {
		lvl, err := zapcore.ParseLevel(strings.ToLower(cfg.ApplicationConfiguration.LogLevel))
		if err != nil {
			n.log.Warn("bad LogLevel, signal ignored", zap.Error(err))
			return
		}
		n.level.SetLevel(lvl)
		n.log.Warn("log level changed", zap.Stringer("level", lvl))
	}
	n.cfg = cfg
}
