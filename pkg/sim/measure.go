package sim

import (
	"runtime"
	"slices"
	"time"

	"github.com/n3d-io/n3d/internal/cputime"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/network"
)

// measure is what a run records for the report beyond the invariants:
// block arrival times per node and the traffic counters at the start of
// the load.
type measure struct {
	blockAt   map[uint32][]time.Time // guarded by world.mu
	loadStart time.Time
	traffic0  []network.Traffic
	cpu0      time.Duration
}

// watchBlocks records when each block reached sn's chain.
func (w *world) watchBlocks(sn *simNode) {
	sn.blocks = sn.n.Chain().Subscribe(chain.EventBlock, 1<<12)
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		for ev := range sn.blocks.C {
			now := time.Now()
			w.mu.Lock()
			if w.m.blockAt == nil {
				w.m.blockAt = map[uint32][]time.Time{}
			}
			i := ev.Block.Index
			w.m.blockAt[i] = append(w.m.blockAt[i], now)
			w.mu.Unlock()
		}
	}()
}

// trafficNow reads every node's P2P counters (zero for a node without a
// running server).
func (w *world) trafficNow() []network.Traffic {
	out := make([]network.Traffic, len(w.nodes))
	for i, sn := range w.nodes {
		if srv := sn.n.P2P(); srv != nil {
			out[i] = srv.Traffic()
		}
	}
	return out
}

// startMeasure marks the start of the load.
func (w *world) startMeasure(rep *Report) {
	w.m.loadStart = time.Now()
	w.m.traffic0 = w.trafficNow()
	w.m.cpu0 = cputime.Process()
	rep.HeapPerNodeMB[0] = heapMB() / float64(len(w.nodes))
}

func heapMB() float64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return float64(ms.HeapInuse) / (1 << 20)
}

// kinds are the message classes the report splits traffic into.
var kinds = []string{"inv", "getdata", "tx", "block", "extensible", "other"}

// messageKind is the report class of a P2P command.
func messageKind(cmd string) string {
	switch cmd {
	case "Inv":
		return "inv"
	case "GetData":
		return "getdata"
	case "Transaction":
		return "tx"
	case "Block":
		return "block"
	case "Extensible":
		return "extensible"
	}
	return "other"
}

// endMeasure fills the report's gossip figures over the window from the
// start of the load until now (everything included and caught up).
func (w *world) endMeasure(rep *Report) {
	window := time.Since(w.m.loadStart)
	rep.WindowSeconds = window.Seconds()
	rep.CPUSeconds = (cputime.Process() - w.m.cpu0).Seconds()
	if rep.WindowSeconds > 0 {
		rep.CPUCores = rep.CPUSeconds / rep.WindowSeconds
	}
	rep.HeapPerNodeMB[1] = heapMB() / float64(len(w.nodes))
	now := w.trafficNow()
	sent := map[string]network.Count{}
	var adverts uint64
	for i, t := range now {
		var t0 network.Traffic
		if i < len(w.m.traffic0) {
			t0 = w.m.traffic0[i]
		}
		for cmd, c := range t.Sent {
			k := messageKind(cmd)
			s := sent[k]
			s.Messages += sub(c.Messages, t0.Sent[cmd].Messages)
			s.Bytes += sub(c.Bytes, t0.Sent[cmd].Bytes)
			sent[k] = s
		}
		adverts += sub(t.InvSent["TX"], t0.InvSent["TX"])
		rep.Reannounced += sub(t.Reannounced, t0.Reannounced)
	}
	rep.SentByKind = sent
	rep.TxAdverts = adverts
	if rep.WindowSeconds > 0 {
		rep.TxAdvertsPerSecond = float64(adverts) / rep.WindowSeconds
	}
	if rep.Included > 0 {
		n, inc := float64(len(w.nodes)), float64(rep.Included)
		rep.PerTxPerNode = map[string]Rate{}
		rep.TxAdvertsPerTx = float64(adverts) / inc
		for _, k := range kinds {
			c := sent[k]
			rep.PerTxPerNode[k] = Rate{Messages: float64(c.Messages) / inc / n, Bytes: float64(c.Bytes) / inc / n}
		}
	}
}

func sub(a, b uint64) uint64 {
	if a < b { // the node restarted: its counters began again
		return a
	}
	return a - b
}

// blockPropagation fills the time from the first node having a block to
// 2/3 of the nodes and to every node having it, over the blocks of the
// load window that every node recorded.
func (w *world) blockPropagation(rep *Report) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var all, twoThirds []float64
	for _, ts := range w.m.blockAt {
		slices.SortFunc(ts, func(a, b time.Time) int { return a.Compare(b) })
		if len(ts) < len(w.nodes) || ts[0].Before(w.m.loadStart) {
			continue
		}
		all = append(all, ms(ts[len(ts)-1].Sub(ts[0])))
		twoThirds = append(twoThirds, ms(ts[quorumIndex(len(ts))].Sub(ts[0])))
	}
	rep.BlockPropagationMs = percentiles(all)
	rep.BlockPropagationTwoThirdsMs = percentiles(twoThirds)
}

// quorumIndex is the index of the arrival that makes 2/3 of n.
func quorumIndex(n int) int { return max((2*n+2)/3-1, 0) }

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// percentiles sorts ds and returns its 50th, 90th, 99th percentile and
// maximum (zeros when empty).
func percentiles(ds []float64) [4]float64 {
	if len(ds) == 0 {
		return [4]float64{}
	}
	slices.Sort(ds)
	pct := func(p float64) float64 { return ds[min(len(ds)-1, int(p*float64(len(ds))))] }
	return [4]float64{pct(0.5), pct(0.9), pct(0.99), ds[len(ds)-1]}
}

// viewChanges counts, over node 0's blocks 1..top, the blocks not made
// in view 0 and the sum of their views: in dBFT the primary of view v at
// height h is (h - v) mod validators, so a block's PrimaryIndex gives its
// view modulo the validator count.
func (w *world) viewChanges(rep *Report, top uint32) {
	c0 := w.nodes[0].n.Chain()
	v := uint32(w.cfg.Validators)
	for i := uint32(1); i <= top; i++ {
		b, err := c0.GetBlockByIndex(i)
		if err != nil {
			continue
		}
		if view := (i%v + v - uint32(b.PrimaryIndex)%v) % v; view > 0 {
			rep.ViewChangedBlocks++
			rep.ViewChanges += int(view)
		}
	}
}
