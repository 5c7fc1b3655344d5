// Package capability holds the node capabilities a Neo N3 peer announces in
// its version payload and that travel with every address in an addr
// payload: the TCP (and deprecated WebSocket) server port, full-node start
// height, archival storage, and compression opt-out.
//
// Data flow: the network server builds our Capabilities from its config and
// puts them in payload.Version; capabilities received from peers are
// decoded here with the reference's rules and read back by the server
// (listening port, start height, whether the peer accepts compressed
// messages).
//
// Decoding follows the C# reference exactly, including what it tolerates:
// at most 32 capabilities; any type byte it does not know is kept as an
// opaque var-bytes blob of at most 1024 bytes (so a newer peer's
// capabilities never break the handshake); no two capabilities of the same
// known type (TcpServer, WsServer, FullNode, ArchivalNode). The reference
// reads DisableCompression (0x03) like an unknown capability, so its body
// is var-bytes here too (always empty when we write it) and duplicates of
// it are allowed.
package capability
