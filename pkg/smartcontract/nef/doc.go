// Package nef implements the NEO Executable Format version 3 (NEF3), the
// container of a contract's script that ContractManagement deploys and
// stores:
//
//	magic    uint32 LE   0x3346454E ("NEF3")
//	compiler [64]byte    UTF-8 name and version, zero padded
//	source   var string  URL of the sources, at most 256 bytes
//	reserved byte        0
//	tokens   var array   at most 128 MethodTokens
//	reserved uint16      0
//	script   var bytes   1..131070 bytes (the VM's MaxItemSize)
//	checksum uint32 LE   first 4 bytes of double SHA-256 of all the above
//
// A MethodToken is: hash (20 bytes LE), method (var string of at most 32
// bytes, not starting with '_'), parameter count (uint16 LE), has-return
// (bool byte), call flags (byte within callflag.All).
//
// Decoding (FileFromBytes, DecodeBinary) applies every check of the
// reference, the checksum and the total size included; Parse can skip the
// last two, as the reference does for contracts read back from storage.
// The checksum covers the canonical serialization, so a file written with
// non-minimal var-ints decodes with the checksum of its re-encoding.
// The JSON form is the one getcontractstate prints.
package nef
