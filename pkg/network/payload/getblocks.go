package payload

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// GetBlocks is the payload of getblocks: block hashes are wanted after
// HashStart, Count of them (-1: as many as fit one inv, MaxHashesCount).
type GetBlocks struct {
	HashStart util.Uint256
	Count     int16
}

// EncodeBinary writes the payload.
func (p *GetBlocks) EncodeBinary(w *io.BinWriter) {
	w.WriteBytes(p.HashStart[:])
	w.WriteU16LE(uint16(p.Count))
}

// DecodeBinary reads the payload; Count must be -1 or positive.
func (p *GetBlocks) DecodeBinary(r *io.BinReader) {
	r.ReadBytes(p.HashStart[:])
	p.Count = int16(r.ReadU16LE())
	if r.Err == nil && (p.Count < -1 || p.Count == 0) {
		r.Err = fmt.Errorf("%w: %d", ErrInvalidCount, p.Count)
	}
}

// Size returns the encoded size.
func (p *GetBlocks) Size() int { return util.Uint256Size + 2 }

// GetBlockByIndex is the payload of getheaders and getblockbyindex: Count
// items from IndexStart (-1: as many as allowed, MaxHeadersCount).
type GetBlockByIndex struct {
	IndexStart uint32
	Count      int16
}

// EncodeBinary writes the payload.
func (p *GetBlockByIndex) EncodeBinary(w *io.BinWriter) {
	w.WriteU32LE(p.IndexStart)
	w.WriteU16LE(uint16(p.Count))
}

// DecodeBinary reads the payload; Count must be -1 or in 1..MaxHeadersCount.
func (p *GetBlockByIndex) DecodeBinary(r *io.BinReader) {
	p.IndexStart = r.ReadU32LE()
	p.Count = int16(r.ReadU16LE())
	if r.Err == nil && (p.Count < -1 || p.Count == 0 || p.Count > MaxHeadersCount) {
		r.Err = fmt.Errorf("%w: %d (max %d)", ErrInvalidCount, p.Count, MaxHeadersCount)
	}
}

// Size returns the encoded size.
func (p *GetBlockByIndex) Size() int { return 4 + 2 }
