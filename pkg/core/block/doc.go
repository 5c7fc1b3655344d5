// Package block holds the Neo N3 block wire types: Header and Block.
//
// Data flow: raw bytes (P2P, RPC submitblock, a chain dump) are decoded by
// NewBlockFromBytes / Block.DecodeBinaryBuf, which apply the reference's
// deserializer rules: header version 0 and exactly one witness, at most
// 65535 transactions, no duplicate transaction hashes, and a Merkle root
// that matches the transaction hashes. Transaction hashes are computed
// from the raw input while decoding; the header hash (SHA-256 of the 109-
// byte unsigned header) and the sizes are cached. Verification against
// the chain (previous hash, timestamps, witness, MaxBlockSize and
// MaxTransactionsPerBlock via CheckLimits) is the chain package's job.
//
// A block decoded from a message keeps its transactions in one array whose
// scripts alias the message's buffer; ShareTransactions swaps them for
// equal instances the node already holds (its mempool's), so that the
// array and the buffer can be freed before the block is added.
//
// JSON forms are those of the reference RPC getblock / getblockheader
// (verbose), in the reference's key order.
package block
