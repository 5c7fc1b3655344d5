package scripts

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/util"
)

// Opcodes used by standard scripts.
const (
	opPUSHINT8  = 0x00
	opPUSHINT16 = 0x01
	opPUSHDATA1 = 0x0C
	opPUSH0     = 0x10
	opPUSH1     = 0x11
	opPUSH16    = 0x20
	opSYSCALL   = 0x41
)

// MaxMultisigKeys is the largest n of a multi-signature contract.
const MaxMultisigKeys = 1024

// ErrMultisigParams means m and n do not satisfy 1 ≤ m ≤ n ≤ 1024.
var ErrMultisigParams = errors.New("scripts: invalid multisig parameters")

// SignatureContract returns the single-signature verification script of k.
func SignatureContract(k *keys.PublicKey) []byte { return k.VerificationScript() }

// MultiSigContract returns the m-of-n verification script of the keys, which
// are sorted (a sorted copy is used; the argument is left untouched).
func MultiSigContract(m int, pubs keys.PublicKeys) ([]byte, error) {
	n := len(pubs)
	if m < 1 || m > n || n > MaxMultisigKeys {
		return nil, fmt.Errorf("%w: m=%d n=%d", ErrMultisigParams, m, n)
	}
	sorted := pubs.Copy()
	sorted.Sort()
	s := make([]byte, 0, 3+n*(2+keys.CompressedLen)+3+5)
	s = appendPushInt(s, m)
	for _, k := range sorted {
		s = append(s, opPUSHDATA1, keys.CompressedLen)
		s = append(s, k.Bytes()...)
	}
	s = appendPushInt(s, n)
	s = append(s, opSYSCALL)
	return binary.LittleEndian.AppendUint32(s, keys.CheckMultisigID), nil
}

// DefaultMultiSigContract returns the BFT multisig script of the keys, with
// m = n - (n-1)/3 (the script of a block's NextConsensus).
func DefaultMultiSigContract(pubs keys.PublicKeys) ([]byte, error) {
	return MultiSigContract(BFTThreshold(len(pubs)), pubs)
}

// MajorityMultiSigContract returns the multisig script with m = n - (n-1)/2
// (the committee address).
func MajorityMultiSigContract(pubs keys.PublicKeys) ([]byte, error) {
	return MultiSigContract(MajorityThreshold(len(pubs)), pubs)
}

// BFTThreshold is the number of signatures a BFT set of n nodes needs.
func BFTThreshold(n int) int { return n - (n-1)/3 }

// MajorityThreshold is the number of signatures a simple majority of n needs.
func MajorityThreshold(n int) int { return n - (n-1)/2 }

// appendPushInt emits a small non-negative integer as the reference's
// ScriptBuilder.EmitPush does: PUSH0..PUSH16, else the shortest of
// PUSHINT8/PUSHINT16 holding it as a signed little-endian integer.
func appendPushInt(s []byte, v int) []byte {
	switch {
	case v <= 16:
		return append(s, byte(opPUSH0+v))
	case v <= 0x7F:
		return append(s, opPUSHINT8, byte(v))
	default: // v ≤ 1024 here
		return append(s, opPUSHINT16, byte(v), byte(v>>8))
	}
}

// ScriptHash returns the script hash (Hash160) of a script.
func ScriptHash(script []byte) util.Uint160 { return hash.Hash160(script) }

// Address returns the N3 address of a script.
func Address(script []byte) string { return address.Uint160ToString(hash.Hash160(script)) }
