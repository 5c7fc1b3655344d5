// Package murmur implements MurmurHash3 x86_32, the non-cryptographic hash
// behind the CryptoLib native contract's murmur32(data, seed) method.
//
// Data flow: the native adapter passes the raw byte string and the seed
// (a uint32) to Sum32LE and pushes the four returned bytes. The reference
// (C# Neo.Cryptography.Murmur32.ComputeHash) returns the 32-bit hash
// serialized little-endian, which is what Sum32LE produces; Sum32 returns
// the same hash as an integer.
//
// The hash is github.com/twmb/murmur3's SeedSum32, a maintained
// implementation of the published algorithm (Austin Appleby, SMHasher
// MurmurHash3_x86_32). Our own block-loop implementation, which the
// package used before, stays in the tests: with a byte-at-a-time oracle
// and the reference's and SMHasher's vectors it checks the library
// (TestSum32AgainstOwn, FuzzSum32AgainstOwn), and BenchmarkSum32VsLibrary
// compares the two (docs/benchmarks-crypto.md): ours was not faster (no
// consistent winner within the noise), so the maintained library
// replaced it.
package murmur
