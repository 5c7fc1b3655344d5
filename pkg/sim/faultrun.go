package sim

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/network/memnet"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/n3d-io/n3d/pkg/storage"
	"go.uber.org/zap"
)

// faultState is what the faults of a run need beside the nodes. Its maps
// are set up before the nodes start and read-only afterwards; down is
// guarded by world.mu.
type faultState struct {
	topo [][]int
	// kept are the stores of the nodes that crash: they outlive the
	// node, so the restarted node opens the same chain.
	kept map[int]*keptStore
	dir  string       // sign logs and saved pools of the nodes that crash
	down map[int]bool // crashed, not yet back

	joinMu sync.Mutex // join faults start their nodes one at a time

	errMu  sync.Mutex
	errs   []string // faults that could not be applied or undone
	events []string // what happened when, for the report's log
}

// keptStore is an in-memory store that survives its node: Close does not
// drop the contents, and while frozen (from a crash until the restart)
// every write is dropped, so the store keeps what the node had written
// when it "died" and nothing its shutdown wrote after that.
type keptStore struct {
	storage.Store
	frozen atomic.Bool
}

func (s *keptStore) Put(k, v []byte) error {
	if s.frozen.Load() {
		return nil
	}
	return s.Store.Put(k, v)
}

func (s *keptStore) Delete(k []byte) error {
	if s.frozen.Load() {
		return nil
	}
	return s.Store.Delete(k)
}

func (s *keptStore) PutChangeSet(puts map[string][]byte, dels map[string]struct{}) error {
	if s.frozen.Load() {
		return nil
	}
	return s.Store.PutChangeSet(puts, dels)
}

// Close keeps the contents for the next node on the store.
func (s *keptStore) Close() error { return nil }

// setupFaults draws the topology and prepares the stores and the
// directory of the nodes that will crash.
func (w *world) setupFaults() error {
	fs := &w.fs
	fs.topo = graph(w.cfg, w.rng)
	fs.kept, fs.down = map[int]*keptStore{}, map[int]bool{}
	for _, f := range w.cfg.Faults {
		if f.Kind != FaultCrash && f.Kind != FaultValidatorDown {
			continue
		}
		for _, i := range f.Nodes {
			if fs.kept[i] == nil {
				fs.kept[i] = &keptStore{Store: storage.NewMemoryStore()}
			}
		}
	}
	if len(fs.kept) > 0 {
		dir, err := os.MkdirTemp("", "n3d-sim-")
		if err != nil {
			return fmt.Errorf("sim: sign log directory: %w", err)
		}
		fs.dir = dir
	}
	return nil
}

// cleanupFaults closes the kept stores and removes the directory.
func (w *world) cleanupFaults() {
	for _, st := range w.fs.kept {
		_ = st.Store.Close() // the last node on it is stopped
	}
	if w.fs.dir != "" {
		if err := os.RemoveAll(w.fs.dir); err != nil {
			w.cfg.Log.Warn("sim: removing the sign log directory", zap.Error(err))
		}
	}
}

// faultNode adapts node i's configuration and options: a node that will
// crash gets its kept store and a sign log and saved pool in the run's
// directory (the database section names them; the store replaces the
// database itself); the planted disagreement changes one node's genesis.
func (w *world) faultNode(i int, cfg config.Config, opts []node.Option) (config.Config, []node.Option) {
	if st := w.fs.kept[i]; st != nil {
		cfg.ApplicationConfiguration.DBConfiguration = config.DBConfiguration{Type: config.DBLevelDB,
			LevelDBOptions: config.LevelDBOptions{DataDirectoryPath: filepath.Join(w.fs.dir, fmt.Sprintf("node%d", i))}}
		opts = append(opts, node.WithStore(st))
	}
	if w.cfg.plantRootDiff == i+1 {
		// More genesis GAS on this node only: same blocks, other state.
		cfg.ProtocolConfiguration.InitialGASSupply++
	}
	return cfg, opts
}

// liveNode is the node the load sends a transaction to: node i, or when
// it is down or not there yet the next live one among nodes first..Nodes-1
// (then any live node); nil when none is up.
func (w *world) liveNode(first, i int) (*node.Node, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, span := w.cfg.Nodes, w.cfg.Nodes-first
	for k := range n {
		j := first + (i-first+k)%span // the relays from i on, then the validators
		if k >= span {
			j = k - span
		}
		if j < len(w.nodes) && !w.fs.down[j] && w.nodes[j].n != nil {
			return w.nodes[j].n, j
		}
	}
	return nil, -1
}

// faultNote records a fault event (and logs it).
func (w *world) faultNote(failed bool, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	w.fs.errMu.Lock()
	if failed {
		w.fs.errs = append(w.fs.errs, msg)
	}
	w.fs.events = append(w.fs.events, msg)
	w.fs.errMu.Unlock()
	w.cfg.Log.Info("sim fault", zap.String("event", msg), zap.Bool("failed", failed))
}

// runFaults applies each fault at its time from t0 and undoes it after
// its duration, in goroutines of its own; the returned wait blocks until
// every fault has ended (at once when ctx ends: the faults are then
// undone early so the nodes can be stopped).
func (w *world) runFaults(ctx context.Context, t0 time.Time) (wait func()) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for _, f := range w.cfg.Faults {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.runFault(ctx, t0, f)
		}()
	}
	return func() {
		wg.Wait()
		cancel()
	}
}

// sleepUntil waits until t or the end of ctx; false when ctx ended first.
func sleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

func (w *world) runFault(ctx context.Context, t0 time.Time, f Fault) {
	if !sleepUntil(ctx, t0.Add(f.At)) {
		return
	}
	since := func() string { return time.Since(t0).Round(10 * time.Millisecond).String() }
	began := since() // a crash's stop takes a while; the crash is now
	switch f.Kind {
	case FaultJoin:
		w.catchUp(ctx, f, w.join(ctx, f, since), since)
		return
	case FaultCrash, FaultValidatorDown:
		for _, i := range f.Nodes {
			w.crash(i)
		}
	case FaultPartition:
		w.mem.Partition(w.hosts(f.Nodes), w.hosts(w.others(f.Nodes)), true)
	case FaultSlow:
		for _, i := range f.Nodes {
			w.mem.PauseReads(hostIP(i), true)
		}
	case FaultLoss:
		l := w.baseLink()
		l.Loss = f.Loss
		w.mem.SetDefaultLink(l)
	}
	w.faultNote(false, "%s: %s begins", began, f)
	sleepUntil(ctx, t0.Add(f.At+f.For)) // undone early when the run is cancelled
	switch f.Kind {
	case FaultCrash, FaultValidatorDown:
		for _, i := range f.Nodes {
			if w.cfg.plantNoRestart {
				continue
			}
			if err := w.restart(ctx, i); err != nil {
				w.faultNote(true, "%s: %s: restart of node %d: %v", since(), f, i, err)
			}
		}
	case FaultPartition:
		w.mem.Partition(w.hosts(f.Nodes), w.hosts(w.others(f.Nodes)), false)
	case FaultSlow:
		for _, i := range f.Nodes {
			w.mem.PauseReads(hostIP(i), false)
		}
	case FaultLoss:
		w.mem.SetDefaultLink(w.baseLink())
	}
	w.faultNote(false, "%s: %s ends", since(), f) // a crash: once the node is back
	if f.Kind != FaultLoss {
		w.catchUp(ctx, f, f.Nodes, since)
	}
}

// catchUp waits (at most Config.Settle) until the nodes is reach the highest
// height a live node had when it was called, and notes how long that
// took: the time a crashed, cut off, slow or new node needs to sync. The
// verdict on a node that stays behind is the run's (Report.Violations).
func (w *world) catchUp(ctx context.Context, f Fault, is []int, since func() string) {
	if len(is) == 0 {
		return
	}
	target := w.liveHeight(nil)
	start := time.Now()
	for {
		if w.liveHeight(is) >= target {
			w.faultNote(false, "%s: %s: nodes %v at height %d %.2fs after", since(), f, is, target,
				time.Since(start).Seconds())
			return
		}
		if time.Since(start) > w.cfg.Settle || !sleepUntil(ctx, time.Now().Add(50*time.Millisecond)) {
			w.faultNote(false, "%s: %s: nodes %v not at height %d", since(), f, is, target)
			return
		}
	}
}

// liveHeight is the lowest height of nodes is (0 when one is down), or
// with is nil the highest height of every live node.
func (w *world) liveHeight(is []int) uint32 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if is == nil {
		var h uint32
		for j, sn := range w.nodes {
			if sn.n != nil && !w.fs.down[j] {
				h = max(h, sn.n.Chain().BlockHeight())
			}
		}
		return h
	}
	h := ^uint32(0)
	for _, j := range is {
		if j >= len(w.nodes) || w.nodes[j].n == nil || w.fs.down[j] {
			return 0
		}
		h = min(h, w.nodes[j].n.Chain().BlockHeight())
	}
	return h
}

// baseLink is the configured link of every pair.
func (w *world) baseLink() memnet.Link {
	return memnet.Link{Latency: w.cfg.Latency, Jitter: w.cfg.Jitter, Loss: w.cfg.Loss, Bandwidth: w.cfg.Bandwidth}
}

func (w *world) hosts(is []int) []netip.Addr {
	out := make([]netip.Addr, len(is))
	for k, i := range is {
		out[k] = hostIP(i)
	}
	return out
}

// others are the nodes not in is.
func (w *world) others(is []int) []int {
	var out []int
	for i := range w.cfg.Nodes {
		if !slices.Contains(is, i) {
			out = append(out, i)
		}
	}
	return out
}

// crash freezes node i's store and stops the node.
func (w *world) crash(i int) {
	w.mu.Lock()
	n, sub := w.nodes[i].n, w.nodes[i].sub
	w.fs.down[i] = true
	w.mu.Unlock()
	w.fs.kept[i].frozen.Store(true)
	sub.Close()
	if err := n.Stop(); err != nil {
		// A frozen store makes the final writes vanish, not fail; an
		// error here is the node's own.
		w.cfg.Log.Warn("sim: crashed node stop", zap.Int("node", i), zap.Error(err))
	}
}

// restart starts node i again on its kept store.
func (w *world) restart(ctx context.Context, i int) error {
	w.fs.kept[i].frozen.Store(false)
	w.mu.Lock()
	sn := w.nodes[i]
	w.mu.Unlock()
	if err := w.startNode(ctx, i, sn); err != nil {
		return err
	}
	w.mu.Lock()
	delete(w.fs.down, i)
	w.mu.Unlock()
	return nil
}

// join starts the late nodes, in index order, and returns those started.
func (w *world) join(ctx context.Context, f Fault, since func() string) []int {
	w.fs.joinMu.Lock() // two join faults: one at a time, in index order
	defer w.fs.joinMu.Unlock()
	var started []int
	for range f.Count {
		w.mu.Lock()
		i := len(w.nodes)
		sn := &simNode{}
		w.nodes = append(w.nodes, sn)
		w.mu.Unlock()
		if err := w.startNode(ctx, i, sn); err != nil {
			w.faultNote(true, "%s: %s: node %d: %v", since(), f, i, err)
			continue
		}
		started = append(started, i)
		w.faultNote(false, "%s: %s: node %d started at height 0", since(), f, i)
	}
	return started
}

// faultReport adds the fault events and failures to the report.
func (w *world) faultReport(rep *Report) {
	w.fs.errMu.Lock()
	defer w.fs.errMu.Unlock()
	rep.Topology = w.cfg.Topology
	if rep.Topology == "" {
		rep.Topology = TopologyRandom
	}
	if (rep.Topology == TopologyRandom || rep.Topology == TopologySmallWorld) &&
		(w.cfg.Degree <= 0 || w.cfg.Degree >= w.cfg.Nodes-1) {
		rep.Topology = TopologyFull // what graph drew
	}
	for _, f := range w.cfg.Faults {
		rep.Faults = append(rep.Faults, f.String())
	}
	rep.FaultEvents = append(rep.FaultEvents, w.fs.events...)
	// In time order: a begin is noted once applied (a crash after its
	// stop), with the time it was applied from.
	slices.SortStableFunc(rep.FaultEvents, func(a, b string) int { return cmp.Compare(eventTime(a), eventTime(b)) })
	for _, e := range w.fs.errs {
		rep.Violations = append(rep.Violations, "fault: "+e)
	}
}

// writeFaults writes the topology and the fault events of the text
// summary.
func (r *Report) writeFaults(w io.Writer) error {
	if r.Topology != "" {
		if _, err := fmt.Fprintln(w, "topology", r.Topology); err != nil {
			return err
		}
	}
	for _, e := range r.FaultEvents {
		if _, err := fmt.Fprintln(w, "fault", e); err != nil {
			return err
		}
	}
	return nil
}

// eventTime is the time a fault event begins with ("1.5s: ...").
func eventTime(e string) time.Duration {
	t, _, _ := strings.Cut(e, ":")
	d, err := time.ParseDuration(t)
	if err != nil {
		return 0
	}
	return d
}
