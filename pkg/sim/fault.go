package sim

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Fault kinds (Fault.Kind).
const (
	// FaultCrash stops nodes at At as a crash (their store keeps only
	// what was written before) and starts them again For later on the
	// same store.
	FaultCrash = "crash"
	// FaultValidatorDown is a crash of validators (Nodes must be
	// validators): the others must go on (view changes) and the validator
	// catch up when it is back.
	FaultValidatorDown = "validator-down"
	// FaultPartition cuts Nodes off from the other nodes (both
	// directions: bytes held, dials refused) and heals it For later.
	FaultPartition = "partition"
	// FaultSlow makes Nodes stop reading their connections (their senders
	// block once the buffers fill) and read again For later.
	FaultSlow = "slow"
	// FaultLoss raises every link's loss rate to Loss for For (memnet's
	// model: a lost write arrives a retransmission delay late).
	FaultLoss = "loss"
	// FaultJoin starts the last Count nodes only at At, with an empty
	// store: they sync from genesis.
	FaultJoin = "join"
)

// Fault is one fault of a run. At is counted from the start of the load
// (once every node has block 1).
type Fault struct {
	Kind  string        `json:"kind"`
	Nodes []int         `json:"nodes,omitempty"` // node indexes (not for loss and join)
	At    time.Duration `json:"at"`
	For   time.Duration `json:"for,omitempty"`   // how long it lasts (not for join)
	Loss  float64       `json:"loss,omitempty"`  // loss only
	Count int           `json:"count,omitempty"` // join only: how many nodes
}

// defaultBurstLoss is FaultLoss's rate when none is given.
const defaultBurstLoss = 0.3

// String is the fault in ParseFault's syntax.
func (f Fault) String() string {
	var b strings.Builder
	b.WriteString(f.Kind)
	sep := byte(':')
	add := func(k, v string) {
		b.WriteByte(sep)
		sep = ','
		b.WriteString(k + "=" + v)
	}
	if len(f.Nodes) > 0 {
		s := make([]string, len(f.Nodes))
		for i, n := range f.Nodes {
			s[i] = strconv.Itoa(n)
		}
		add("nodes", strings.Join(s, "+"))
	}
	add("at", f.At.String())
	if f.Kind != FaultJoin {
		add("for", f.For.String())
	}
	if f.Kind == FaultLoss {
		add("loss", strconv.FormatFloat(f.Loss, 'g', -1, 64))
	}
	if f.Kind == FaultJoin {
		add("count", strconv.Itoa(f.Count))
	}
	return b.String()
}

// ParseFault reads "kind:key=value,key=value...", for example
// "crash:node=5,at=2s,for=3s", "partition:nodes=0-5,at=1s,for=4s",
// "slow:node=7,at=1s,for=5s", "loss:loss=0.5,at=2s,for=2s",
// "validator-down:node=1,at=2s,for=6s", "join:count=2,at=3s". Keys:
// node or nodes (a list of indexes and ranges joined by +: "1+3+8-10"),
// at and for (Go durations), loss (0..1), count.
func ParseFault(s string) (Fault, error) {
	kind, args, _ := strings.Cut(strings.TrimSpace(s), ":")
	f := Fault{Kind: kind}
	switch kind {
	case FaultCrash, FaultValidatorDown, FaultPartition, FaultSlow, FaultLoss, FaultJoin:
	default:
		return f, fmt.Errorf("sim: fault %q: unknown kind %q (crash, validator-down, partition, slow, loss, join)", s, kind)
	}
	if args == "" {
		return f, fmt.Errorf("sim: fault %q: no at=", s)
	}
	seen := map[string]bool{}
	for _, kv := range strings.Split(args, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || v == "" {
			return f, fmt.Errorf("sim: fault %q: %q is not key=value", s, kv)
		}
		if seen[k] {
			return f, fmt.Errorf("sim: fault %q: %s given twice", s, k)
		}
		seen[k] = true
		var err error
		switch k {
		case "node", "nodes":
			f.Nodes, err = parseNodeList(v)
		case "at":
			f.At, err = time.ParseDuration(v)
		case "for":
			f.For, err = time.ParseDuration(v)
		case "loss":
			f.Loss, err = strconv.ParseFloat(v, 64)
		case "count":
			f.Count, err = strconv.Atoi(v)
		default:
			err = errors.New("unknown key")
		}
		if err != nil {
			return f, fmt.Errorf("sim: fault %q: %s: %w", s, k, err)
		}
	}
	if !seen["at"] {
		return f, fmt.Errorf("sim: fault %q: no at=", s)
	}
	return f, nil
}

// maxListedNodes bounds a node list ("0-100000" is refused).
const maxListedNodes = 1 << 16

// parseNodeList reads "1+3+8-10".
func parseNodeList(v string) ([]int, error) {
	var out []int
	for _, part := range strings.Split(v, "+") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(lo)
		if err != nil {
			return nil, err
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, err
			}
		}
		if a < 0 || b < a || len(out)+b-a >= maxListedNodes {
			return nil, fmt.Errorf("bad node range %q", part)
		}
		for i := a; i <= b; i++ {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// checkFaults validates the faults against the run's size and fills the
// defaults (loss rate, join count).
func (c *Config) checkFaults() error {
	joins := 0
	for i := range c.Faults {
		f := &c.Faults[i]
		if f.At < 0 || f.For < 0 {
			return fmt.Errorf("sim: fault %s: negative time", f)
		}
		for _, n := range f.Nodes {
			if n >= c.Nodes {
				return fmt.Errorf("sim: fault %s: node %d of %d", f, n, c.Nodes)
			}
		}
		needNodes := f.Kind != FaultLoss && f.Kind != FaultJoin
		switch {
		case needNodes && len(f.Nodes) == 0:
			return fmt.Errorf("sim: fault %s: which node (node=)", f)
		case !needNodes && len(f.Nodes) > 0:
			return fmt.Errorf("sim: fault %s: takes no node", f)
		case f.Kind != FaultJoin && f.For == 0:
			return fmt.Errorf("sim: fault %s: for= missing", f)
		case f.Kind == FaultPartition && len(f.Nodes) >= c.Nodes:
			return fmt.Errorf("sim: fault %s: every node on one side", f)
		}
		switch f.Kind {
		case FaultValidatorDown:
			if slices.Max(f.Nodes) >= c.Validators {
				return fmt.Errorf("sim: fault %s: not a validator (0..%d)", f, c.Validators-1)
			}
		case FaultLoss:
			if f.Loss == 0 {
				f.Loss = defaultBurstLoss
			}
			if f.Loss < 0 || f.Loss >= 1 {
				return fmt.Errorf("sim: fault %s: loss not in [0,1)", f)
			}
		case FaultJoin:
			if f.Count == 0 {
				f.Count = 1
			}
			joins += f.Count
		}
	}
	if joins > 0 && c.Nodes-joins < c.Validators {
		return fmt.Errorf("sim: %d late joiners: the last %d nodes must not be validators", joins, joins)
	}
	// A late joiner cannot also crash, slow down or be partitioned before
	// it joins; keeping them apart keeps the schedule simple.
	late := c.Nodes - joins
	for _, f := range c.Faults {
		if len(f.Nodes) > 0 && slices.Max(f.Nodes) >= late {
			return fmt.Errorf("sim: fault %s: node %d joins late", f, slices.Max(f.Nodes))
		}
	}
	return nil
}

// lateJoiners is the number of nodes that join late (the last ones).
func (c *Config) lateJoiners() int {
	n := 0
	for _, f := range c.Faults {
		if f.Kind == FaultJoin {
			n += f.Count
		}
	}
	return n
}

// faultsEnd is when the last fault ends, from the start of the load.
func (c *Config) faultsEnd() time.Duration {
	var end time.Duration
	for _, f := range c.Faults {
		end = max(end, f.At+f.For)
	}
	return end
}

// checkTopologyAndFaults validates the topology, link and fault settings.
func (c *Config) checkTopologyAndFaults() error {
	switch c.Topology {
	case "", TopologyRandom, TopologyFull, TopologySmallWorld:
	default:
		return fmt.Errorf("sim: topology %q (random, full, smallworld)", c.Topology)
	}
	switch {
	case c.Rewire == 0:
		c.Rewire = defaultRewire
	case c.Rewire < 0:
		c.Rewire = 0
	}
	if c.Rewire > 1 {
		return fmt.Errorf("sim: rewire %v not in [0,1]", c.Rewire)
	}
	if c.Bandwidth < 0 {
		return fmt.Errorf("sim: negative bandwidth %d", c.Bandwidth)
	}
	if err := c.checkFaults(); err != nil {
		return err
	}
	return c.checkOverlaps()
}

// checkOverlaps refuses two faults of one kind (a crash and a validator
// down count as one) at overlapping times on a common node, or two
// overlapping loss bursts: the first to end would undo the other.
func (c *Config) checkOverlaps() error {
	for a, f := range c.Faults {
		for _, g := range c.Faults[a+1:] {
			if kindOf(f) != kindOf(g) || f.Kind == FaultJoin || f.At+f.For <= g.At || g.At+g.For <= f.At {
				continue
			}
			if f.Kind == FaultLoss {
				return fmt.Errorf("sim: faults %s and %s overlap", f, g)
			}
			for _, n := range f.Nodes {
				if slices.Contains(g.Nodes, n) {
					return fmt.Errorf("sim: faults %s and %s overlap on node %d", f, g, n)
				}
			}
		}
	}
	return nil
}

// kindOf is the fault's kind, a validator down being a crash.
func kindOf(f Fault) string {
	if f.Kind == FaultValidatorDown {
		return FaultCrash
	}
	return f.Kind
}
