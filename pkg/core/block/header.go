package block

import (
	"encoding/binary"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// VersionInitial is the only block version the protocol accepts.
const VersionInitial uint32 = 0

// UnsignedHeaderSize is the size of the hashed part of a header: version,
// previous hash, Merkle root, timestamp, nonce, index, primary index and
// next consensus.
const UnsignedHeaderSize = 4 + util.Uint256Size + util.Uint256Size + 8 + 8 + 4 + 1 + util.Uint160Size

// Header is a block header. Its hash is cached on first use (and at decode
// time): call InvalidateCache after changing a field.
type Header struct {
	Version       uint32
	PrevHash      util.Uint256
	MerkleRoot    util.Uint256
	Timestamp     uint64 // milliseconds since the Unix epoch
	Nonce         uint64
	Index         uint32
	PrimaryIndex  uint8
	NextConsensus util.Uint160
	Witness       transaction.Witness

	hash   util.Uint256
	hashed bool
}

// DecodeBinary reads a header: the unsigned part (version must be 0) and a
// witness array of exactly one element.
func (h *Header) DecodeBinary(r *io.BinReader) { h.decodeBuf(r, nil) }

func (h *Header) decodeBuf(r *io.BinReader, buf []byte) {
	var fixed [UnsignedHeaderSize]byte
	r.ReadBytes(fixed[:])
	if r.Err != nil {
		return
	}
	h.setUnsigned(&fixed)
	if h.Version != VersionInitial {
		setErr(r, fmt.Errorf("%w: %d", ErrInvalidVersion, h.Version))
		return
	}
	n := r.ReadVarUint()
	if r.Err == nil && n != 1 {
		setErr(r, fmt.Errorf("%w: %d", ErrWitnessCount, n))
		return
	}
	h.Witness.DecodeBinaryBuf(r, buf)
}

func (h *Header) setUnsigned(b *[UnsignedHeaderSize]byte) {
	le := binary.LittleEndian
	h.Version = le.Uint32(b[0:])
	copy(h.PrevHash[:], b[4:36])
	copy(h.MerkleRoot[:], b[36:68])
	h.Timestamp = le.Uint64(b[68:])
	h.Nonce = le.Uint64(b[76:])
	h.Index = le.Uint32(b[84:])
	h.PrimaryIndex = b[88]
	copy(h.NextConsensus[:], b[89:109])
	h.hash = hash.Sha256(b[:])
	h.hashed = true
}

func (h *Header) unsigned() (b [UnsignedHeaderSize]byte) {
	le := binary.LittleEndian
	le.PutUint32(b[0:], h.Version)
	copy(b[4:36], h.PrevHash[:])
	copy(b[36:68], h.MerkleRoot[:])
	le.PutUint64(b[68:], h.Timestamp)
	le.PutUint64(b[76:], h.Nonce)
	le.PutUint32(b[84:], h.Index)
	b[88] = h.PrimaryIndex
	copy(b[89:109], h.NextConsensus[:])
	return b
}

// EncodeUnsigned writes the hashed part of the header.
func (h *Header) EncodeUnsigned(w *io.BinWriter) {
	b := h.unsigned()
	w.WriteBytes(b[:])
}

// EncodeBinary writes the header with its single witness.
func (h *Header) EncodeBinary(w *io.BinWriter) {
	h.EncodeUnsigned(w)
	w.WriteVarUint(1)
	h.Witness.EncodeBinary(w)
}

// Hash is the SHA-256 of the unsigned header (cached).
func (h *Header) Hash() util.Uint256 {
	if !h.hashed {
		b := h.unsigned()
		h.hash = hash.Sha256(b[:])
		h.hashed = true
	}
	return h.hash
}

// InvalidateCache drops the cached hash after a field changed.
func (h *Header) InvalidateCache() { h.hashed = false }

// Size is the serialized size of the header.
func (h *Header) Size() int { return UnsignedHeaderSize + 1 + h.Witness.Size() }

// SignData returns the data the header witness signs on the network with
// the given magic: magic (u32 LE) followed by the hash.
func (h *Header) SignData(magic uint32) []byte {
	b := make([]byte, transaction.SignDataSize)
	binary.LittleEndian.PutUint32(b, magic)
	hh := h.Hash()
	copy(b[4:], hh[:])
	return b
}

// NewHeaderFromBytes decodes a header that must fill b exactly. The
// witness scripts alias b: do not modify b afterwards.
func NewHeaderFromBytes(b []byte) (*Header, error) {
	h := new(Header)
	r := io.NewBinReaderFromBuf(b)
	h.decodeBuf(r, b)
	if r.Err != nil {
		return nil, r.Err
	}
	if r.Len() != 0 {
		return nil, fmt.Errorf("%w: %d bytes", ErrTrailingData, r.Len())
	}
	return h, nil
}

func setErr(r *io.BinReader, err error) {
	if r.Err == nil {
		r.Err = err
	}
}
