package sim

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand"
	"net/netip"
	"runtime"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/memnet"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

const p2pPort = 20333

// simNode is one node of the run with its pool-arrival record.
type simNode struct {
	n      *node.Node
	sub    *mempool.Subscription
	blocks *chain.Subscription // block arrivals (measure.go)
}

// world is the state of one run.
type world struct {
	cfg   Config
	mem   *memnet.Network
	nodes []*simNode
	keys  []*keys.PrivateKey
	rng   *rand.Rand

	mu      sync.Mutex
	arrived map[util.Uint256][]time.Time // pool arrival per node, in order
	dropped int                          // slow pool subscribers
	wg      sync.WaitGroup

	fs faultState // faults, topology, kept stores (faultrun.go)
	m  measure    // gossip figures (measure.go)
}

// Run builds the network of cfg, runs its load, checks the invariants and
// stops every node. The error is for a run that could not be made; broken
// invariants are in Report.Violations.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.setDefaults(); err != nil {
		return nil, err
	}
	base := runtime.NumGoroutine()
	start := time.Now()
	w := &world{cfg: cfg, rng: newRand(cfg.Seed), arrived: map[util.Uint256][]time.Time{}}
	w.mem = memnet.New(memnet.Config{Seed: uint64(cfg.Seed)})
	w.mem.SetDefaultLink(w.baseLink())
	rep := &Report{Nodes: cfg.Nodes, Validators: cfg.Validators, Degree: cfg.Degree, Seed: cfg.Seed,
		TxRate: cfg.TxRate, Duration: cfg.Duration.String()}
	err := w.start(ctx)
	if err == nil {
		rep.StartSeconds = time.Since(start).Seconds()
		err = w.drive(ctx, rep)
	}
	w.stop()
	w.mem.Close()
	w.cleanupFaults()
	if err != nil {
		return nil, err
	}
	w.faultReport(rep)
	rep.Goroutines = [2]int{base, waitGoroutines(base)}
	if rep.Goroutines[1] > base+goroutineSlack {
		rep.Violations = append(rep.Violations, fmt.Sprintf("goroutine leak: %d before, %d after",
			base, rep.Goroutines[1]))
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rep.HeapMB = float64(ms.HeapAlloc) / (1 << 20)
	rep.WallSeconds = time.Since(start).Seconds()
	return rep, nil
}

// goroutineSlack tolerates runtime goroutines (finalizers, timers of the
// HTTP package) that are not the nodes'.
const goroutineSlack = 2

func waitGoroutines(base int) int {
	deadline := time.Now().Add(10 * time.Second)
	for {
		n := runtime.NumGoroutine()
		if n <= base+goroutineSlack || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// validatorKeys derives n keys from the seed.
func validatorKeys(seed int64, n int) ([]*keys.PrivateKey, error) {
	ks := make([]*keys.PrivateKey, n)
	for i := range ks {
		var b [16]byte
		binary.BigEndian.PutUint64(b[:], uint64(seed))
		binary.BigEndian.PutUint64(b[8:], uint64(i))
		sum := sha256.Sum256(append([]byte("n3d sim validator"), b[:]...))
		k, err := keys.NewPrivateKeyFromBytes(sum[:])
		if err != nil {
			return nil, fmt.Errorf("sim: key %d: %w", i, err)
		}
		ks[i] = k
	}
	return ks, nil
}

// nodeConfig is node i's configuration: the privnet with the generated
// committee, an in-memory store, seeds its neighbours.
func (w *world) nodeConfig(i int, neigh []int) (config.Config, error) {
	data, ok := config.Embedded(config.NetPrivNet)
	if !ok {
		return config.Config{}, errors.New("sim: no embedded privnet configuration")
	}
	cfg, err := config.Parse(data, "")
	if err != nil {
		return config.Config{}, fmt.Errorf("sim: privnet configuration: %w", err)
	}
	p, a := &cfg.ProtocolConfiguration, &cfg.ApplicationConfiguration
	p.StandbyCommittee = p.StandbyCommittee[:0]
	for _, k := range w.keys {
		p.StandbyCommittee = append(p.StandbyCommittee, hex.EncodeToString(k.PublicKey().Bytes()))
	}
	p.ValidatorsCount = uint32(len(w.keys))
	p.TimePerBlock, p.Genesis.TimePerBlock, p.MaxTimePerBlock = w.cfg.BlockTime, w.cfg.BlockTime, 0
	p.SeedList = p.SeedList[:0]
	for _, j := range neigh {
		p.SeedList = append(p.SeedList, netip.AddrPortFrom(hostIP(j), p2pPort).String())
	}
	a.DBConfiguration = config.DBConfiguration{Type: config.DBInMemory}
	a.P2P.Addresses = []string{netip.AddrPortFrom(hostIP(i), p2pPort).String()}
	a.P2P.MinPeers = min(len(neigh), 3)
	a.P2P.AttemptConnPeers = len(neigh)
	a.P2P.MaxPeers = max(len(neigh)+8, 20)
	a.P2P.ProtoTickInterval = 200 * time.Millisecond
	a.RPC.Enabled, a.Prometheus.Enabled, a.Pprof.Enabled = false, false, false
	a.Consensus.Enabled = i < w.cfg.Validators
	w.cfg.applyPolicy(&cfg)
	return cfg, nil
}

// start builds and starts every node but the late joiners.
func (w *world) start(ctx context.Context) error {
	ks, err := validatorKeys(w.cfg.Seed, w.cfg.Validators)
	if err != nil {
		return err
	}
	w.keys = ks
	if err := w.setupFaults(); err != nil {
		return err
	}
	for i := range w.cfg.Nodes - w.cfg.lateJoiners() {
		sn := &simNode{}
		w.mu.Lock()
		w.nodes = append(w.nodes, sn)
		w.mu.Unlock()
		if err := w.startNode(ctx, i, sn); err != nil {
			return err
		}
	}
	return nil
}

// startNode builds node i and starts it as sn's node (a restart replaces
// the stopped one).
func (w *world) startNode(ctx context.Context, i int, sn *simNode) error {
	cfg, err := w.nodeConfig(i, w.fs.topo[i])
	if err != nil {
		return err
	}
	opts := []node.Option{node.WithLogger(w.cfg.Log.Named(fmt.Sprintf("n%d", i))),
		node.WithTransport(w.mem.Host(hostIP(i))), w.cfg.policyOption()}
	if i < w.cfg.Validators {
		opts = append(opts, node.WithConsensusKeys(w.keys[i]))
	}
	cfg, opts = w.faultNode(i, cfg, opts)
	n, err := node.New(cfg, opts...)
	if err != nil {
		return fmt.Errorf("sim: node %d: %w", i, err)
	}
	if err := n.Start(ctx); err != nil {
		return errors.Join(fmt.Errorf("sim: start node %d: %w", i, err), n.Stop())
	}
	sub := n.Pool().Subscribe(1 << 12)
	w.mu.Lock()
	sn.n, sn.sub = n, sub
	w.mu.Unlock()
	w.wg.Add(1)
	go w.record(sub)
	w.watchBlocks(sn)
	return nil
}

// record notes when each transaction reached the node's pool.
func (w *world) record(sub *mempool.Subscription) {
	defer w.wg.Done()
	for ev := range sub.C {
		if ev.Kind != mempool.TransactionAdded {
			continue
		}
		now := time.Now()
		w.mu.Lock()
		h := ev.Tx.Hash()
		w.arrived[h] = append(w.arrived[h], now)
		w.mu.Unlock()
	}
	if sub.Err() != nil {
		w.mu.Lock()
		w.dropped++
		w.mu.Unlock()
	}
}

// stop stops every started node, last first, and the recorders.
func (w *world) stop() {
	for i := len(w.nodes) - 1; i >= 0; i-- {
		sn := w.nodes[i]
		if sn.n == nil { // a late joiner that never started
			continue
		}
		if sn.sub != nil {
			sn.sub.Close()
		}
		if sn.blocks != nil {
			sn.blocks.Close()
		}
		if err := sn.n.Stop(); err != nil {
			w.cfg.Log.Warn("node stop", zap.Int("node", i), zap.Error(err))
		}
	}
	w.wg.Wait()
}
