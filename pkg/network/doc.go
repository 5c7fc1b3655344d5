// Package network is n3d's P2P node: the server that handshakes with
// Neo N3 peers (C# neo, neo-go, n3d), keeps the chain in sync with them,
// answers their requests and relays blocks, transactions and extensible
// payloads. The wire format is pkg/network/{message,payload,capability}.
//
// # Goroutines and data flow
//
//	Run ─┬─ acceptLoop (per listener) ─┐
//	     ├─ loop: discovery (dial, getaddr), pings,         ├─▶ addPeer ─▶ peer
//	     │        getdata retries, operator warnings        │
//	     ├─ dial (per attempt) ─────────────────────────────┘
//	     ├─ syncer.run: getblockbyindex to peers ahead of us
//	     ├─ txRelayLoop: transaction hashes → inv (≤ 42)
//	     └─ txResendLoop: pooled transactions left pending → inv again
//
//	peer: readLoop ─(frame)─▶ handleLoop ─▶ Server.handle ─┬─▶ BlockSink.Put
//	                                                        ├─▶ txLoop ─▶ OnTransaction
//	                                                        ├─▶ OnExtensible
//	                                                        └─▶ replies
//	      writeLoop ◀─ queues: high priority │ direct │ broadcast
//
// Every peer has four goroutines: the reader decodes frames (re-arming
// TCP_QUICKACK on Linux after each read), the handler handles them in
// order, a transaction worker hands transactions to the sink (so a peer
// flooding transactions only delays itself), and the writer drains three
// egress queues (high priority first: consensus, getaddr, handshake;
// then direct replies; then broadcasts), gathering everything pending into
// one Write. Large replies (blocks by index) are queued one message at a
// time as the writer drains them.
//
// Sends time out: a direct send waits at most max(TimePerBlock, 1 s) and
// returns errGone (peer disconnected), errBusy (queue full: the peer is
// ruled out) or errStateMismatch (not handshaked). Broadcasts are offered
// to the chosen peers at once; when 2/3 took them the others are
// cancelled, and a global timeout of half a block bounds the wait.
//
// # Handshake
//
// Both ends send version at once (magic, nonce, user agent, TcpServer and
// FullNode capabilities, DisableCompression when configured); each checks
// the other's (same magic, not our nonce — a seed that is ourselves is
// blocked —, not a nonce already connected) and answers with verack. Our
// version is queued before the peer's goroutines start, so it always
// precedes our verack. A message out of that order, a wrong magic, no
// first byte within FirstByteTimeout or no handshake within
// HandshakeTimeout disconnects the peer. When two nodes dial each other
// at once, both keep the connection dialled by the lower nonce.
//
// MaxPeers bounds the handshaked peers. Inbound connections still
// handshaking hold MaxHandshaking slots of their own, at most half
// per remote IP (slots.go): a newcomer whose IP holds its share takes
// over that IP's oldest slot, and when all are held it takes over the
// oldest silent connection's (else the oldest's), so silent floods cannot
// lock honest peers out.
//
// # Block sync
//
// The index space above our height is cut into chunks of 500 blocks; the
// syncer gives each chunk within a 2000-block window to one peer whose
// height covers it (at most two chunks per peer) and sends it a
// getblockbyindex. Blocks from any source go to the BlockSink (the block
// queue, which orders them for the chain). A chunk whose peer leaves or
// stalls is given to another peer. New blocks are announced with inv;
// announced blocks, transactions and extensibles we lack are requested
// with getdata once, however many peers announce them; the other
// announcers are remembered (cache.go) and, when the getdata is not
// answered within requestTimeout (or answered notfound), the next one is
// asked.
//
// # No transaction lost
//
// Once a block time txResendLoop lists the pool (resend.go): a
// transaction first seen TxResendThreshold block times ago is announced
// again to every peer, then at 2, 4, 8… times that age while it stays (as
// neo-go does); the number of such stale transactions is a metric and a
// rate-limited WARN. Whatever lost an announcement on the way — a full
// queue, a lost getdata, a peer that refused it while its pool was full —
// the owner offers it again until a block includes it.
//
// # Clock and transport
//
// Every timer of the server is made by Config.Clock (pkg/clock; the wall
// clock by default): the first-byte, handshake and write timeouts, the
// send and broadcast timeouts, pings, discovery, sync, getdata retries,
// the relay batching delay, re-announcement and the operator watches.
// The server sets no socket deadline: a timeout is a clock timer that
// closes the connection, which ends a blocked Read or Write on any
// transport. The periodic timers are armed before Ready is closed. On a
// clock.Fake the loops read the clock's time when a tick arrives (a fake
// clock advanced by several periods delivers one tick), and time passes
// only when the test or simulator advances it: a jump while a write is
// in progress counts as a write that long, so a driver advances once the
// nodes are idle.
//
// Listeners and connections come from Config.Transport: TCP by default,
// or pkg/network/memnet, an in-memory network of hosts with per-link
// latency, bandwidth, loss and partitions, on which many nodes run in one
// process. Addresses are "IP:port" on every transport (peers learn each
// other's by IP and port). TCP_NODELAY and TCP_QUICKACK are set only on
// *net.TCPConn connections.
//
// # Operator visibility
//
// watch.go: a WARN after NoPeersWarn without a handshaked peer (when
// there are addresses to dial) and an INFO when peers are back; failed
// dials summarised in one INFO line per DialLogInterval; our own
// listening addresses recognised when learnt, so getpeers never lists us.
//
// # Discovery
//
// Seeds are dialled at start under their configured names; a peer's
// listening address learnt in its version is an alias of that name, so it
// is not dialled twice. While fewer than the wanted number of peers are
// handshaked (MinPeers, raised to the fan-out the known network size
// calls for) the server dials AttemptConnPeers addresses every
// ProtoTickInterval, otherwise four times less often; it asks for
// addresses (getaddr) while it knows few and every 1000 blocks. An address
// whose dial or send fails is ruled out with a doubling back-off.
//
// # neo-go extensions
//
// StateRootInHeader (Config.StateRootInHeader): block, headers and
// merkleblock payloads are decoded with the previous state root in the
// header. P2PStateExchangeExtensions (Config.StateExchange, statesync.go):
// getmptdata is answered with the state trie nodes under each requested
// hash, depth first, one message's worth. With StateExchange.Sync the
// server drives the chain's state sync while it is active
// (statesync_client.go): headers from one peer at a time, getmptdata
// batches spread over peers (timeouts, strikes, junk replies drop the
// peer), the window's blocks through StateExchange.Blocks. Tolerated errors (tolerance.go): extensible
// payloads outside their height window and getmptdata for nodes we lack
// are dropped, and a peer causing 30 × validators of them within one
// block time is dropped, as neo-go does.
package network
