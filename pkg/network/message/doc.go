// Package message frames Neo N3 P2P messages: the flags byte, the command
// byte and the var-bytes payload, with the reference's LZ4 compression.
//
// Sending: New(cmd, payload) serializes the payload once and, like the C#
// Message.Create, compresses it when the command is compressible (block,
// extensible, transaction, headers, addr, merkleblock, filterload,
// filteradd), the payload is longer than 128 bytes and compression saves
// more than 64 bytes. AppendBinary(dst, allowCompression) then writes the
// frame for one peer, falling back to the plain payload for a peer that
// announced DisableCompression. A message is immutable: build it once,
// send it to many peers.
//
// Receiving: Read(r) reads one frame from a stream and Parse(b) one frame
// from a buffer (returning how many bytes it took, or asking for more).
// Both check the payload length against PayloadMaxSize (32 MiB) before
// allocating, decompress with the announced length checked against the
// same bound first, and decode the payload into the type the command
// carries (see Message.Payload), applying the reference's limits.
//
// Unknown commands: the reference reads their frame and then ignores the
// message. Read and Parse consume such a frame and return
// ErrUnknownCommand with the message's command set, so the server can drop
// it and keep the connection, as the reference does.
//
// Compression is our own port of the LZ4 C library's fast block
// compressor (the algorithm K4os.Compression.LZ4, the reference's codec,
// implements), so our compressed bytes equal a C# node's; decompression
// accepts any valid LZ4 block (github.com/pierrec/lz4/v4).
package message
