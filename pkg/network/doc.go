// Package network is n3d's P2P node: the TCP server that handshakes with
// Neo N3 peers (C# neo, neo-go, n3d), keeps the chain in sync with them,
// answers their requests and relays blocks, transactions and extensible
// payloads. The wire format is pkg/network/{message,payload,capability}.
//
// # Goroutines and data flow
//
//	Run ─┬─ acceptLoop (per listener) ─┐
//	     ├─ loop: discovery (dial, getaddr), pings          ├─▶ addPeer ─▶ peer
//	     ├─ dial (per attempt) ─────────────────────────────┘
//	     ├─ syncer.run: getblockbyindex to peers ahead of us
//	     └─ txRelayLoop: transaction hashes → inv (≤ 42)
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
// blocked —, not a nonce already connected) and answers with verack. A
// message out of that order, a wrong magic or no handshake within
// HandshakeTimeout disconnects the peer. When two nodes dial each other
// at once, both keep the connection dialled by the lower nonce.
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
// with getdata once, however many peers announce them.
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
package network
