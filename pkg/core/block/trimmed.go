package block

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// Trimmed is a header with the hashes of its transactions: the form the
// Ledger contract stores and returns for a block.
type Trimmed struct {
	Header
	Hashes []util.Uint256
}

// Trim returns the trimmed form of b.
func (b *Block) Trim() *Trimmed {
	t := &Trimmed{Header: b.Header, Hashes: make([]util.Uint256, len(b.Transactions))}
	for i, tx := range b.Transactions {
		t.Hashes[i] = tx.Hash()
	}
	return t
}

// DecodeBinary reads a header and at most MaxTransactionsPerBlock hashes.
func (t *Trimmed) DecodeBinary(r *io.BinReader) {
	t.Header.DecodeBinary(r)
	n := r.ReadVarLen(MaxTransactionsPerBlock)
	if r.Err != nil {
		return
	}
	if l := r.Len(); l >= 0 && n*util.Uint256Size > l {
		setErr(r, fmt.Errorf("%w: %d hashes in %d bytes", ErrTooManyTxs, n, l))
		return
	}
	t.Hashes = make([]util.Uint256, n)
	for i := range t.Hashes {
		r.ReadBytes(t.Hashes[i][:])
	}
}

// EncodeBinary writes the header and the hashes.
func (t *Trimmed) EncodeBinary(w *io.BinWriter) {
	t.Header.EncodeBinary(w)
	w.WriteVarUint(uint64(len(t.Hashes)))
	for i := range t.Hashes {
		w.WriteBytes(t.Hashes[i][:])
	}
}

// Size is the serialized size of the trimmed block.
func (t *Trimmed) Size() int {
	return t.Header.Size() + io.GetVarSize(len(t.Hashes)) + len(t.Hashes)*util.Uint256Size
}
