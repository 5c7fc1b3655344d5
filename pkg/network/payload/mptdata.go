package payload

import (
	"fmt"
	stdio "io"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/util"
)

// State exchange payloads (neo-go's P2PStateExchangeExtensions): a node
// synchronising state asks peers for trie nodes by hash (getmptdata) and
// gets their encodings back (mptdata).
const (
	// MaxMPTHashesCount bounds the hashes of one getmptdata (neo-go's).
	MaxMPTHashesCount = 32
	// MaxMPTNodeSize bounds one node encoding in mptdata. The largest
	// node is a leaf with a 65535-byte value (1 + 3 + 65535 bytes); the
	// bound leaves room and refuses nothing a trie can hold.
	MaxMPTNodeSize = 1 << 17
	// minMPTNodeSize is the smallest node on the wire: a length byte and
	// the node type.
	minMPTNodeSize = 2
)

// MPTInventory is the payload of getmptdata: up to MaxMPTHashesCount trie
// node hashes.
//
//	var-int n (≤ 32) | n × 32-byte hash
type MPTInventory struct {
	Hashes []util.Uint256
}

// EncodeBinary writes the payload.
func (p *MPTInventory) EncodeBinary(w *io.BinWriter) {
	w.WriteVarUint(uint64(len(p.Hashes)))
	for i := range p.Hashes {
		w.WriteBytes(p.Hashes[i][:])
	}
}

// DecodeBinary reads the payload (an empty list is valid, as in neo-go).
func (p *MPTInventory) DecodeBinary(r *io.BinReader) {
	p.Hashes = nil
	n := r.ReadVarLen(MaxMPTHashesCount)
	if r.Err != nil {
		return
	}
	if l := r.Len(); l >= 0 && n*util.Uint256Size > l {
		r.Err = fmt.Errorf("%w: %d hashes in %d bytes", stdio.ErrUnexpectedEOF, n, l)
		return
	}
	p.Hashes = make([]util.Uint256, n)
	for i := range p.Hashes {
		r.ReadBytes(p.Hashes[i][:])
	}
}

// Size returns the encoded size.
func (p *MPTInventory) Size() int {
	return io.GetVarSize(len(p.Hashes)) + len(p.Hashes)*util.Uint256Size
}

// MPTData is the payload of mptdata: one or more trie node encodings.
//
//	var-int n (≥ 1) | n × var-bytes node (≤ MaxMPTNodeSize each)
//
// The message size bounds n; the nodes themselves are checked by whoever
// places them in a trie.
type MPTData struct {
	Nodes [][]byte
}

// EncodeBinary writes the payload.
func (d *MPTData) EncodeBinary(w *io.BinWriter) {
	w.WriteVarUint(uint64(len(d.Nodes)))
	for _, n := range d.Nodes {
		w.WriteVarBytes(n)
	}
}

// DecodeBinary reads the payload; an empty list is an error (neo-go's).
func (d *MPTData) DecodeBinary(r *io.BinReader) {
	d.Nodes = nil
	n := r.ReadVarUint()
	if r.Err != nil {
		return
	}
	if n == 0 {
		r.Err = fmt.Errorf("%w: mpt nodes", ErrEmpty)
		return
	}
	if l := r.Len(); l >= 0 && n > uint64(l/minMPTNodeSize) {
		r.Err = fmt.Errorf("%w: %d nodes in %d bytes", stdio.ErrUnexpectedEOF, n, l)
		return
	}
	nodes := make([][]byte, 0, n)
	for range n {
		b := r.ReadVarBytes(MaxMPTNodeSize)
		if r.Err != nil {
			return
		}
		if len(b) == 0 {
			r.Err = fmt.Errorf("%w: empty mpt node", ErrEmpty)
			return
		}
		nodes = append(nodes, b)
	}
	d.Nodes = nodes
}

// Size returns the encoded size.
func (d *MPTData) Size() int {
	n := io.GetVarSize(len(d.Nodes))
	for _, b := range d.Nodes {
		n += io.GetVarSize(len(b)) + len(b)
	}
	return n
}
