package payload

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
)

// Bloom filter payload limits of the reference.
const (
	// MaxFilterSize bounds the filter bits of filterload (bytes).
	MaxFilterSize = 36000
	// MaxFilterK bounds the number of hash functions of filterload.
	MaxFilterK = 50
	// MaxFilterAddSize bounds the element of filteradd (bytes).
	MaxFilterAddSize = 520
)

// FilterLoad is the payload of filterload: a bloom filter's bits, its
// number of hash functions and its tweak.
type FilterLoad struct {
	Filter []byte
	K      uint8
	Tweak  uint32
}

// EncodeBinary writes the payload.
func (p *FilterLoad) EncodeBinary(w *io.BinWriter) {
	w.WriteVarBytes(p.Filter)
	w.WriteU8(p.K)
	w.WriteU32LE(p.Tweak)
}

// DecodeBinary reads the payload with the reference's limits.
func (p *FilterLoad) DecodeBinary(r *io.BinReader) {
	p.Filter = r.ReadVarBytes(MaxFilterSize)
	p.K = r.ReadU8()
	if r.Err == nil && p.K > MaxFilterK {
		r.Err = fmt.Errorf("%w: %d > %d", ErrInvalidK, p.K, MaxFilterK)
		return
	}
	p.Tweak = r.ReadU32LE()
}

// Size returns the encoded size.
func (p *FilterLoad) Size() int { return io.GetVarSize(len(p.Filter)) + len(p.Filter) + 1 + 4 }

// FilterAdd is the payload of filteradd: one element to add to the filter.
type FilterAdd struct {
	Data []byte
}

// EncodeBinary writes the payload.
func (p *FilterAdd) EncodeBinary(w *io.BinWriter) { w.WriteVarBytes(p.Data) }

// DecodeBinary reads the payload (at most MaxFilterAddSize bytes).
func (p *FilterAdd) DecodeBinary(r *io.BinReader) { p.Data = r.ReadVarBytes(MaxFilterAddSize) }

// Size returns the encoded size.
func (p *FilterAdd) Size() int { return io.GetVarSize(len(p.Data)) + len(p.Data) }
