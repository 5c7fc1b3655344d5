// Package util holds the fixed-size hash types of Neo N3 and its GAS amount
// type.
//
// Uint160 (script hashes, accounts) and Uint256 (block and transaction
// hashes) are stored in memory in the order they are serialized on the wire,
// which is little-endian. The reference prints them big-endian with a "0x"
// prefix; String, MarshalJSON and the *DecodeStringBE functions use that
// form, the *LE functions the raw wire order.
package util
