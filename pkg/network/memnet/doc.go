// Package memnet is an in-memory network for the P2P server
// (network.Config.Transport): hosts named by IP address listen and dial
// "IP:port" addresses, and their connections are buffered in-memory
// byte streams, so many nodes run in one process without sockets and
// without the kernel's timing.
//
// A connection is two streams, one per direction. A stream buffers up
// to Config.BufferSize bytes that were written and not yet read (bytes
// still on their way count too); a writer finding it full blocks until
// the reader drains it, so a peer that stops reading pushes back on its
// sender as a full TCP window does (net.Pipe, unbuffered, would block
// every writer until the reader came).
//
// Each direction between two hosts is a link (Network.SetLink, or the
// default of Network.SetDefaultLink) that shapes the bytes written on
// it: a latency, a jitter, a bandwidth, a loss rate and a down switch.
// The model is a TCP connection's, not a datagram network's: bytes are
// never dropped or reordered (the stream stays framed); a lost write is
// delivered after a retransmission delay, and a down link (a partition)
// holds the bytes until it is up again and refuses new dials.
// Network.Cut closes the connections between two hosts at once (a
// reset). Delivery times are computed on the network's clock
// (Config.Clock), so on a clock.Fake a delayed byte arrives when the
// test or simulator advances the clock past its time; with no latency
// nothing waits on the clock.
//
// Deadlines (SetDeadline and the like) are wall-clock times, as the
// net.Conn contract has them; pkg/network sets none (its timeouts are
// clock timers). Jitter and loss draw from a generator seeded by
// Config.Seed; their order follows the order of writes, which the Go
// scheduler decides when several goroutines write at once.
package memnet
