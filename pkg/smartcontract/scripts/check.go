package scripts

import (
	"encoding/binary"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// minMultisigLen is the shortest script the reference looks into.
const minMultisigLen = 42

// IsSignatureContract tells whether script is a single-signature contract.
// As in the reference, the key bytes are not validated.
func IsSignatureContract(script []byte) bool {
	return len(script) == keys.SignatureScriptLen &&
		script[0] == opPUSHDATA1 && script[1] == keys.CompressedLen &&
		script[2+keys.CompressedLen] == opSYSCALL &&
		binary.LittleEndian.Uint32(script[3+keys.CompressedLen:]) == keys.CheckSigID
}

// ParseSignatureContract returns the 33 key bytes of a single-signature
// contract (a sub-slice of script), or false.
func ParseSignatureContract(script []byte) ([]byte, bool) {
	if !IsSignatureContract(script) {
		return nil, false
	}
	return script[2 : 2+keys.CompressedLen], true
}

// IsMultiSigContract tells whether script is a multi-signature contract. As
// in the reference's IsMultiSigContract(script) the 33-byte keys are not
// decoded, so a script with an invalid key still counts.
func IsMultiSigContract(script []byte) bool {
	_, _, ok := scanMultiSig(script, nil)
	return ok
}

// MultiSigCounts returns m and n of a multi-signature contract without
// decoding its keys (the reference's IsMultiSigContract(script, out m, out n)).
func MultiSigCounts(script []byte) (m, n int, ok bool) {
	return scanMultiSig(script, nil)
}

// ParseMultiSigContract returns m and the decoded keys of a multi-signature
// contract, in script order. As the reference's IsMultiSigContract(script,
// out m, out points), a key that does not decode makes the script not a
// multi-signature contract.
func ParseMultiSigContract(script []byte) (int, keys.PublicKeys, bool) {
	var pubs keys.PublicKeys
	m, _, ok := scanMultiSig(script, func(b []byte) bool {
		k, err := keys.NewPublicKeyFromBytes(b)
		if err != nil {
			return false
		}
		pubs = append(pubs, k)
		return true
	})
	if !ok {
		return 0, nil, false
	}
	return m, pubs, true
}

// IsStandardContract tells whether script is a signature or multi-signature
// contract.
func IsStandardContract(script []byte) bool {
	return IsSignatureContract(script) || IsMultiSigContract(script)
}

// scanMultiSig walks a multisig script exactly as the reference does. If
// onKey is set it is called for every 33-byte key and may reject it.
func scanMultiSig(script []byte, onKey func([]byte) bool) (m, n int, ok bool) {
	if len(script) < minMultisigLen {
		return 0, 0, false
	}
	m, i, ok := readCount(script, 0)
	if !ok || m < 1 || m > MaxMultisigKeys {
		return 0, 0, false
	}
	for script[i] == opPUSHDATA1 {
		if len(script) <= i+35 || script[i+1] != keys.CompressedLen {
			return 0, 0, false
		}
		if onKey != nil && !onKey(script[i+2:i+2+keys.CompressedLen]) {
			return 0, 0, false
		}
		i += 2 + keys.CompressedLen
		n++
	}
	if n < m || n > MaxMultisigKeys {
		return 0, 0, false
	}
	n2, i, ok := readCount(script, i)
	if !ok || n2 != n {
		return 0, 0, false
	}
	if len(script) != i+5 || script[i] != opSYSCALL ||
		binary.LittleEndian.Uint32(script[i+1:]) != keys.CheckMultisigID {
		return 0, 0, false
	}
	return m, n, true
}

// readCount reads PUSH1..PUSH16, PUSHINT8 (unsigned, as the reference reads
// it) or PUSHINT16 (unsigned little-endian) at i; it returns the value and
// the index after the instruction.
func readCount(script []byte, i int) (int, int, bool) {
	switch op := script[i]; {
	case op == opPUSHINT8:
		if len(script) <= i+1 {
			return 0, 0, false
		}
		return int(script[i+1]), i + 2, true
	case op == opPUSHINT16:
		if len(script) < i+3 {
			return 0, 0, false
		}
		return int(binary.LittleEndian.Uint16(script[i+1:])), i + 3, true
	case op >= opPUSH1 && op <= opPUSH16:
		return int(op - opPUSH0), i + 1, true
	default:
		return 0, 0, false
	}
}
