// Package payload holds the Neo N3 P2P message payloads other than blocks
// and transactions (which are pkg/core/block and pkg/core/transaction):
// version, addr, ping/pong, inventories (inv, getdata, notfound), block and
// header requests, headers, the SPV filter payloads, merkleblock and the
// extensible payload that carries consensus and state-root messages.
//
// Data flow: pkg/network/message frames a command and its serialized
// payload; on receipt it picks the payload type from the command and calls
// its DecodeBinary. Every decoder here applies the C# reference's limits
// and validity rules at decode time (counts, lengths, ranges, strict UTF-8
// strings), so a payload that decodes is one the reference node would have
// accepted, and nothing is allocated beyond what the input can hold.
// Semantic checks against the chain (heights, witnesses, whitelists) are
// the server's and the chain's job.
//
// SplitInventory cuts a hash list into relay-sized inv payloads (42 hashes,
// one Ethernet MTU) while decoding accepts the reference's 500.
package payload
