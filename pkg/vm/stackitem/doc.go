// Package stackitem defines the NeoVM stack items and what the reference
// does with them outside the interpreter loop.
//
// Items: Null, Bool, *Integer (int64 inline, big.Int beyond, at most 32
// bytes in the VM), ByteString, *Buffer, *Pointer, *Array (Array and Struct,
// see IsStruct), *Map (ordered, primitive keys of at most 64 bytes) and
// *Interop. The Item interface gives the reference conversions (Bool,
// BigInt, Bytes) and equality; ConvertTo, EqualsLimited, DeepCopy and
// (*Array).Clone are the reference CONVERT, EQUAL, DeepCopy and Struct
// clone. RefCounter is the reference stack reference counter used by the
// VM. Make builds items from Go values.
//
// Serialization: Serialize/Deserialize are the reference BinarySerializer
// (StdLib serialize/deserialize, native contract storage); ToJSON/FromJSON
// are the reference JsonSerializer (StdLib jsonSerialize/jsonDeserialize),
// reading and writing JSON through pkg/smartcontract/neojson, the
// reference's JSON dialect.
package stackitem
