package sim

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
)

// faultScenario is the CI-sized fault run: 16 nodes (4 validators) on a
// small-world graph with every fault kind during an 8 s load.
func faultScenario(t *testing.T) Config {
	var fs []Fault
	for _, s := range []string{
		"crash:node=5,at=1s,for=2500ms",
		"validator-down:node=2,at=2s,for=3s",
		"partition:nodes=8-10,at=1s,for=3s",
		"slow:node=11,at=1s,for=3s",
		"loss:loss=0.4,at=5s,for=2s",
		"join:count=2,at=3s",
	} {
		f, err := ParseFault(s)
		require.NoError(t, err)
		fs = append(fs, f)
	}
	return Config{Nodes: 16, Validators: 4, Degree: 4, Topology: TopologySmallWorld, TxRate: 30,
		Duration: 8 * time.Second, BlockTime: 500 * time.Millisecond, Settle: 40 * time.Second,
		Seed: 11, Faults: fs}
}

// TestFaultsKeepEveryTransaction: through a crash and restart of a relay,
// a validator down for 3 s, a partition of three relays, a relay that
// stops reading, a loss burst and two nodes joining late from genesis,
// every accepted transaction is included once, every node ends on the
// same chain and state, and no goroutine is left.
func TestFaultsKeepEveryTransaction(t *testing.T) {
	if testing.Short() {
		t.Skip("sixteen nodes")
	}
	rep, err := Run(context.Background(), faultScenario(t))
	require.NoError(t, err)
	var buf bytes.Buffer
	require.NoError(t, rep.WriteText(&buf))
	t.Log("\n" + buf.String())
	require.Empty(t, rep.Violations)
	require.Equal(t, rep.Accepted, rep.Included+rep.Expired)
	require.Positive(t, rep.Included)
	// Every fault began and ended, and each node it hit caught up.
	require.Equal(t, map[string]int{"begins": 5, "ends": 5, "started": 2, "caught up": 5},
		countEvents(rep.FaultEvents), "%v", rep.FaultEvents)
}

// TestPlantedDisagreementIsCaught: a node that computes another state
// (more genesis GAS) but accepts the same blocks is reported.
func TestPlantedDisagreementIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("six nodes")
	}
	cfg := Config{Nodes: 6, Validators: 4, Degree: 0, TxRate: 10, Duration: time.Second,
		BlockTime: 500 * time.Millisecond, Settle: 20 * time.Second, Seed: 3, plantRootDiff: 5}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	var roots, others int
	for _, v := range rep.Violations {
		if strings.HasPrefix(v, "node 4 ") && strings.Contains(v, "state root differs") {
			roots++
		} else {
			others++
		}
	}
	require.Positive(t, roots, "violations: %v", rep.Violations)
	require.Equal(t, int(rep.Blocks)+1, roots, "every height from genesis differs on node 4 only: %v", rep.Violations)
	require.Zero(t, others, "%v", rep.Violations)
	require.Equal(t, rep.Accepted, rep.Included+rep.Expired, "the transactions are all there")
}

func TestParseFault(t *testing.T) {
	for in, want := range map[string]Fault{
		"crash:node=5,at=2s,for=3s":          {Kind: FaultCrash, Nodes: []int{5}, At: 2 * time.Second, For: 3 * time.Second},
		"partition:nodes=3+0-1,at=1s,for=4s": {Kind: FaultPartition, Nodes: []int{0, 1, 3}, At: time.Second, For: 4 * time.Second},
		"loss:loss=0.5,at=0s,for=1m":         {Kind: FaultLoss, Loss: 0.5, For: time.Minute},
		"join:count=2,at=3s":                 {Kind: FaultJoin, Count: 2, At: 3 * time.Second},
	} {
		got, err := ParseFault(in)
		require.NoError(t, err, in)
		require.Equal(t, want, got, in)
		again, err := ParseFault(got.String())
		require.NoError(t, err, got.String())
		require.Equal(t, got, again, "round trip of %q", in)
	}
	for in, msg := range map[string]string{
		"reboot:node=1,at=1s":         "unknown kind",
		"crash":                       "no at=",
		"crash:node=1":                "no at=",
		"crash:node=1,at=1s,at=2s":    "given twice",
		"crash:node=x,at=1s":          "node",
		"crash:node=3-1,at=1s":        "bad node range",
		"crash:node=0-70000,at=1s":    "bad node range",
		"crash:node=1,at=soon":        "at",
		"crash:node=1,at=1s,colour=1": "unknown key",
		"crash:node,at=1s":            "not key=value",
	} {
		_, err := ParseFault(in)
		require.ErrorContains(t, err, msg, in)
	}
}

func TestCheckFaults(t *testing.T) {
	parse := func(ss ...string) []Fault {
		var fs []Fault
		for _, s := range ss {
			f, err := ParseFault(s)
			require.NoError(t, err)
			fs = append(fs, f)
		}
		return fs
	}
	for msg, fs := range map[string][]Fault{
		"node 12 of 12":      parse("slow:node=12,at=1s,for=1s"),
		"not a validator":    parse("validator-down:node=4,at=1s,for=1s"),
		"which node":         parse("crash:at=1s,for=1s"),
		"takes no node":      parse("loss:node=1,at=1s,for=1s"),
		"for= missing":       parse("slow:node=1,at=1s"),
		"every node":         parse("partition:nodes=0-11,at=1s,for=1s"),
		"loss not in":        parse("loss:loss=1.5,at=1s,for=1s"),
		"must not be":        parse("join:count=9,at=1s"),
		"joins late":         parse("join:count=2,at=1s", "crash:node=11,at=1s,for=1s"),
		"topology \"ring\"":  nil,
		"rewire 2 not in":    nil,
		"negative bandwidth": nil,
		"overlap on node 3":  parse("crash:node=1-3,at=1s,for=3s", "validator-down:node=3,at=2s,for=1s"),
		"loss=0.3 overlap":   parse("loss:at=1s,for=3s", "loss:at=3s,for=1s"),
		"overlap on node 7":  parse("slow:node=7,at=1s,for=3s", "slow:node=6-8,at=3s,for=1s"),
		"negative time":      {{Kind: FaultSlow, Nodes: []int{1}, At: -time.Second, For: time.Second}},
	} {
		cfg := Config{Nodes: 12, Validators: 4, Faults: fs}
		switch msg {
		case "topology \"ring\"":
			cfg.Topology = "ring"
		case "rewire 2 not in":
			cfg.Rewire = 2
		case "negative bandwidth":
			cfg.Bandwidth = -1
		}
		require.ErrorContains(t, cfg.setDefaults(), msg)
	}
	cfg := Config{Nodes: 12, Validators: 4, Faults: parse("loss:at=1s,for=1s", "join:at=2s",
		"crash:node=5,at=1s,for=1s", "crash:node=5,at=3s,for=1s", "crash:node=5,at=2s,for=1s")}
	require.NoError(t, cfg.setDefaults())
	require.Equal(t, defaultBurstLoss, cfg.Faults[0].Loss)
	require.Equal(t, 1, cfg.Faults[1].Count)
	require.Equal(t, 1, cfg.lateJoiners())
	require.Equal(t, 4*time.Second, cfg.faultsEnd())
}

// TestSmallWorld: a seeded Watts–Strogatz graph keeps the lattice's edge
// count, is connected, and is the plain ring lattice without rewiring.
func TestSmallWorld(t *testing.T) {
	edges := func(g [][]int) int {
		n := 0
		for _, ns := range g {
			n += len(ns)
		}
		return n / 2
	}
	lattice := smallWorld(20, 4, 0, newRand(1))
	for i, ns := range lattice {
		want := []int{(i + 18) % 20, (i + 19) % 20, (i + 1) % 20, (i + 2) % 20}
		slices.Sort(want)
		require.Equal(t, want, ns, "node %d", i)
	}
	a, b := smallWorld(100, 6, 0.2, newRand(4)), smallWorld(100, 6, 0.2, newRand(4))
	require.Equal(t, a, b, "seeded")
	require.NotEqual(t, a, smallWorld(100, 6, 0.2, newRand(5)))
	require.GreaterOrEqual(t, edges(a), 300) // connect may add an edge
	require.True(t, connected(a))
	moved := 0
	for i, ns := range a {
		for _, j := range ns {
			if d := (j - i + 100) % 100; d > 3 && d < 97 {
				moved++
			}
		}
	}
	require.InDelta(t, 0.2*600, moved, 40, "about a fifth of the edge ends moved")
	require.Len(t, smallWorld(5, 0, 0.2, newRand(1))[0], 4, "degree 0: full mesh")
}

func connected(g [][]int) bool {
	seen := map[int]bool{0: true}
	queue := []int{0}
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		for _, j := range g[i] {
			if !seen[j] {
				seen[j] = true
				queue = append(queue, j)
			}
		}
	}
	return len(seen) == len(g)
}

// countEvents counts the kinds of fault events.
func countEvents(evs []string) map[string]int {
	n := map[string]int{}
	for _, e := range evs {
		switch {
		case strings.HasSuffix(e, " begins"):
			n["begins"]++
		case strings.HasSuffix(e, " ends"):
			n["ends"]++
		case strings.HasSuffix(e, " started at height 0"):
			n["started"]++
		case strings.HasSuffix(e, "s after"):
			n["caught up"]++
		default:
			n[e]++
		}
	}
	return n
}

func TestFaultEventsInTimeOrder(t *testing.T) {
	w := &world{cfg: Config{Faults: []Fault{{Kind: FaultSlow, Nodes: []int{1}, For: time.Second}}, Log: zap.NewNop()}}
	w.faultNote(false, "2.5s: b")
	w.faultNote(false, "1s: a")
	w.faultNote(true, "10s: c failed")
	w.faultNote(false, "2.5s: b2")
	var rep Report
	w.faultReport(&rep)
	require.Equal(t, []string{"1s: a", "2.5s: b", "2.5s: b2", "10s: c failed"}, rep.FaultEvents)
	require.Equal(t, []string{"slow:nodes=1,at=0s,for=1s"}, rep.Faults)
	require.Equal(t, []string{"fault: 10s: c failed"}, rep.Violations)
	require.Equal(t, TopologyFull, rep.Topology, "degree 0")
}

// TestNodeLeftBehindIsCaught: with the planted bug (a crashed relay is
// never started again), the run reports it behind.
func TestNodeLeftBehindIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("six nodes")
	}
	f, err := ParseFault("crash:node=5,at=500ms,for=500ms")
	require.NoError(t, err)
	cfg := Config{Nodes: 6, Validators: 4, Degree: 0, TxRate: 10, Duration: time.Second,
		BlockTime: 300 * time.Millisecond, Settle: 3 * time.Second, Seed: 3, Faults: []Fault{f}, plantNoRestart: true}
	rep, err := Run(context.Background(), cfg)
	require.NoError(t, err)
	behind := 0
	for _, v := range rep.Violations {
		if strings.HasPrefix(v, "node 5 behind") {
			behind++
		}
	}
	require.Equal(t, 1, behind, "violations: %v", rep.Violations)
	require.Contains(t, rep.FaultEvents[len(rep.FaultEvents)-1], "nodes [5] not at height", "%v", rep.FaultEvents)
}
