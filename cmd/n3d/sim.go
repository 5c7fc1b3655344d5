package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	"github.com/n3d-io/n3d/pkg/sim"
	"github.com/urfave/cli/v3"
)

// errSimViolated is returned when a simulated run broke an invariant.
var errSimViolated = errors.New("sim: invariants violated")

// simCommand runs pkg/sim: many nodes in this process on an in-memory
// network, a transaction load, the network invariants.
func simCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "sim",
		Usage: "Run an in-process network of n3d nodes under a transaction load and check its invariants",
		// A --fault value holds commas (crash:node=3,at=1s,for=2s).
		DisableSliceFlagSeparator: true,
		Flags: append([]cli.Flag{
			&cli.IntFlag{Name: "nodes", Value: 12, Usage: "Number of nodes, validators included"},
			&cli.IntFlag{Name: "validators", Value: 4, Usage: "Number of dBFT validators"},
			&cli.IntFlag{Name: "degree", Value: 4, Usage: "Minimum neighbours per node in a random graph (0: full mesh)"},
			&cli.FloatFlag{Name: "tx-rate", Value: 20, Usage: "Transactions submitted per second"},
			&cli.DurationFlag{Name: "duration", Value: 10 * time.Second, Usage: "Duration of the load"},
			&cli.DurationFlag{Name: "block-time", Value: time.Second, Usage: "Protocol TimePerBlock"},
			&cli.DurationFlag{Name: "settle", Value: 2 * time.Minute, Usage: "Longest wait for inclusion and catch-up after the load"},
			&cli.IntFlag{Name: "seed", Value: 1, Usage: "Seed of the topology and the load"},
			&cli.DurationFlag{Name: "latency", Usage: "One-way latency of every link"},
			&cli.FloatFlag{Name: "loss", Usage: "Loss rate of every link (0..1; lost writes are retransmitted late)"},
			&cli.StringFlag{Name: "json", Usage: "Write the report as JSON to this file"},
			// Gossip policy (pkg/sim/policy.go).
			&cli.StringFlag{Name: "policy", Value: string(sim.PolicyFanOut),
				Usage: "Transaction gossip: fanout (default), rebroadcast (every relay to all peers) or firsthand (only first-hand transactions, to all peers)"},
			&cli.BoolFlag{Name: "no-cancel", Usage: "Broadcasts wait for every chosen peer (no 2/3 cancellation)"},
			&cli.BoolFlag{Name: "no-batch", Usage: "One transaction hash per inv (no 42-hash batching)"},
			&cli.StringFlag{Name: "cpuprofile", Usage: "Write a CPU profile of the run to this file"},
		}, simFaultFlags()...),
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if err := ensureNoArgs(cmd); err != nil {
				return err
			}
			cfg := sim.Config{Nodes: int(cmd.Int("nodes")), Validators: int(cmd.Int("validators")),
				Degree: int(cmd.Int("degree")), TxRate: cmd.Float("tx-rate"), Duration: cmd.Duration("duration"),
				BlockTime: cmd.Duration("block-time"), Settle: cmd.Duration("settle"), Seed: int64(cmd.Int("seed")),
				Latency: cmd.Duration("latency"), Loss: cmd.Float("loss")}
			if err := simFaultConfig(cmd, &cfg); err != nil {
				return err
			}
			ctx, stopSignals := signalContext(ctx) // Ctrl-C ends the run (nodes stopped, profile written)
			defer stopSignals()
			stopProfile, err := simPolicy(cmd, &cfg)
			if err != nil {
				return err
			}
			rep, err := sim.Run(ctx, cfg)
			if perr := stopProfile(); err == nil {
				err = perr
			}
			if err != nil {
				return err
			}
			if err := rep.WriteText(e.stdout); err != nil {
				return err
			}
			if p := cmd.String("json"); p != "" {
				data, err := json.MarshalIndent(rep, "", "  ")
				if err != nil {
					return fmt.Errorf("sim: report: %w", err)
				}
				if err := os.WriteFile(p, append(data, '\n'), 0o644); err != nil {
					return fmt.Errorf("sim: write report: %w", err)
				}
			}
			if !rep.OK() {
				return errSimViolated
			}
			return nil
		},
	}
}

// simPolicy sets the gossip policy flags on cfg and starts the CPU
// profile when asked; the returned function stops it.
func simPolicy(cmd *cli.Command, cfg *sim.Config) (stop func() error, err error) {
	if cfg.Policy, err = sim.ParsePolicy(cmd.String("policy")); err != nil {
		return nil, err
	}
	cfg.NoCancel, cfg.NoBatch = cmd.Bool("no-cancel"), cmd.Bool("no-batch")
	p := cmd.String("cpuprofile")
	if p == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(p)
	if err != nil {
		return nil, fmt.Errorf("sim: cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		return nil, errors.Join(fmt.Errorf("sim: cpu profile: %w", err), f.Close())
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("sim: cpu profile: %w", err)
		}
		return nil
	}, nil
}
