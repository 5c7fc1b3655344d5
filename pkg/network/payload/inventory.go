package payload

import (
	"fmt"
	stdio "io"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// InventoryType tells what an inventory hash names. Its values are the
// commands that carry the item.
type InventoryType byte

// Inventory types.
const (
	InvTX         InventoryType = 0x2b
	InvBlock      InventoryType = 0x2c
	InvExtensible InventoryType = 0x2e
)

// Inventory limits.
const (
	// MaxHashesCount bounds the hashes of a decoded inventory
	// (InvPayload.MaxHashesCount).
	MaxHashesCount = 500
	// RelayBatchSize is how many hashes we put in one relayed inv: 42 × 32
	// bytes plus the 1-byte type, the var-int count and the 3-byte message
	// header fit one 1500-byte Ethernet MTU after the IP and TCP headers.
	RelayBatchSize = 42
)

// Valid reports whether t is a known inventory type.
func (t InventoryType) Valid() bool {
	return t == InvTX || t == InvBlock || t == InvExtensible
}

// String returns the reference's name of the type.
func (t InventoryType) String() string {
	switch t {
	case InvTX:
		return "TX"
	case InvBlock:
		return "Block"
	case InvExtensible:
		return "Extensible"
	case InvP2PNotaryRequest:
		return "P2PNotaryRequest"
	default:
		return fmt.Sprintf("Unknown(0x%02x)", byte(t))
	}
}

// Inventory is the payload of inv, getdata and notfound: a type and up to
// MaxHashesCount hashes (an empty list is valid).
type Inventory struct {
	Type   InventoryType
	Hashes []util.Uint256
}

// EncodeBinary writes the payload.
func (p *Inventory) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(p.Type))
	writeHashes(w, p.Hashes)
}

// DecodeBinary reads the payload; the type must be known (a notary
// request's type is accepted here; the server refuses it when the
// P2PSigExtensions are off, as the reference does).
func (p *Inventory) DecodeBinary(r *io.BinReader) {
	p.Type = InventoryType(r.ReadU8())
	if r.Err == nil && !p.Type.ValidWith(true) {
		r.Err = fmt.Errorf("%w: %s", ErrInvalidInventoryType, p.Type)
		return
	}
	p.Hashes = readHashes(r, MaxHashesCount)
}

// Size returns the encoded size.
func (p *Inventory) Size() int { return 1 + hashesSize(len(p.Hashes)) }

// SplitInventory cuts hashes into inventories of at most per hashes each
// (per ≤ 0 or above MaxHashesCount means MaxHashesCount), keeping their
// order. Use RelayBatchSize for broadcast relay, MaxHashesCount for replies.
// The inventories share hashes' backing array.
func SplitInventory(t InventoryType, hashes []util.Uint256, per int) []Inventory {
	if per <= 0 || per > MaxHashesCount {
		per = MaxHashesCount
	}
	out := make([]Inventory, 0, (len(hashes)+per-1)/per)
	for len(hashes) > 0 {
		n := min(per, len(hashes))
		out = append(out, Inventory{Type: t, Hashes: hashes[:n:n]})
		hashes = hashes[n:]
	}
	return out
}

func writeHashes(w *io.BinWriter, hs []util.Uint256) {
	w.WriteVarUint(uint64(len(hs)))
	for i := range hs {
		w.WriteBytes(hs[i][:])
	}
}

// readHashes reads a var-int count (at most max) of 32-byte hashes without
// allocating beyond the remaining input.
func readHashes(r *io.BinReader, max int) []util.Uint256 {
	n := r.ReadVarLen(max)
	if r.Err != nil {
		return nil
	}
	if l := r.Len(); l >= 0 && n*util.Uint256Size > l {
		r.Err = fmt.Errorf("%w: %d hashes in %d bytes", stdio.ErrUnexpectedEOF, n, l)
		return nil
	}
	hs := make([]util.Uint256, n)
	for i := range hs {
		r.ReadBytes(hs[i][:])
	}
	if r.Err != nil {
		return nil
	}
	return hs
}

func hashesSize(n int) int { return io.GetVarSize(n) + n*util.Uint256Size }
