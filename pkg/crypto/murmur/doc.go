// Package murmur implements MurmurHash3 x86_32, the non-cryptographic hash
// behind the CryptoLib native contract's murmur32(data, seed) method.
//
// Data flow: the native adapter passes the raw byte string and the seed
// (a uint32) to Sum32LE and pushes the four returned bytes. The reference
// (C# Neo.Cryptography.Murmur32.ComputeHash) returns the 32-bit hash
// serialized little-endian, which is what Sum32LE produces; Sum32 returns
// the same hash as an integer.
//
// The implementation follows the published algorithm (Austin Appleby,
// SMHasher MurmurHash3_x86_32): 4-byte little-endian blocks mixed into the
// state, a 1..3 byte tail, then the length and the fmix32 finalizer.
package murmur
