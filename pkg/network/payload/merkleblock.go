package payload

import (
	"math"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// MerkleBlock is the payload of merkleblock: a header, the block's
// transaction count, the hashes of a trimmed Merkle tree and the flag bits
// telling which branches were kept.
type MerkleBlock struct {
	Header  block.Header
	TxCount int
	Hashes  []util.Uint256
	Flags   []byte

	stateRoot bool // decode a StateRootInHeader header
}

// SetStateRootInHeader makes DecodeBinary read the header of a network
// with StateRootInHeader.
func (p *MerkleBlock) SetStateRootInHeader(on bool) { p.stateRoot = on }

// EncodeBinary writes the payload.
func (p *MerkleBlock) EncodeBinary(w *io.BinWriter) {
	p.Header.EncodeBinary(w)
	w.WriteVarUint(uint64(p.TxCount))
	writeHashes(w, p.Hashes)
	w.WriteVarBytes(p.Flags)
}

// DecodeBinary reads the payload: TxCount at most 65535, at most TxCount
// hashes and at most ceil(max(TxCount, 1) / 8) flag bytes.
func (p *MerkleBlock) DecodeBinary(r *io.BinReader) {
	p.Header.StateRootEnabled = p.stateRoot
	p.Header.DecodeBinary(r)
	p.TxCount = r.ReadVarLen(math.MaxUint16)
	p.Hashes = readHashes(r, p.TxCount)
	p.Flags = r.ReadVarBytes((max(p.TxCount, 1) + 7) / 8)
}

// Size returns the encoded size.
func (p *MerkleBlock) Size() int {
	return p.Header.Size() + io.GetVarSize(p.TxCount) + hashesSize(len(p.Hashes)) +
		io.GetVarSize(len(p.Flags)) + len(p.Flags)
}
