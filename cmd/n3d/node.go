package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"reflect"
	"strings"
	"syscall"

	"github.com/n3d-io/n3d/pkg/buildinfo"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/prometheus/client_golang/prometheus"
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

// daemon is `n3d node` around a pkg/node node: its configuration,
// logger and the means to reload the configuration on SIGHUP.
type daemon struct {
	cfg    config.Config
	src    string
	log    *zap.Logger
	level  *zap.AtomicLevel
	debug  bool                          // --debug pins the level
	reload func() (config.Config, error) // rereads the same file
	ready  func()                        // test hook, may be nil
	getenv func(string) string           // os.Getenv
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
	d := &daemon{cfg: cfg, src: src, log: log, level: level, debug: cmd.Bool("debug"), ready: e.ready,
		getenv: os.Getenv,
		reload: func() (config.Config, error) {
			c, _, err := loadConfig(cmd)
			return c, err
		}}
	return d.run(ctx)
}

// run runs the node until ctx is cancelled (SIGINT/SIGTERM) and returns
// nil on a clean shutdown; SIGHUP rereads the configuration. pkg/node
// opens the chain, starts the services in dependency order and stops them
// in reverse order before closing the chain (see docs/node.md).
func (d *daemon) run(ctx context.Context) (err error) {
	d.logStart()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	defer startMemoryLimit(d.cfg.ApplicationConfiguration.Memory, d.getenv, prometheus.DefaultRegisterer, d.log)()

	n, err := node.New(d.cfg, node.WithLogger(d.log))
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, n.Stop()) }()
	if err := n.Start(ctx); err != nil {
		return err
	}
	d.logServices(n)
	if d.ready != nil {
		d.ready()
	}
	for {
		select {
		case <-ctx.Done():
			d.log.Info("signal received, shutting down")
			return nil
		case <-hup:
			d.onReload()
		case err := <-n.Fatal():
			return err // exit status 1 after the deferred Stop
		}
	}
}

// logServices says what runs; the line ends with the words the signal
// tests and operators' scripts wait for.
func (d *daemon) logServices(n *node.Node) {
	fields := []zap.Field{zap.Bool("consensus", n.Consensus() != nil), zap.Bool("rpc", n.RPC() != nil)}
	if addrs := n.P2PAddrs(); addrs != nil {
		fields = append(fields, zap.Stringers("p2p", addrs))
	}
	if addrs := n.RPCAddrs(); addrs != nil {
		fields = append(fields, zap.Stringers("rpcAddresses", addrs))
	}
	if addrs := n.MonitoringAddrs(); len(addrs) != 0 {
		fields = append(fields, zap.Stringers("monitoring", addrs))
	}
	d.log.Info("node running, waits for a signal", fields...)
}

func (d *daemon) logStart() {
	p := &d.cfg.ProtocolConfiguration
	d.log.Info("starting n3d node",
		zap.String("version", buildinfo.Version),
		zap.String("commit", buildinfo.Commit),
		zap.String("config", d.src),
		zap.Stringer("network", p.Magic),
		zap.Uint32("magic", uint32(p.Magic)),
		zap.Int("committee", len(p.StandbyCommittee)),
		zap.Int("validators", p.ValidatorsCountAt(0)),
		zap.Duration("timePerBlock", p.TimePerBlock),
		zap.Stringers("hardforksAtGenesis", p.ActiveHardforks(0)),
		zap.String("db", d.cfg.ApplicationConfiguration.DBConfiguration.Type),
	)
	d.log.Debug("protocol limits",
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
			d.log.Info("hardfork scheduled", zap.Stringer("hardfork", hf), zap.Uint32("height", h))
		}
	}
}

// onReload rereads the configuration on SIGHUP, as neo-go does: the
// protocol section must not change; the log level is applied (unless
// --debug pins it). Services will pick up their sections here once wired.
func (d *daemon) onReload() {
	d.log.Info("SIGHUP received, rereading the configuration")
	cfg, err := d.reload()
	if err != nil {
		d.log.Warn("cannot reread the configuration, signal ignored", zap.Error(err))
		return
	}
	if !reflect.DeepEqual(cfg.ProtocolConfiguration, d.cfg.ProtocolConfiguration) {
		d.log.Warn("ProtocolConfiguration changed, signal ignored (restart the node to change it)")
		return
	}
	if !d.debug && cfg.ApplicationConfiguration.LogLevel != d.cfg.ApplicationConfiguration.LogLevel {
		lvl, err := zapcore.ParseLevel(strings.ToLower(cfg.ApplicationConfiguration.LogLevel))
		if err != nil {
			d.log.Warn("bad LogLevel, signal ignored", zap.Error(err))
			return
		}
		d.level.SetLevel(lvl)
		d.log.Warn("log level changed", zap.Stringer("level", lvl))
	}
	d.cfg = cfg
}
