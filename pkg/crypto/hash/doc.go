// Package hash provides the hash functions of Neo N3: SHA-256, double
// SHA-256 (block and transaction ids are a single SHA-256 of the unsigned
// data), RIPEMD-160, Hash160 (script hashes: RIPEMD-160 of SHA-256), the
// four-byte Base58Check checksum and the Merkle root of transaction hashes.
package hash
