// Package base58 implements Base58 and Base58Check (a 4-byte double SHA-256
// checksum appended before encoding) with Bitcoin's alphabet, as Neo uses
// them for addresses and WIF keys.
package base58
