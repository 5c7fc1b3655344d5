package sim

import (
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// Config describes one simulated run.
type Config struct {
	Nodes      int // all nodes, validators included
	Validators int // the first Validators nodes run dBFT (1..Nodes)
	// Degree is the minimum number of neighbours of each node in a random
	// graph; 0 or at least Nodes-1 makes a full mesh.
	Degree int
	// TxRate is the number of transactions submitted per second during
	// Duration.
	TxRate   float64
	Duration time.Duration
	// Settle bounds the wait after the load for inclusion and catch-up.
	Settle time.Duration
	// BlockTime is the protocol's TimePerBlock.
	BlockTime time.Duration
	Seed      int64
	Latency   time.Duration // one-way, per link
	Jitter    time.Duration
	Loss      float64 // per write, 0..1 (delivered after a retransmission delay)
	// loseEvery, a test hook (a planted bug), makes the load generator
	// count every loseEvery-th transaction as accepted without giving it
	// to any node, as a node that acknowledges and drops a transaction.
	loseEvery int
	Log       *zap.Logger

	// Topology, faults and links beyond latency and loss (topology.go,
	// fault.go).

	// Topology is TopologyRandom (the default when Degree > 0),
	// TopologyFull or TopologySmallWorld (a Watts–Strogatz ring lattice
	// of Degree neighbours with Rewire of its edges moved at random).
	Topology string
	Rewire   float64 // 0: 0.2; negative: no rewiring (the plain lattice)
	// Bandwidth, in bytes per second, of every link (0: unlimited).
	Bandwidth int64
	// Faults are applied during the load, counted from its start; the
	// load lasts at least until the last one has ended.
	Faults []Fault
	// plantRootDiff, a test hook (a planted disagreement), gives node
	// plantRootDiff-1 another genesis GAS supply: the same blocks, another
	// state root.
	plantRootDiff int
	// plantNoRestart, a test hook, leaves crashed nodes down.
	plantNoRestart bool

	// Gossip policy (policy.go): how transactions are announced, and
	// the switches that turn off the 2/3 cancellation of broadcasts and
	// the batching of up to 42 hashes per inv.
	Policy   Policy
	NoCancel bool
	NoBatch  bool
}

func (c *Config) setDefaults() error {
	if c.Nodes <= 0 {
		c.Nodes = 4
	}
	if c.Validators <= 0 {
		c.Validators = min(4, c.Nodes)
	}
	if c.Validators > c.Nodes {
		return fmt.Errorf("sim: %d validators for %d nodes", c.Validators, c.Nodes)
	}
	if c.Nodes > 250*250 {
		return errors.New("sim: too many nodes")
	}
	if c.Duration <= 0 {
		c.Duration = 10 * time.Second
	}
	if c.Settle <= 0 {
		c.Settle = 2 * time.Minute
	}
	if c.BlockTime <= 0 {
		c.BlockTime = time.Second
	}
	if c.Loss < 0 || c.Loss >= 1 {
		return fmt.Errorf("sim: loss %v not in [0,1)", c.Loss)
	}
	if c.Policy == "" {
		c.Policy = PolicyFanOut
	}
	if c.Log == nil {
		c.Log = zap.NewNop()
	}
	return c.checkTopologyAndFaults()
}
