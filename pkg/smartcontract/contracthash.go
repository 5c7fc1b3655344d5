package smartcontract

import (
	"encoding/binary"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/util"
)

// NeoVM opcodes used to build the contract hash script.
const (
	opPUSHINT8  = 0x00
	opPUSHINT16 = 0x01
	opPUSHINT32 = 0x02
	opPUSHINT64 = 0x03
	opPUSHDATA1 = 0x0C
	opPUSHDATA2 = 0x0D
	opPUSHDATA4 = 0x0E
	opPUSH0     = 0x10
	opABORT     = 0x38
)

// CreateContractHash returns the hash of a contract deployed by sender
// with a NEF of the given checksum under the given manifest name: Hash160 of
// the script ABORT; PUSHDATA sender (little-endian); PUSH checksum (as the
// reference's ScriptBuilder emits an integer); PUSHDATA name. Native
// contracts use the zero sender and checksum 0.
func CreateContractHash(sender util.Uint160, checksum uint32, name string) util.Uint160 {
	buf := make([]byte, 0, 1+2+util.Uint160Size+6+5+len(name))
	buf = append(buf, opABORT)
	buf = appendPushData(buf, sender[:])
	buf = appendPushUint32(buf, checksum)
	buf = appendPushData(buf, []byte(name))
	return hash.Hash160(buf)
}

// CreateNativeContractHash returns the hash of the native contract name.
func CreateNativeContractHash(name string) util.Uint160 {
	return CreateContractHash(util.Uint160{}, 0, name)
}

// appendPushData emits the shortest PUSHDATA of data.
func appendPushData(buf, data []byte) []byte {
	n := len(data)
	switch {
	case n < 0x100:
		buf = append(buf, opPUSHDATA1, byte(n))
	case n < 0x10000:
		buf = append(buf, opPUSHDATA2)
		buf = binary.LittleEndian.AppendUint16(buf, uint16(n))
	default:
		buf = append(buf, opPUSHDATA4)
		buf = binary.LittleEndian.AppendUint32(buf, uint32(n))
	}
	return append(buf, data...)
}

// appendPushUint32 emits v the way the reference's
// ScriptBuilder.EmitPush(BigInteger) does: PUSH0..PUSH16 for 0..16, else
// the smallest PUSHINT8/16/32/64 holding its two's complement form (a
// checksum with the top bit set needs five bytes, hence PUSHINT64).
func appendPushUint32(buf []byte, v32 uint32) []byte {
	v := uint64(v32)
	if v <= 16 {
		return append(buf, opPUSH0+byte(v))
	}
	// Minimal two's complement length: the value plus a sign bit.
	n := 1
	for v>>(8*n-1) != 0 {
		n++
	}
	var op byte
	var size int
	switch {
	case n == 1:
		op, size = opPUSHINT8, 1
	case n == 2:
		op, size = opPUSHINT16, 2
	case n <= 4:
		op, size = opPUSHINT32, 4
	default:
		op, size = opPUSHINT64, 8
	}
	buf = append(buf, op)
	var le [8]byte
	binary.LittleEndian.PutUint64(le[:], v)
	return append(buf, le[:size]...)
}
