package node

import (
	"context"
	"fmt"
	"net"
	"strconv"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/rpc/server"
)

// rpcConfig is the server's Config from the node's configuration and
// services: sendrawtransaction goes through the ingress pipeline,
// submitblock to the chain, getrawmempool reads the pool, getpeers the P2P
// server; WebSocket subscriptions follow the chain's and the pool's
// events.
func (n *Node) rpcConfig() server.Config {
	a := n.cfg.ApplicationConfiguration
	var nonce uint32 // getversion reports the P2P server's nonce
	if p := n.p2p.Load(); p != nil {
		nonce = p.Nonce()
	}
	c := RPCConfig(a.RPC, a.Ledger)
	c.Nonce = nonce
	c.TCPPort = p2pPort(a.P2P)
	c.Log = n.log.Named("rpc")
	c.Registerer = n.reg
	c.SubmitTx = n.SubmitTx // the saved pool written before the answer
	c.SubmitBlock = n.chain.AddBlock
	c.Mempool = n.pool
	c.Peers = peerList{n}
	c.ChainEvents = n.chain
	c.PoolEvents = n.pool
	c.Oracle = n.oracleHandler()
	c.Notary = n.notaryHandler()
	return c
}

// RPCConfig is the server's Config of the RPC and Ledger sections of an
// application configuration (the settings; the services are wired by
// the node).
func RPCConfig(r config.RPC, l config.Ledger) server.Config {
	return server.Config{
		Addresses: r.Addresses,
		TLS: server.TLSConfig{Enabled: r.TLSConfig.Enabled, Addresses: r.TLSConfig.Addresses,
			CertFile: r.TLSConfig.CertFile, KeyFile: r.TLSConfig.KeyFile},
		EnableCORSWorkaround:        r.EnableCORSWorkaround,
		MaxGasInvoke:                r.MaxGasInvoke,
		MaxIteratorResultItems:      r.MaxIteratorResultItems,
		MaxFindResultItems:          r.MaxFindResultItems,
		MaxFindStorageResultItems:   r.MaxFindStorageResultItems,
		MaxNEP11Tokens:              r.MaxNEP11Tokens,
		MaxRequestBodyBytes:         r.MaxRequestBodyBytes,
		MaxRequestHeaderBytes:       r.MaxRequestHeaderBytes,
		MaxWebSocketClients:         r.MaxWebSocketClients,
		MaxWebSocketFeeds:           r.MaxWebSocketFeeds,
		MempoolSubscriptionsEnabled: r.MempoolSubscriptionsEnabled,
		SessionEnabled:              r.SessionEnabled,
		SessionExpansionEnabled:     r.SessionExpansionEnabled,
		SessionLifetime:             r.SessionLifetime,
		SessionPoolSize:             r.SessionPoolSize,
		KeepOnlyLatestState:         l.KeepOnlyLatestState,
		RemoveUntraceableBlocks:     l.RemoveUntraceableBlocks,
	}
}

// startRPC starts the JSON-RPC server over the chain when the RPC section
// enables it (it reads the chain's state views). The returned stop cancels the server and
// waits for it (called before the chain is closed).
func (n *Node) startRPC(ctx context.Context) (stop func() error, err error) {
	if !n.cfg.ApplicationConfiguration.RPC.Enabled {
		return func() error { return nil }, nil
	}
	srv, err := server.New(n.rpcConfig(), n.chain)
	if err != nil {
		return nil, fmt.Errorf("rpc: %w", err)
	}
	ctx, cancel := context.WithCancel(ctx)
	wait, err := srv.Start(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	n.rpc = srv
	return func() error {
		cancel()
		return wait()
	}, nil
}

// peerList is the P2P server as getconnectioncount and getpeers read it.
type peerList struct{ n *Node }

func (p peerList) ConnectionCount() int { return p.n.PeerCount() }

func (p peerList) PeerList() result.Peers {
	var out result.Peers
	srv := p.n.p2p.Load()
	if srv == nil {
		return out
	}
	for _, pi := range srv.ConnectedPeers() {
		out.Connected = append(out.Connected, connectedPeer(pi))
	}
	out.Unconnected = hostPorts(srv.UnconnectedPeers())
	out.Bad = hostPorts(srv.BadPeers())
	return out
}

func connectedPeer(pi network.PeerInfo) result.Peer {
	host := pi.Address
	if h, _, err := net.SplitHostPort(pi.Address); err == nil {
		host = h
	}
	return result.Peer{Address: host, Port: pi.Port, UserAgent: pi.UserAgent, LastKnownHeight: pi.Height}
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
