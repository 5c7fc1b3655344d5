package transaction

import (
	"bytes"
	"encoding/json"
	"fmt"
	goio "io"

	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// Reference limits of witness scripts (enough for a 21-key committee
// multisignature).
const (
	MaxInvocationScript   = 1024
	MaxVerificationScript = 1024
)

// Witness carries the invocation script (signatures) and the verification
// script (the account contract) proving a signer's consent.
type Witness struct {
	InvocationScript   []byte
	VerificationScript []byte
}

// DecodeBinary reads both scripts, each bounded by its reference limit.
func (w *Witness) DecodeBinary(r *io.BinReader) { w.decodeBuf(r, nil) }

// DecodeBinaryBuf is DecodeBinary for a reader made with
// io.NewBinReaderFromBuf(buf): the scripts alias buf instead of being
// copied. buf may be nil.
func (w *Witness) DecodeBinaryBuf(r *io.BinReader, buf []byte) { w.decodeBuf(r, buf) }

func (w *Witness) decodeBuf(r *io.BinReader, buf []byte) {
	w.InvocationScript = readVarBytes(r, buf, MaxInvocationScript)
	w.VerificationScript = readVarBytes(r, buf, MaxVerificationScript)
}

// readVarBytes is BinReader.ReadVarBytes that, given the buffer r reads
// from, returns a sub-slice of buf (capacity clipped) instead of a copy.
func readVarBytes(r *io.BinReader, buf []byte, maxLen int) []byte {
	if buf == nil {
		return r.ReadVarBytes(maxLen)
	}
	n := r.ReadVarLen(maxLen)
	if r.Err != nil {
		return nil
	}
	rest := r.Len()
	if n > rest {
		setErr(r, fmt.Errorf("%w: %d bytes wanted, %d left", goio.ErrUnexpectedEOF, n, rest))
		return nil
	}
	off := len(buf) - rest
	b := buf[off : off+n : off+n]
	// Advance the reader; it copies the bytes onto themselves.
	r.ReadBytes(b)
	return b
}

// EncodeBinary writes both scripts as var-bytes.
func (w *Witness) EncodeBinary(bw *io.BinWriter) {
	bw.WriteVarBytes(w.InvocationScript)
	bw.WriteVarBytes(w.VerificationScript)
}

// Size is the serialized size of the witness.
func (w *Witness) Size() int {
	return varBytesSize(len(w.InvocationScript)) + varBytesSize(len(w.VerificationScript))
}

// ScriptHash is the hash of the verification script: the account the
// witness is for.
func (w *Witness) ScriptHash() util.Uint160 {
	return hash.Hash160(w.VerificationScript)
}

// Copy returns a deep copy of w.
func (w Witness) Copy() Witness {
	return Witness{
		InvocationScript:   append([]byte(nil), w.InvocationScript...),
		VerificationScript: append([]byte(nil), w.VerificationScript...),
	}
}

func varBytesSize(n int) int { return io.GetVarSize(n) + n }

type witnessJSON struct {
	Invocation   []byte `json:"invocation"`
	Verification []byte `json:"verification"`
}

// MarshalJSON writes {"invocation": base64, "verification": base64}; empty
// scripts are "" (never null).
func (w Witness) MarshalJSON() ([]byte, error) {
	return json.Marshal(witnessJSON{Invocation: nonNil(w.InvocationScript), Verification: nonNil(w.VerificationScript)})
}

// UnmarshalJSON parses the form written by MarshalJSON and enforces the
// script limits.
func (w *Witness) UnmarshalJSON(data []byte) error {
	var aux witnessJSON
	if err := json.Unmarshal(data, &aux); err != nil {
		return fmt.Errorf("%w: witness: %w", ErrInvalidJSON, err)
	}
	if len(aux.Invocation) > MaxInvocationScript || len(aux.Verification) > MaxVerificationScript {
		return fmt.Errorf("%w: witness script too long", ErrInvalidJSON)
	}
	w.InvocationScript = nonNil(aux.Invocation)
	w.VerificationScript = nonNil(aux.Verification)
	return nil
}

func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// SameWitnesses reports whether a and b are byte-identical witness lists
// (two transactions with one hash differ at most in their witnesses).
func SameWitnesses(a, b []Witness) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i].InvocationScript, b[i].InvocationScript) ||
			!bytes.Equal(a[i].VerificationScript, b[i].VerificationScript) {
			return false
		}
	}
	return true
}
