package payload

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// Extensible payload limits of the reference.
const (
	// MaxCategorySize bounds the category string (bytes).
	MaxCategorySize = 32
	// MaxExtensibleDataSize bounds the data (the reader's default bound).
	MaxExtensibleDataSize = io.MaxArraySize
)

// Extensible is the payload of the extensible message and an inventory
// item of type InvExtensible. It carries dBFT messages (category "dBFT"),
// state-root votes ("StateService") and other services' data, valid for
// blocks ValidBlockStart <= height < ValidBlockEnd and signed by Sender.
//
//	var-string category (≤32, UTF-8) | u32 valid block start |
//	u32 valid block end | 20-byte sender | var-bytes data |
//	byte 1 | witness
//
// The hash is the SHA-256 of the part before the witness count; the
// witness signs magic (u32 LE) ‖ hash, see SignData. The hash is cached
// (at decode time for a decoded payload): call InvalidateCache after
// changing a field.
type Extensible struct {
	Category        string
	ValidBlockStart uint32
	ValidBlockEnd   uint32
	Sender          util.Uint160
	Data            []byte
	Witness         transaction.Witness

	hash   util.Uint256
	hashed bool
}

// EncodeUnsigned writes the hashed part.
func (e *Extensible) EncodeUnsigned(w *io.BinWriter) {
	w.WriteString(e.Category)
	w.WriteU32LE(e.ValidBlockStart)
	w.WriteU32LE(e.ValidBlockEnd)
	w.WriteBytes(e.Sender[:])
	w.WriteVarBytes(e.Data)
}

// EncodeBinary writes the payload with its single witness.
func (e *Extensible) EncodeBinary(w *io.BinWriter) {
	e.EncodeUnsigned(w)
	w.WriteU8(1)
	e.Witness.EncodeBinary(w)
}

// DecodeBinary reads the payload: the category must be UTF-8 of at most
// MaxCategorySize bytes, the valid range non-empty, and the witness count
// byte exactly 1 (a single byte, not a var-int, as the reference reads it).
func (e *Extensible) DecodeBinary(r *io.BinReader) {
	e.hashed = false
	e.Category = readStrictString(r, MaxCategorySize)
	e.ValidBlockStart = r.ReadU32LE()
	e.ValidBlockEnd = r.ReadU32LE()
	if r.Err == nil && e.ValidBlockStart >= e.ValidBlockEnd {
		r.Err = fmt.Errorf("%w: %d >= %d", ErrInvalidRange, e.ValidBlockStart, e.ValidBlockEnd)
		return
	}
	r.ReadBytes(e.Sender[:])
	e.Data = r.ReadVarBytes(MaxExtensibleDataSize)
	if n := r.ReadU8(); r.Err == nil && n != 1 {
		r.Err = fmt.Errorf("%w: %d", ErrWitnessCount, n)
		return
	}
	e.Witness.DecodeBinary(r)
	if r.Err == nil {
		e.Hash()
	}
}

// Hash returns the SHA-256 of the unsigned part (cached).
func (e *Extensible) Hash() util.Uint256 {
	if !e.hashed {
		h := sha256.New()
		w := io.NewBinWriterFromIO(h)
		e.EncodeUnsigned(w)
		h.Sum(e.hash[:0])
		e.hashed = true
	}
	return e.hash
}

// InvalidateCache drops the cached hash after a field changed.
func (e *Extensible) InvalidateCache() { e.hashed = false }

// SignData returns what the witness signs on the network with the given
// magic: magic (u32 LE) followed by the hash.
func (e *Extensible) SignData(magic uint32) []byte {
	b := make([]byte, 4+util.Uint256Size)
	binary.LittleEndian.PutUint32(b, magic)
	h := e.Hash()
	copy(b[4:], h[:])
	return b
}

// Size returns the encoded size.
func (e *Extensible) Size() int {
	return io.GetVarSize(len(e.Category)) + len(e.Category) + 4 + 4 + util.Uint160Size +
		io.GetVarSize(len(e.Data)) + len(e.Data) + 1 + e.Witness.Size()
}
