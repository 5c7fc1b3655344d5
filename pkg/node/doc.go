/*
Package node builds and runs a whole n3d node from a configuration and
injected dependencies: the chain, the memory pool and its ingress pipeline,
the P2P server, the JSON-RPC server, the dBFT service, the state-root,
oracle and notary services (with the P2P notary request pool on networks
with P2PSigExtensions) and the monitoring listeners. It is the one place where the services are wired to each other
(layer L5 of docs/architecture.md); each service only knows the small
interfaces and func fields of its own Config.

	n, err := node.New(cfg, node.WithLogger(log))   // opens the chain
	err = n.Run(ctx)                                // starts, waits for ctx, stops

or, for a program that wants the node beside other work:

	err = n.Start(ctx)   // monitoring, mempool, P2P, oracle, notary, RPC, state root, consensus
	...                  // n.Chain(), n.Pool(), n.RPCAddrs(), n.P2PAddrs()...
	err = n.Stop()       // reverse order, then the chain is closed

Every goroutine of the node belongs to one service stage started by Start
and is waited for by Stop: after Stop returns, the node has no goroutine
left (see TestNodeStopsEveryGoroutine).

Many nodes can run in one process without sockets: WithTransport puts a
node's P2P server on an in-memory network (a memnet.Host of
pkg/network/memnet, listen addresses and seeds being that network's
"IP:port"), and WithClock gives the P2P server's timers a clock a test or
simulator can step (a *clock.Fake of pkg/clock); see
TestFourValidatorsOverP2P.

cmd/n3d keeps only the command line around it: flags, configuration files,
the logger and the signals (SIGINT/SIGTERM stop, SIGHUP reload).

# Adding a service

A new service (for example a state-root or oracle service) lives in its own
package under pkg/services/ (layer L4: it may import pkg/core and below,
never pkg/network, pkg/rpc, another service or pkg/node) with its own small
Config: plain settings plus func fields or small interfaces for what it
needs of the chain, the pool or the network, declared in its package. It
offers New(Config) and Start/Stop or Run(ctx). To wire it here:

 1. in a file of its own (for example stateroot.go), write
    (n *Node) xxxConfig() mapping the configuration section
    (config.Config) and the node's parts (n.chain, n.pool, n.p2p.Load) onto
    that Config, with n.log.Named("xxx") and n.reg for metrics;
 2. in startServices, after the services it uses, build it and add its
    stop with n.st.add("xxx", stop), running its goroutines in a
    newGroup(ctx, log) so Stop waits for them; Stop then stops it before
    the services it depends on;
 3. if it takes extensible payloads of its own category, add its rule to
    the handlers map in extensibleHandler (network.go;
    network.ExtensibleAdmission checks every payload's height, sender and
    witness first and relays valid payloads of categories nobody handles;
    a handler reports a misbehaving sender by wrapping
    network.ErrInvalidExtensible);
 4. add an accessor if a test or an embedding program needs it, and the
    package to the layer table (internal/layers, docs/architecture.md).
*/
package node
