package capability

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
)

// Type is the capability type byte.
type Type byte

// Capability types of the reference's NodeCapabilityType.
const (
	// TCPServer announces the P2P listening port.
	TCPServer Type = 0x01
	// WSServer announces a WebSocket port. Deprecated in the reference,
	// still decoded.
	WSServer Type = 0x02
	// DisableCompression asks peers not to compress messages sent to us.
	DisableCompression Type = 0x03
	// FullNode announces the height from which the node holds blocks.
	FullNode Type = 0x10
	// ArchivalNode announces that the node keeps every block.
	ArchivalNode Type = 0x11
	// Extension0 is the first type reserved for private extensions.
	Extension0 Type = 0xf0
)

// Limits of the reference decoder.
const (
	// MaxCapabilities bounds a capability list (VersionPayload.MaxCapabilities).
	MaxCapabilities = 32
	// MaxDataSize bounds the body of an unknown capability.
	MaxDataSize = 1024
)

// Sentinel errors.
var (
	// ErrDuplicate is returned for two capabilities of the same known type.
	ErrDuplicate = errors.New("capability: duplicate capability type")
	// ErrNonZeroBody is returned when ArchivalNode carries data.
	ErrNonZeroBody = errors.New("capability: archival node capability with data")
)

// String returns the reference's name of the type.
func (t Type) String() string {
	switch t {
	case TCPServer:
		return "TcpServer"
	case WSServer:
		return "WsServer"
	case DisableCompression:
		return "DisableCompression"
	case FullNode:
		return "FullNode"
	case ArchivalNode:
		return "ArchivalNode"
	default:
		return fmt.Sprintf("Unknown(0x%02x)", byte(t))
	}
}

// Capability is one capability. Which field is meaningful depends on Type:
// Port for TCPServer and WSServer, StartHeight for FullNode, nothing for
// ArchivalNode, Data for every other type (DisableCompression included,
// whose Data is empty when well formed).
type Capability struct {
	Type        Type
	Port        uint16
	StartHeight uint32
	Data        []byte
}

// NewTCPServer returns the TcpServer capability for port.
func NewTCPServer(port uint16) Capability { return Capability{Type: TCPServer, Port: port} }

// NewFullNode returns the FullNode capability for a start height.
func NewFullNode(startHeight uint32) Capability {
	return Capability{Type: FullNode, StartHeight: startHeight}
}

// NewArchivalNode returns the ArchivalNode capability.
func NewArchivalNode() Capability { return Capability{Type: ArchivalNode} }

// NewDisableCompression returns the DisableCompression capability.
func NewDisableCompression() Capability { return Capability{Type: DisableCompression} }

// EncodeBinary writes the type byte and the type's body.
func (c *Capability) EncodeBinary(w *io.BinWriter) {
	w.WriteU8(byte(c.Type))
	switch c.Type {
	case TCPServer, WSServer:
		w.WriteU16LE(c.Port)
	case FullNode:
		w.WriteU32LE(c.StartHeight)
	case ArchivalNode:
		w.WriteU8(0)
	default:
		w.WriteVarBytes(c.Data)
	}
}

// DecodeBinary reads one capability; unknown types are kept with their
// var-bytes body (at most MaxDataSize bytes).
func (c *Capability) DecodeBinary(r *io.BinReader) {
	*c = Capability{Type: Type(r.ReadU8())}
	switch c.Type {
	case TCPServer, WSServer:
		c.Port = r.ReadU16LE()
	case FullNode:
		c.StartHeight = r.ReadU32LE()
	case ArchivalNode:
		if b := r.ReadU8(); r.Err == nil && b != 0 {
			r.Err = fmt.Errorf("%w: 0x%02x", ErrNonZeroBody, b)
		}
	default:
		c.Data = r.ReadVarBytes(MaxDataSize)
	}
}

// Size returns the encoded size of the capability.
func (c *Capability) Size() int {
	switch c.Type {
	case TCPServer, WSServer:
		return 1 + 2
	case FullNode:
		return 1 + 4
	case ArchivalNode:
		return 1 + 1
	default:
		return 1 + io.GetVarSize(len(c.Data)) + len(c.Data)
	}
}

// known reports whether the reference decodes t into a dedicated class
// (and so checks it for duplicates).
func known(t Type) bool {
	return t == TCPServer || t == WSServer || t == FullNode || t == ArchivalNode
}
