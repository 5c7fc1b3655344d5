package sim

import (
	"context"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/util"
)

// Report is the outcome of a run.
type Report struct {
	Nodes        int     `json:"nodes"`
	Validators   int     `json:"validators"`
	Degree       int     `json:"degree"`
	Seed         int64   `json:"seed"`
	TxRate       float64 `json:"txRate"`
	Duration     string  `json:"duration"`
	StartSeconds float64 `json:"startSeconds"`
	WallSeconds  float64 `json:"wallSeconds"`
	HeapMB       float64 `json:"heapMB"` // after the run, before GC of the nodes
	Submitted    int     `json:"submitted"`
	Accepted     int     `json:"accepted"`
	Refused      int     `json:"refused"`
	Included     int     `json:"included"`
	Expired      int     `json:"expired"`
	Blocks       uint32  `json:"blocks"` // the lowest common height
	TPS          float64 `json:"tps"`    // included / time from first to last block with one
	// BlockIntervalMs is the mean and the maximum interval between block
	// timestamps over the run.
	BlockIntervalMs [2]float64 `json:"blockIntervalMs"`
	// PropagationMs is the time from submission until a transaction was in
	// every node's pool: 50th, 90th, 99th percentile and maximum, over the
	// transactions that reached every pool.
	PropagationMs [4]float64 `json:"propagationMs"`
	ReachedAll    int        `json:"reachedAll"`
	// Messages and Bytes are what the nodes wrote to each other over the
	// whole run (a memnet Write is one P2P message); the per-node figures
	// are minimum, mean and maximum.
	Messages        uint64     `json:"messages"`
	Bytes           uint64     `json:"bytes"`
	MessagesPerNode [3]float64 `json:"messagesPerNode"`
	BytesPerNode    [3]float64 `json:"bytesPerNode"`
	// MessagesPerTxPerNode is Messages / Included / Nodes: the gossip cost
	// of a transaction (blocks and consensus included).
	MessagesPerTxPerNode float64  `json:"messagesPerTxPerNode"`
	Goroutines           [2]int   `json:"goroutines"` // before and after
	Violations           []string `json:"violations"`

	// Topology is the graph's kind (Config.Topology); Faults are the
	// run's faults (ParseFault's syntax) and FaultEvents when each began
	// and ended (faultrun.go).
	Topology    string   `json:"topology"`
	Faults      []string `json:"faults,omitempty"`
	FaultEvents []string `json:"faultEvents,omitempty"`

	// Gossip figures (measure.go), over the window from the start of the
	// load until every transaction was included and every node caught up.
	Policy        string  `json:"policy"` // with its switches, e.g. "fanout+nocancel"
	WindowSeconds float64 `json:"windowSeconds"`
	// CPUSeconds is the process's CPU time over the window, CPUCores that
	// over the window's length (cores busy on average).
	CPUSeconds float64 `json:"cpuSeconds"`
	CPUCores   float64 `json:"cpuCores"`
	// HeapPerNodeMB is the heap in use divided by the node count, after
	// the start and at the end of the window.
	HeapPerNodeMB [2]float64 `json:"heapPerNodeMB"`
	// PropagationTwoThirdsMs is as PropagationMs, to 2/3 of the pools.
	PropagationTwoThirdsMs [4]float64 `json:"propagationTwoThirdsMs"`
	// BlockPropagationMs is the time from the first node having a block
	// to every node (and to 2/3 of them) having it: 50th, 90th, 99th
	// percentile and maximum over the window's blocks.
	BlockPropagationMs          [4]float64 `json:"blockPropagationMs"`
	BlockPropagationTwoThirdsMs [4]float64 `json:"blockPropagationTwoThirdsMs"`
	// ViewChangedBlocks are the blocks not made in view 0; ViewChanges
	// the sum of their views (each modulo the validator count).
	ViewChangedBlocks int `json:"viewChangedBlocks"`
	ViewChanges       int `json:"viewChanges"`
	// SentByKind is what all nodes sent by message class (inv, getdata,
	// tx, block, extensible, other), from the P2P servers' counters;
	// PerTxPerNode the same per included transaction per node.
	SentByKind   map[string]network.Count `json:"sentByKind"`
	PerTxPerNode map[string]Rate          `json:"perTxPerNode"`
	// TxAdverts counts the transaction hashes announced in invs by all
	// nodes; per second of the window and per included transaction.
	TxAdverts          uint64  `json:"txAdverts"`
	TxAdvertsPerSecond float64 `json:"txAdvertsPerSecond"`
	TxAdvertsPerTx     float64 `json:"txAdvertsPerTx"`
	// Reannounced counts the hashes nodes announced again (to every
	// peer) because they stayed pooled: part of TxAdverts.
	Reannounced uint64 `json:"reannounced"`
}

// Rate is a number of messages and bytes per transaction per node.
type Rate struct {
	Messages float64 `json:"messages"`
	Bytes    float64 `json:"bytes"`
}

// OK tells whether every invariant held.
func (r *Report) OK() bool { return len(r.Violations) == 0 }

// WriteText writes the summary.
func (r *Report) WriteText(w io.Writer) error {
	_, err := fmt.Fprintf(w, `nodes %d (validators %d, degree %d), seed %d, load %.1f tx/s for %s
started in %.1fs, run %.1fs, heap %.0f MiB
transactions: submitted %d, accepted %d, refused %d, included %d, expired %d
blocks %d, TPS %.2f, block interval mean %.0f ms max %.0f ms
propagation to all pools (%d txs): p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms
messages %d (%.0f MB): per node min %.0f mean %.0f max %.0f; per tx per node %.1f
goroutines %d before, %d after
`, r.Nodes, r.Validators, r.Degree, r.Seed, r.TxRate, r.Duration, r.StartSeconds, r.WallSeconds, r.HeapMB,
		r.Submitted, r.Accepted, r.Refused, r.Included, r.Expired, r.Blocks, r.TPS,
		r.BlockIntervalMs[0], r.BlockIntervalMs[1], r.ReachedAll,
		r.PropagationMs[0], r.PropagationMs[1], r.PropagationMs[2], r.PropagationMs[3],
		r.Messages, float64(r.Bytes)/1e6, r.MessagesPerNode[0], r.MessagesPerNode[1], r.MessagesPerNode[2],
		r.MessagesPerTxPerNode, r.Goroutines[0], r.Goroutines[1])
	if err == nil {
		err = r.writeFaults(w)
	}
	if err == nil {
		err = r.writeGossip(w)
	}
	if err != nil {
		return fmt.Errorf("sim: report: %w", err)
	}
	if r.OK() {
		_, err = fmt.Fprintln(w, "invariants: all held")
	} else {
		_, err = fmt.Fprintf(w, "invariants: %d violated\n", len(r.Violations))
		for _, v := range r.Violations {
			if err == nil {
				_, err = fmt.Fprintln(w, "  -", v)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("sim: report: %w", err)
	}
	return nil
}

// writeGossip writes the gossip figures of the summary.
func (r *Report) writeGossip(w io.Writer) error {
	_, err := fmt.Fprintf(w, `policy %s; window %.1fs, CPU %.1fs (%.2f cores), heap per node %.1f MiB after start, %.1f MiB at the end
propagation to 2/3 of the pools: p50 %.0f ms, p90 %.0f ms, p99 %.0f ms, max %.0f ms
block propagation first to all: p50 %.0f ms, p90 %.0f ms, max %.0f ms; to 2/3: p50 %.0f ms, p90 %.0f ms
view changes: %d blocks not in view 0 (views summed %d)
tx adverts (hashes in invs) %d: %.0f/s, %.1f per tx; hashes re-announced to every peer %d
`, r.Policy, r.WindowSeconds, r.CPUSeconds, r.CPUCores, r.HeapPerNodeMB[0], r.HeapPerNodeMB[1],
		r.PropagationTwoThirdsMs[0], r.PropagationTwoThirdsMs[1], r.PropagationTwoThirdsMs[2], r.PropagationTwoThirdsMs[3],
		r.BlockPropagationMs[0], r.BlockPropagationMs[1], r.BlockPropagationMs[3],
		r.BlockPropagationTwoThirdsMs[0], r.BlockPropagationTwoThirdsMs[1],
		r.ViewChangedBlocks, r.ViewChanges, r.TxAdverts, r.TxAdvertsPerSecond, r.TxAdvertsPerTx, r.Reannounced)
	if err != nil || len(r.PerTxPerNode) == 0 {
		return err
	}
	if _, err = fmt.Fprint(w, "per tx per node (messages / bytes):"); err != nil {
		return err
	}
	for _, k := range kinds {
		c := r.PerTxPerNode[k]
		if _, err = fmt.Fprintf(w, " %s %.2f / %.0f;", k, c.Messages, c.Bytes); err != nil {
			return err
		}
	}
	_, err = fmt.Fprintln(w)
	return err
}

// drive waits for the network to form, runs the load, settles and checks.
func (w *world) drive(ctx context.Context, rep *Report) error {
	rep.Policy = w.cfg.policyName()
	// Consensus needs the validators connected; wait for the first block.
	if !w.waitFor(ctx, w.cfg.Settle, func() bool { return w.minHeight() >= 1 }) {
		rep.Violations = append(rep.Violations, "no block on every node before the load")
		return nil
	}
	w.startMeasure(rep)
	acc, refused, err := w.load(ctx)
	if err != nil {
		return err
	}
	rep.Accepted, rep.Refused, rep.Submitted = len(acc), refused, len(acc)+refused
	c0 := w.nodes[0].n.Chain()
	// A transaction counts as included once the block holding it is at
	// or below node 0's height: the chain may find it a moment before its
	// block is the current one.
	pending := func() bool {
		h := c0.BlockHeight()
		for _, s := range acc {
			_, in, err := c0.GetTransaction(s.tx.Hash())
			if (err != nil || in > h) && s.tx.ValidUntilBlock >= h {
				return true
			}
		}
		return false
	}
	w.waitFor(ctx, w.cfg.Settle, func() bool { return !pending() })
	target := c0.BlockHeight()
	if !w.waitFor(ctx, w.cfg.Settle, func() bool { return w.minHeight() >= target }) {
		for i, sn := range w.nodes {
			if h := sn.n.Chain().BlockHeight(); h < target {
				rep.Violations = append(rep.Violations, fmt.Sprintf("node %d behind: height %d < %d", i, h, target))
			}
		}
	}
	w.check(rep, acc)
	w.traffic(rep)
	w.endMeasure(rep)
	w.blockPropagation(rep)
	w.viewChanges(rep, rep.Blocks)
	return nil
}

// traffic sums what each node wrote on the in-memory network.
func (w *world) traffic(rep *Report) {
	rep.MessagesPerNode[0], rep.BytesPerNode[0] = -1, -1
	for i := range w.nodes {
		b, m := w.mem.Sent(hostIP(i))
		rep.Messages += m
		rep.Bytes += b
		if rep.MessagesPerNode[0] < 0 || float64(m) < rep.MessagesPerNode[0] {
			rep.MessagesPerNode[0] = float64(m)
		}
		if rep.BytesPerNode[0] < 0 || float64(b) < rep.BytesPerNode[0] {
			rep.BytesPerNode[0] = float64(b)
		}
		rep.MessagesPerNode[2] = max(rep.MessagesPerNode[2], float64(m))
		rep.BytesPerNode[2] = max(rep.BytesPerNode[2], float64(b))
	}
	n := float64(len(w.nodes))
	rep.MessagesPerNode[1], rep.BytesPerNode[1] = float64(rep.Messages)/n, float64(rep.Bytes)/n
	if rep.Included > 0 {
		rep.MessagesPerTxPerNode = float64(rep.Messages) / float64(rep.Included) / n
	}
}

func (w *world) minHeight() uint32 {
	m := ^uint32(0)
	for _, sn := range w.nodes {
		m = min(m, sn.n.Chain().BlockHeight())
	}
	return m
}

func (w *world) waitFor(ctx context.Context, d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		time.Sleep(50 * time.Millisecond)
	}
	return true
}

// check compares the chains, counts inclusions and computes the figures.
func (w *world) check(rep *Report, acc []sent) {
	top := w.minHeight()
	rep.Blocks = top
	c0 := w.nodes[0].n.Chain()
	count := map[util.Uint256]int{}
	var stamps []uint64
	var firstTx, lastTx uint64
	for i := uint32(0); i <= top; i++ {
		want, _ := c0.GetHeaderHash(i)
		root0, err0 := c0.StateRoot(i)
		for j, sn := range w.nodes[1:] {
			got, ok := sn.n.Chain().GetHeaderHash(i)
			if !ok || got != want {
				rep.Violations = append(rep.Violations, fmt.Sprintf("node %d block %d: hash %s, node 0 %s", j+1, i, got.StringLE(), want.StringLE()))
			}
			r, err := sn.n.Chain().StateRoot(i)
			if err != nil || err0 != nil || r.Root != root0.Root {
				rep.Violations = append(rep.Violations, fmt.Sprintf("node %d block %d: state root differs or is missing (%v, %v)", j+1, i, err, err0))
			}
		}
		b, err := c0.GetBlockByIndex(i)
		if err != nil {
			rep.Violations = append(rep.Violations, fmt.Sprintf("node 0 block %d: %v", i, err))
			continue
		}
		stamps = append(stamps, b.Timestamp)
		for _, tx := range b.Transactions {
			count[tx.Hash()]++
			if firstTx == 0 {
				firstTx = b.Timestamp
			}
			lastTx = b.Timestamp
		}
	}
	for _, s := range acc {
		switch n := count[s.tx.Hash()]; {
		case n == 1:
			rep.Included++
		case n > 1:
			rep.Violations = append(rep.Violations, fmt.Sprintf("tx %s included %d times", s.tx.Hash().StringLE(), n))
		case s.tx.ValidUntilBlock < top:
			rep.Expired++
		default:
			rep.Violations = append(rep.Violations, fmt.Sprintf("tx %s (sent to node %d) accepted, neither included nor expired by height %d%s",
				s.tx.Hash().StringLE(), s.node, top, w.pooledOn(s.tx.Hash())))
		}
	}
	if lastTx > firstTx {
		rep.TPS = float64(rep.Included) / (float64(lastTx-firstTx) / 1000)
	}
	if len(stamps) > 2 {
		var sum, mx float64
		for i := 2; i < len(stamps); i++ { // block 1 follows the genesis time
			d := float64(stamps[i] - stamps[i-1])
			sum += d
			mx = max(mx, d)
		}
		rep.BlockIntervalMs = [2]float64{sum / float64(len(stamps)-2), mx}
	}
	w.propagation(rep, acc)
}

// pooledOn tells, for a transaction neither included nor expired, how
// many pools still hold it: a late one (the settle period ran out, as on
// a starved machine) rather than a lost one.
func (w *world) pooledOn(h util.Uint256) string {
	n := 0
	for _, sn := range w.nodes {
		if _, ok := sn.n.Pool().TryGet(h); ok {
			n++
		}
	}
	if n == 0 {
		return " (in no pool: lost)"
	}
	return fmt.Sprintf(" (still in %d pools: late)", n)
}

// propagation fills the percentiles of the time to every node's pool.
func (w *world) propagation(rep *Report, acc []sent) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var ds, dq []float64
	q := quorumIndex(len(w.nodes))
	for _, s := range acc {
		ts := w.arrived[s.tx.Hash()]
		if len(ts) <= q {
			continue
		}
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		dq = append(dq, ms(ts[q].Sub(s.at)))
		if len(ts) >= len(w.nodes) {
			ds = append(ds, ms(ts[len(ts)-1].Sub(s.at)))
		}
	}
	rep.ReachedAll = len(ds)
	rep.PropagationMs = percentiles(ds)
	rep.PropagationTwoThirdsMs = percentiles(dq)
}
