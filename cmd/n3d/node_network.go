package main

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/n3d-io/n3d/pkg/buildinfo"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/blockqueue"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/network"
	"go.uber.org/zap"
)

// networkConfig maps the P2P section and the protocol's seeds onto the
// server's configuration.
func networkConfig(cfg config.Config) (network.Config, error) {
	p2p := cfg.ApplicationConfiguration.P2P
	addrs, err := p2p.ListenAddresses()
	if err != nil {
		return network.Config{}, err
	}
	listen := make([]network.ListenAddress, len(addrs))
	for i, a := range addrs {
		listen[i] = network.ListenAddress{Address: a.Address, AnnouncedPort: a.AnnouncedPort}
	}
	p := cfg.ProtocolConfiguration
	return network.Config{
		Magic:                  uint32(p.Magic),
		Listen:                 listen,
		Seeds:                  p.SeedList,
		TimePerBlock:           p.TimePerBlock,
		DialTimeout:            p2p.DialTimeout,
		ProtoTickInterval:      p2p.ProtoTickInterval,
		PingInterval:           p2p.PingInterval,
		PingTimeout:            p2p.PingTimeout,
		MinPeers:               p2p.MinPeers,
		MaxPeers:               p2p.MaxPeers,
		AttemptConnPeers:       p2p.AttemptConnPeers,
		BroadcastFactor:        p2p.BroadcastFactor,
		BroadcastTxsBatchDelay: p2p.BroadcastTxsBatchDelay,
		DisableCompression:     p2p.DisableCompression,
		ExtensibleCache:        p2p.ExtensiblePoolSize,
		UserAgent:              buildinfo.UserAgent(),
	}, nil
}

// startNetwork starts the block queue feeding c, the P2P server and the
// relay of new blocks. The returned stop cancels them and waits until all
// have returned (call it before closing the chain).
func (n *node) startNetwork(ctx context.Context, c *chain.Chain) (stop func() error, err error) {
	cfg, err := networkConfig(n.cfg)
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	log := n.log.Named("p2p")
	q, err := blockqueue.New(blockqueue.Config{Ledger: c, Log: log})
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	cfg.Ledger, cfg.Blocks, cfg.Log = c, q, log
	// Transactions and extensible payloads from peers are not taken until
	// the mempool and consensus services are wired (OnTransaction and
	// OnExtensible stay nil: they are neither requested nor accepted).
	srv, err := network.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("p2p: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	sub := c.Subscribe(chain.EventBlock, 0)
	var (
		wg      sync.WaitGroup
		runErr  error
		runDone = make(chan struct{})
	)
	wg.Add(3)
	go func() {
		defer wg.Done()
		if err := q.Run(ctx); err != nil && !errors.Is(err, context.Canceled) {
			log.Error("block queue stopped", zap.Error(err))
		}
	}()
	go func() {
		defer wg.Done()
		defer close(runDone)
		if runErr = srv.Run(ctx); runErr != nil {
			log.Error("P2P server failed", zap.Error(runErr))
		}
	}()
	go func() {
		defer wg.Done()
		for ev := range sub.C {
			srv.RelayBlock(ev.Block)
		}
	}()
	stop = func() error {
		cancel()
		sub.Close()
		wg.Wait()
		if runErr != nil {
			return fmt.Errorf("p2p: %w", runErr)
		}
		return nil
	}
	select {
	case <-srv.Ready():
		return stop, nil
	case <-runDone:
		return nil, stop()
	}
}
