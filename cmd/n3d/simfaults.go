package main

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/sim"
	"github.com/urfave/cli/v3"
)

// simFaultFlags are the flags of `n3d sim` for the topology kind, the
// links' bandwidth and the faults.
func simFaultFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "topology", Value: sim.TopologyRandom,
			Usage: "Graph of the nodes: random (degree = minimum neighbours; degree 0: full), full, smallworld (Watts–Strogatz: degree = lattice neighbours)"},
		&cli.FloatFlag{Name: "rewire", Value: 0.2, Usage: "Share of a small-world lattice's edges moved to random nodes (negative: none)"},
		&cli.IntFlag{Name: "bandwidth", Usage: "Bytes per second of every link, each direction (0: unlimited)"},
		&cli.StringSliceFlag{Name: "fault",
			Usage: "A fault during the load, repeatable: crash:node=N,at=D,for=D | validator-down:node=N,at=D,for=D | " +
				"partition:nodes=A-B,at=D,for=D | slow:node=N,at=D,for=D | loss:loss=P,at=D,for=D | join:count=K,at=D " +
				"(nodes lists join with +: 1+4-6; times from the load's start)"},
	}
}

// simFaultConfig sets the topology, bandwidth and faults of cfg from the
// flags.
func simFaultConfig(cmd *cli.Command, cfg *sim.Config) error {
	cfg.Topology = cmd.String("topology")
	cfg.Rewire = cmd.Float("rewire")
	cfg.Bandwidth = int64(cmd.Int("bandwidth"))
	for _, s := range cmd.StringSlice("fault") {
		f, err := sim.ParseFault(s)
		if err != nil {
			return fmt.Errorf("--fault: %w", err)
		}
		cfg.Faults = append(cfg.Faults, f)
	}
	return nil
}
