package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"

	"github.com/n3d-io/n3d/pkg/consensus"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"go.uber.org/zap"
)

// services are the parts of a running node around its chain. Fields of
// disabled services are nil.
type services struct {
	chain   *chain.Chain
	natives *chain.NativeSet
	pool    *mempool.Pool
	pipe    *txpipe.Pipeline
	p2p     atomic.Pointer[network.Server] // set once the server runs
	rpc     *server.Server
	cons    *consensus.Service
	monitor []net.Addr // Prometheus and pprof listeners
}

// stage is a started service and the function that stops it (cancels its
// goroutines and waits for them).
type stage struct {
	name string
	stop func() error
}

// stages stops the started services in the reverse order of their start.
type stages struct {
	log  *zap.Logger
	list []stage
}

func (s *stages) add(name string, stop func() error) {
	s.list = append(s.list, stage{name: name, stop: stop})
}

// stopAll stops every stage, last started first, and joins their errors.
func (s *stages) stopAll() error {
	var errs []error
	for i := len(s.list) - 1; i >= 0; i-- {
		st := s.list[i]
		if err := st.stop(); err != nil {
			s.log.Error("service stopped with an error", zap.String("service", st.name), zap.Error(err))
			errs = append(errs, fmt.Errorf("%s: %w", st.name, err))
			continue
		}
		s.log.Info("service stopped", zap.String("service", st.name))
	}
	s.list = nil
	return errors.Join(errs...)
}

// group runs a stage's goroutines under one cancellable context.
type group struct {
	ctx    context.Context
	cancel context.CancelFunc
	log    *zap.Logger
	wg     sync.WaitGroup
	mu     sync.Mutex
	err    error // the first goroutine failure
}

func newGroup(parent context.Context, log *zap.Logger) *group {
	ctx, cancel := context.WithCancel(parent)
	return &group{ctx: ctx, cancel: cancel, log: log}
}

// goRun runs f; an error other than a cancellation is logged at once and
// kept for stop.
func (g *group) goRun(f func(ctx context.Context) error) {
	g.wg.Go(func() {
		if err := f(g.ctx); err != nil && !errors.Is(err, context.Canceled) {
			g.log.Error("service goroutine failed", zap.Error(err))
			g.mu.Lock()
			if g.err == nil {
				g.err = err
			}
			g.mu.Unlock()
		}
	})
}

// stop cancels the goroutines, waits for them and returns the first
// failure.
func (g *group) stop() error {
	g.cancel()
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}

// startServices starts, in dependency order, the monitoring listeners,
// the mempool and its ingress pipeline, the P2P server, the RPC server and
// the consensus service, and records each in st (stopped in reverse
// order: consensus, RPC, P2P, pipeline, monitoring; the caller closes the
// chain last).
func (n *node) startServices(ctx context.Context, c *chain.Chain, consKeys []*keys.PrivateKey, st *stages) (*services, error) {
	ns, ok := c.Natives().(*chain.NativeSet)
	if !ok {
		return nil, fmt.Errorf("chain: native set %T is not a *chain.NativeSet", c.Natives())
	}
	svc := &services{chain: c, natives: ns}
	stopMon, monAddrs, err := n.startMonitoring(ctx)
	if err != nil {
		return nil, err
	}
	st.add("monitor", stopMon)
	svc.monitor = monAddrs
	stopPool, err := n.startMempool(ctx, svc)
	if err != nil {
		return nil, err
	}
	st.add("mempool", stopPool)
	if n.cfg.ApplicationConfiguration.Consensus.Enabled {
		// Built before the P2P server (which hands it payloads), run after
		// it and the RPC server.
		if svc.cons, err = n.newConsensus(svc, consKeys); err != nil {
			return nil, err
		}
	}
	stopNet, err := n.startNetwork(ctx, svc)
	if err != nil {
		return nil, err
	}
	st.add("p2p", stopNet)
	stopRPC, err := n.startRPC(ctx, svc)
	if err != nil {
		return nil, err
	}
	st.add("rpc", stopRPC)
	if svc.cons != nil {
		stopCons, err := n.startConsensus(ctx, svc)
		if err != nil {
			return nil, err
		}
		st.add("consensus", stopCons)
	}
	return svc, nil
}
