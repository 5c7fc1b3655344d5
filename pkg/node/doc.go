/*
Package node builds and runs a whole n3d node from a configuration and
injected dependencies: the chain, the memory pool and its ingress pipeline,
the P2P server, the JSON-RPC server, the dBFT service and the monitoring
listeners. It is the one place where the services are wired to each other
(layer L5 of docs/architecture.md); each service only knows the small
interfaces and func fields of its own Config.

	n, err := node.New(cfg, node.WithLogger(log))   // opens the chain
	err = n.Run(ctx)                                // starts, waits for ctx, stops

or, for a program that wants the node beside other work:

	err = n.Start(ctx)   // monitoring, mempool, P2P, RPC, consensus
	...                  // n.Chain(), n.Pool(), n.RPCAddrs(), n.P2PAddrs()...
	err = n.Stop()       // reverse order, then the chain is closed

Every goroutine of the node belongs to one service stage started by Start
and is waited for by Stop: after Stop returns, the node has no goroutine
left (see TestNodeStopsEveryGoroutine).

cmd/n3d keeps only the command line around it: flags, configuration files,
the logger and the signals (SIGINT/SIGTERM stop, SIGHUP reload).

# Adding a service

A new service (for example a state-root or oracle service) lives in its own
package with its own small Config (func fields for what it needs of the
chain, the pool or the network) and a Start/Stop or Run(ctx) method. To add
it here: build its Config from config.Config in a newXxx function of its
own file (xxx.go), start it in startServices after the services it uses,
record its stop function with st.add so Stop stops it before them, and
expose it with an accessor if a test or an embedding program needs it.
*/
package node
