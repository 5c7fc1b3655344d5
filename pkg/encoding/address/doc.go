// Package address converts script hashes to and from Neo N3 addresses:
// Base58Check of the address version byte (0x35, giving addresses that
// start with "N") followed by the 20 little-endian bytes of the hash.
package address
