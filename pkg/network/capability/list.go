package capability

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
)

// Capabilities is a capability list as carried by version and addr
// payloads.
type Capabilities []Capability

// EncodeBinary writes the count and every capability.
func (cs Capabilities) EncodeBinary(w *io.BinWriter) {
	w.WriteVarUint(uint64(len(cs)))
	for i := range cs {
		cs[i].EncodeBinary(w)
	}
}

// DecodeBinary reads at most MaxCapabilities capabilities and rejects two
// of the same known type, as the reference does.
func (cs *Capabilities) DecodeBinary(r *io.BinReader) {
	l := io.ReadArray[Capability](r, MaxCapabilities)
	if r.Err != nil {
		*cs = nil
		return
	}
	if err := Capabilities(l).check(); err != nil {
		r.Err = err
		*cs = nil
		return
	}
	*cs = l
}

func (cs Capabilities) check() error {
	var seen [256]bool
	for i := range cs {
		t := cs[i].Type
		if !known(t) {
			continue
		}
		if seen[t] {
			return fmt.Errorf("%w: %s", ErrDuplicate, t)
		}
		seen[t] = true
	}
	return nil
}

// Size returns the encoded size of the list.
func (cs Capabilities) Size() int {
	n := io.GetVarSize(len(cs))
	for i := range cs {
		n += cs[i].Size()
	}
	return n
}

// Find returns the first capability of type t.
func (cs Capabilities) Find(t Type) (Capability, bool) {
	for _, c := range cs {
		if c.Type == t {
			return c, true
		}
	}
	return Capability{}, false
}

// TCPPort returns the announced P2P port, 0 when there is none (the
// reference's endpoint port for an address without TcpServer).
func (cs Capabilities) TCPPort() uint16 {
	c, _ := cs.Find(TCPServer)
	return c.Port
}

// StartHeight returns the FullNode start height and whether the node
// announced itself as a full node.
func (cs Capabilities) StartHeight() (uint32, bool) {
	c, ok := cs.Find(FullNode)
	return c.StartHeight, ok
}

// IsArchival reports whether the list holds ArchivalNode.
func (cs Capabilities) IsArchival() bool {
	_, ok := cs.Find(ArchivalNode)
	return ok
}

// AllowCompression reports whether the peer accepts compressed messages:
// true unless it announced DisableCompression. (The reference intends the
// same; its current decoder reads DisableCompression as an unknown
// capability and so never honours it. Honouring it is always safe: an
// uncompressed message is valid for every peer.)
func (cs Capabilities) AllowCompression() bool {
	_, ok := cs.Find(DisableCompression)
	return !ok
}
