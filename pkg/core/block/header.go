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

// maxUnsignedSize is the hashed part with the previous state root
// (StateRootInHeader).
const maxUnsignedSize = UnsignedHeaderSize + util.Uint256Size

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
	// StateRootEnabled is set on networks with StateRootInHeader (a neo-go
	// extension): the header then carries PrevStateRoot after
	// NextConsensus, in its hashed part. Set it before decoding.
	StateRootEnabled bool
	// PrevStateRoot is the state root after the previous block (zero in
	// the genesis block); meaningful only with StateRootEnabled.
	PrevStateRoot util.Uint256
	Witness       transaction.Witness

	hash   util.Uint256
	hashed bool
}

// DecodeBinary reads a header: the unsigned part (version must be 0) and a
// witness array of exactly one element.
func (h *Header) DecodeBinary(r *io.BinReader) { h.decodeBuf(r, nil) }

func (h *Header) decodeBuf(r *io.BinReader, buf []byte) {
	var fixed [maxUnsignedSize]byte
	size := UnsignedHeaderSize
	if h.StateRootEnabled {
		size = maxUnsignedSize
	}
	r.ReadBytes(fixed[:size])
	if r.Err != nil {
		return
	}
	h.setUnsigned(fixed[:size])
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

func (h *Header) setUnsigned(b []byte) {
	le := binary.LittleEndian
	h.Version = le.Uint32(b[0:])
	copy(h.PrevHash[:], b[4:36])
	copy(h.MerkleRoot[:], b[36:68])
	h.Timestamp = le.Uint64(b[68:])
	h.Nonce = le.Uint64(b[76:])
	h.Index = le.Uint32(b[84:])
	h.PrimaryIndex = b[88]
	copy(h.NextConsensus[:], b[89:109])
	if len(b) == maxUnsignedSize {
		copy(h.PrevStateRoot[:], b[UnsignedHeaderSize:])
	}
	h.hash = hash.Sha256(b)
	h.hashed = true
}

// UnsignedSize is the length of the hashed part of a header on a network
// where StateRootInHeader is stateRoot.
func UnsignedSize(stateRoot bool) int {
	if stateRoot {
		return maxUnsignedSize
	}
	return UnsignedHeaderSize
}

// unsignedSize is the length of the hashed part of this header.
func (h *Header) unsignedSize() int { return UnsignedSize(h.StateRootEnabled) }

func (h *Header) unsigned() []byte {
	b := make([]byte, h.unsignedSize())
	le := binary.LittleEndian
	le.PutUint32(b[0:], h.Version)
	copy(b[4:36], h.PrevHash[:])
	copy(b[36:68], h.MerkleRoot[:])
	le.PutUint64(b[68:], h.Timestamp)
	le.PutUint64(b[76:], h.Nonce)
	le.PutUint32(b[84:], h.Index)
	b[88] = h.PrimaryIndex
	copy(b[89:109], h.NextConsensus[:])
	if h.StateRootEnabled {
		copy(b[UnsignedHeaderSize:], h.PrevStateRoot[:])
	}
	return b
}

// EncodeUnsigned writes the hashed part of the header.
func (h *Header) EncodeUnsigned(w *io.BinWriter) {
	w.WriteBytes(h.unsigned())
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
		h.hash = hash.Sha256(h.unsigned())
		h.hashed = true
	}
	return h.hash
}

// InvalidateCache drops the cached hash after a field changed.
func (h *Header) InvalidateCache() { h.hashed = false }

// Size is the serialized size of the header.
func (h *Header) Size() int { return h.unsignedSize() + 1 + h.Witness.Size() }

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
func NewHeaderFromBytes(b []byte) (*Header, error) { return NewHeaderFromBytesSR(b, false) }

// NewHeaderFromBytesSR is NewHeaderFromBytes for a network where
// StateRootInHeader is stateRoot.
func NewHeaderFromBytesSR(b []byte, stateRoot bool) (*Header, error) {
	h := &Header{StateRootEnabled: stateRoot}
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
