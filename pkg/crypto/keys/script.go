package keys

import (
	"crypto/sha256"
	"encoding/binary"
)

// Opcodes and interop names of the standard verification scripts. They are
// protocol constants; this package sits below the VM and names only these.
const (
	opPUSHDATA1 = 0x0C
	opSYSCALL   = 0x41
)

// Interop names of the signature-checking syscalls.
const (
	CheckSigName      = "System.Crypto.CheckSig"
	CheckMultisigName = "System.Crypto.CheckMultisig"
)

// SignatureScriptLen is the length of a single-signature verification script.
const SignatureScriptLen = 2 + CompressedLen + 1 + 4

// InteropID returns the syscall number of an interop name: the first four
// bytes of its SHA-256, read as a little-endian uint32.
func InteropID(name string) uint32 {
	h := sha256.Sum256([]byte(name))
	return binary.LittleEndian.Uint32(h[:4])
}

// Syscall numbers of the signature-checking interops.
var (
	CheckSigID      = InteropID(CheckSigName)
	CheckMultisigID = InteropID(CheckMultisigName)
)

// appendSignatureScript appends PUSHDATA1 33 <key> SYSCALL CheckSig to dst.
// The point at infinity is pushed as its one-byte encoding, as the
// reference's ScriptBuilder would.
func (p *PublicKey) appendSignatureScript(dst []byte) []byte {
	if !p.set {
		dst = append(dst, opPUSHDATA1, 1, 0)
	} else {
		dst = append(dst, opPUSHDATA1, CompressedLen)
		dst = append(dst, p.comp[:]...)
	}
	dst = append(dst, opSYSCALL)
	return binary.LittleEndian.AppendUint32(dst, CheckSigID)
}
