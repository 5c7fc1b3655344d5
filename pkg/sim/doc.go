// Package sim runs a network of whole n3d nodes (pkg/node) in one process
// on the in-memory transport of pkg/network/memnet, drives it with a load
// of signed transactions and checks that the network kept every accepted
// transaction and agreed on one chain.
//
//	rep, err := sim.Run(ctx, sim.Config{Nodes: 12, Validators: 4, Degree: 3,
//		TxRate: 50, Duration: 10 * time.Second, Seed: 1})
//
// The first Validators nodes run dBFT with keys derived from the seed (a
// privnet protocol configuration whose standby committee is those keys);
// the others are relay nodes without consensus. Every node keeps its chain
// in memory. The topology (full mesh when Degree is 0 or at least Nodes-1,
// otherwise a random graph in which each node has at least Degree
// neighbours) is drawn from the seed; each node's seed list is its
// neighbours, and P2P discovery may add edges later. Each link has the
// configured latency and loss (memnet's model: a TCP stream, a lost write
// is delivered late, never dropped).
//
// The load generator sends GAS transfers from the validators' multisig
// account, signed by the validators' keys, to the relay nodes (to the
// validators when there are none), at Config.TxRate per second for
// Config.Duration; the seed picks the node and the recipient of each one.
//
// After the load, Run waits (at most Config.Settle) until every accepted
// transaction is in a block or expired and every node has reached the
// height the first node had then, stops the nodes and checks the
// invariants (Report.Violations): every accepted transaction included
// exactly once or expired; every node has the same block hash and state
// root at every height up to the lowest common height; no node behind;
// the goroutine count back near what it was before the run.
//
// Config.Topology may also be a full mesh or a Watts–Strogatz small
// world (topology.go), and Config.Bandwidth limits every link. Faults
// (Config.Faults, fault.go and faultrun.go; ParseFault reads the command
// line's syntax) are applied during the load: a crash and restart of a
// node on its kept in-memory store, a validator down, a partition and its
// heal, a node that stops reading (memnet's PauseReads), a loss burst and
// nodes joining late from genesis. The load lasts until the last fault
// has ended; the settle period and the invariants follow as on any run,
// and Report.FaultEvents tells when each fault began and ended and how
// long its nodes took to catch up.
//
// Config.Policy chooses how nodes announce transactions (policy.go:
// fanout, the default of real nodes; rebroadcast to every peer;
// firsthand, only the node's own transactions, to every peer), and
// NoCancel and NoBatch switch off the 2/3 cancellation of broadcasts and
// the 42-hash inv batching. Besides the invariants the report carries the
// gossip figures (measure.go): messages and bytes per transaction per node
// by class from the P2P servers' counters (network.Server.Traffic),
// transaction adverts per second and per transaction, propagation to 2/3
// and to every pool, block propagation, view changes, CPU and heap.
//
// Time is real: consensus inside pkg/node runs on the wall clock, so a run
// lasts about as long as its Duration plus the settle time, and the
// figures (TPS, block interval, propagation) depend on the machine's load.
// The seed makes the topology and the load's content reproducible, not the
// interleaving of the goroutines.
package sim
