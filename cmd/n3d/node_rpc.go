package main

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/prometheus/client_golang/prometheus"
)

// startRPC starts the JSON-RPC server over the chain when the RPC section
// enables it: reads use the chain's own native set (Policy keeps caches
// only that set keeps current), sendrawtransaction goes through the
// ingress pipeline, submitblock to the chain, getrawmempool reads the
// pool, getpeers the P2P server; WebSocket subscriptions follow the chain's
// and the pool's events. The returned stop cancels the server and
// waits for it (call it before closing the chain).
func (n *node) startRPC(ctx context.Context, svc *services) (stop func() error, err error) {
	rpcCfg := n.cfg.ApplicationConfiguration.RPC
	if !rpcCfg.Enabled {
		return func() error { return nil }, nil
	}
	var nonce uint32 // getversion reports the P2P server's nonce
	if p := svc.p2p.Load(); p != nil {
		nonce = p.Nonce()
	}
	srv, err := server.New(server.Config{
		RPC:         rpcCfg,
		Nonce:       nonce,
		Ledger:      n.cfg.ApplicationConfiguration.Ledger,
		TCPPort:     p2pPort(n.cfg.ApplicationConfiguration.P2P),
		Log:         n.log.Named("rpc"),
		Registerer:  prometheus.DefaultRegisterer,
		SubmitTx:    svc.pipe.SubmitWait,
		SubmitBlock: svc.chain.AddBlock,
		Mempool:     svc.pool,
		Peers:       peerList{svc},
		ChainEvents: svc.chain,
		PoolEvents:  svc.pool,
	}, svc.chain, server.NewNatives(svc.natives))
	if err != nil {
		return nil, fmt.Errorf("rpc: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	wait, err := srv.Start(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	svc.rpc = srv
	return func() error {
		cancel()
		return wait()
	}, nil
}

// peerList is the P2P server as getconnectioncount and getpeers read it.
type peerList struct{ svc *services }

func (p peerList) ConnectionCount() int {
	srv := p.svc.p2p.Load()
	if srv == nil {
		return 0
	}
	n, _ := srv.PeerCount()
	return n
}

func (p peerList) PeerList() result.Peers {
	var out result.Peers
	srv := p.svc.p2p.Load()
	if srv == nil {
		return out
	}
	for _, pi := range srv.ConnectedPeers() {
		host := pi.Address
		if h, _, err := net.SplitHostPort(pi.Address); err == nil {
			host = h
		}
		out.Connected = append(out.Connected, result.Peer{Address: host, Port: pi.Port,
			UserAgent: pi.UserAgent, LastKnownHeight: pi.Height})
	}
	out.Unconnected = hostPorts(srv.UnconnectedPeers())
	out.Bad = hostPorts(srv.BadPeers())
	return out
}

// hostPorts splits "host:port" addresses into getpeers entries (an
// address without a valid port is listed with port 0).
func hostPorts(addrs []string) []result.Peer {
	out := make([]result.Peer, 0, len(addrs))
	for _, a := range addrs {
		host, port, err := net.SplitHostPort(a)
		if err != nil {
			out = append(out, result.Peer{Address: a})
			continue
		}
		v, _ := strconv.ParseUint(port, 10, 16)
		out = append(out, result.Peer{Address: host, Port: uint16(v)})
	}
	return out
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
