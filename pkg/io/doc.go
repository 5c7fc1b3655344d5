// Package io is n3d's binary codec: the little-endian, var-int prefixed
// encoding every Neo N3 wire structure and persisted record uses.
//
// A BinReader decodes from a byte slice or an io.Reader and a BinWriter
// encodes into an io.Writer or an in-memory buffer. Both carry a sticky
// error: once an operation fails, every later one is a no-op and the first
// error stays in Err. Decoders therefore read linearly and check Err once at
// the end.
//
// Every variable-length read takes an explicit maximum, so a hostile length
// prefix cannot make the node allocate more than the caller allows.
package io
