package block

import (
	"fmt"
	"math"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// MaxTransactionsPerBlock is the decoding bound of the transaction count
// (the reference's ushort.MaxValue); the configured, lower protocol limit
// is checked by CheckLimits.
const MaxTransactionsPerBlock = math.MaxUint16

// Block is a header and its transactions. Its size is cached like the
// header's hash: call InvalidateCache after changing anything. A decoded
// block has every cache filled, so concurrent readers are safe; a block
// built in code is not until Hash and Size have been called once.
type Block struct {
	Header
	Transactions []*transaction.Transaction

	size int
}

// NewBlockFromBytes decodes a block that must fill b exactly. The
// transactions' scripts alias b: do not modify b afterwards.
func NewBlockFromBytes(b []byte) (*Block, error) { return NewBlockFromBytesSR(b, false) }

// NewBlockFromBytesSR is NewBlockFromBytes for a network where
// StateRootInHeader is stateRoot.
func NewBlockFromBytesSR(b []byte, stateRoot bool) (*Block, error) {
	blk := &Block{Header: Header{StateRootEnabled: stateRoot}}
	r := io.NewBinReaderFromBuf(b)
	blk.DecodeBinaryBuf(r, b)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%w: %d bytes", ErrTrailingData, r.Len())
	}
	return blk, nil
}

// SetStateRootInHeader makes DecodeBinary read a block of a network with
// StateRootInHeader (the header then carries the previous state root).
func (b *Block) SetStateRootInHeader(on bool) { b.StateRootEnabled = on }

// DecodeBinary reads a block: header, at most MaxTransactionsPerBlock
// transactions without duplicates, and checks the Merkle root.
func (b *Block) DecodeBinary(r *io.BinReader) { b.DecodeBinaryBuf(r, nil) }

// DecodeBinaryBuf is DecodeBinary for a reader made with
// io.NewBinReaderFromBuf(buf): transaction hashes are computed from buf
// without re-encoding, and scripts alias buf (which must not be modified
// afterwards). buf may be nil.
func (b *Block) DecodeBinaryBuf(r *io.BinReader, buf []byte) {
	b.Header.decodeBuf(r, buf)
	n := r.ReadVarUint()
	if r.Err != nil {
		return
	}
	if n > MaxTransactionsPerBlock {
		setErr(r, fmt.Errorf("%w: %d", ErrTooManyTxs, n))
		return
	}
	// Every transaction takes well over one byte: never allocate more
	// than the input can hold.
	if l := r.Len(); l >= 0 && n > uint64(l) {
		setErr(r, fmt.Errorf("%w: %d transactions in %d bytes", ErrTooManyTxs, n, l))
		return
	}
	txs := make([]transaction.Transaction, n)
	b.Transactions = make([]*transaction.Transaction, n)
	hashes := make([]util.Uint256, n)
	for i := range txs {
		txs[i].DecodeBinaryBuf(r, buf)
		if r.Err != nil {
			r.Err = fmt.Errorf("transaction %d: %w", i, r.Err)
			return
		}
		b.Transactions[i] = &txs[i]
		hashes[i] = txs[i].Hash()
	}
	if err := checkUnique(hashes); err != nil {
		setErr(r, err)
		return
	}
	if root := hash.MerkleRoot(hashes); root != b.MerkleRoot {
		setErr(r, fmt.Errorf("%w: header %s, computed %s", ErrMerkleRoot, b.MerkleRoot, root))
		return
	}
	// Like the reference, the block size is computed from the header and
	// the transactions' sizes, not from the bytes consumed. Computing it
	// now leaves a decoded block read-only (safe for concurrent readers).
	b.size = 0
	_ = b.Size()
}

func checkUnique(hashes []util.Uint256) error {
	if len(hashes) <= 16 {
		for i := range hashes {
			for j := range i {
				if hashes[i] == hashes[j] {
					return fmt.Errorf("%w: %s", ErrDuplicateTx, hashes[i])
				}
			}
		}
		return nil
	}
	seen := make(map[util.Uint256]struct{}, len(hashes))
	for _, h := range hashes {
		if _, ok := seen[h]; ok {
			return fmt.Errorf("%w: %s", ErrDuplicateTx, h)
		}
		seen[h] = struct{}{}
	}
	return nil
}

// EncodeBinary writes the block.
func (b *Block) EncodeBinary(w *io.BinWriter) {
	b.Header.EncodeBinary(w)
	w.WriteVarUint(uint64(len(b.Transactions)))
	for _, tx := range b.Transactions {
		tx.EncodeBinary(w)
	}
}

// Bytes returns the serialized block.
func (b *Block) Bytes() ([]byte, error) {
	w := io.NewBufBinWriter()
	w.Grow(b.Size())
	b.EncodeBinary(w.BinWriter)
	if w.Err != nil {
		return nil, w.Err
	}
	return w.Bytes(), nil
}

// Size is the serialized size of the block (cached).
func (b *Block) Size() int {
	if b.size == 0 {
		n := b.Header.Size() + io.GetVarSize(len(b.Transactions))
		for _, tx := range b.Transactions {
			n += tx.Size()
		}
		b.size = n
	}
	return b.size
}

// InvalidateCache drops the cached header hash and block size.
func (b *Block) InvalidateCache() {
	b.Header.InvalidateCache()
	b.size = 0
}

// ComputeMerkleRoot returns the Merkle root of the transaction hashes.
func (b *Block) ComputeMerkleRoot() util.Uint256 {
	hashes := make([]util.Uint256, len(b.Transactions))
	for i, tx := range b.Transactions {
		hashes[i] = tx.Hash()
	}
	return hash.MerkleRoot(hashes)
}

// RebuildMerkleRoot sets MerkleRoot from the transactions (for blocks
// built in code, e.g. by consensus) and drops the cached hash.
func (b *Block) RebuildMerkleRoot() {
	b.MerkleRoot = b.ComputeMerkleRoot()
	b.InvalidateCache()
}

// CheckLimits is the hook for the protocol's MaxBlockSize and
// MaxTransactionsPerBlock settings: it fails when the block is larger
// than maxSize bytes or has more than maxTxs transactions (0 disables a
// check).
func (b *Block) CheckLimits(maxSize, maxTxs int) error {
	if maxTxs > 0 && len(b.Transactions) > maxTxs {
		return fmt.Errorf("%w: %d > %d", ErrTooManyTxs, len(b.Transactions), maxTxs)
	}
	if maxSize > 0 && b.Size() > maxSize {
		return fmt.Errorf("%w: %d > %d bytes", ErrTooBig, b.Size(), maxSize)
	}
	return nil
}
