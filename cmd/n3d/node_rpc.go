package main

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/prometheus/client_golang/prometheus"
)

// startRPC starts the JSON-RPC server over c when the RPC section enables
// it. natives must be the set c was opened with (Policy keeps caches that
// only the chain's own set keeps current). The returned stop cancels the
// server and waits for it (call it before closing the chain).
func (n *node) startRPC(ctx context.Context, c *chain.Chain, natives chain.Natives) (stop func() error, err error) {
	rpcCfg := n.cfg.ApplicationConfiguration.RPC
	if !rpcCfg.Enabled {
		return func() error { return nil }, nil
	}
	ns, ok := natives.(*chain.NativeSet)
	if !ok {
		return nil, fmt.Errorf("rpc: native set %T is not the chain's *chain.NativeSet", natives)
	}
	srv, err := server.New(server.Config{
		RPC:        rpcCfg,
		Ledger:     n.cfg.ApplicationConfiguration.Ledger,
		TCPPort:    p2pPort(n.cfg.ApplicationConfiguration.P2P),
		Log:        n.log.Named("rpc"),
		Registerer: prometheus.DefaultRegisterer,
	}, c, server.NewNatives(ns))
	if err != nil {
		return nil, fmt.Errorf("rpc: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	wait, err := srv.Start(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	return func() error {
		cancel()
		return wait()
	}, nil
}

// p2pPort is the first P2P listening port, what getversion reports as the
// node's TCP port (0 when none).
func p2pPort(p config.P2P) uint16 {
	addrs, err := p.ListenAddresses()
	if err != nil || len(addrs) == 0 {
		return 0
	}
	if addrs[0].AnnouncedPort != 0 {
		return addrs[0].AnnouncedPort
	}
	_, port, err := net.SplitHostPort(addrs[0].Address)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseUint(port, 10, 16)
	if err != nil {
		return 0
	}
	return uint16(v)
}
