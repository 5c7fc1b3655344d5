package payload

import (
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/capability"
)

// MaxUserAgentLength bounds the user agent of a version payload (bytes).
const MaxUserAgentLength = 1024

// ProtocolVersion is the version field every N3 node sends
// (LocalNode.ProtocolVersion).
const ProtocolVersion uint32 = 0

// Version is the payload of the version message, the first message each
// side of a connection sends.
//
//	u32 network magic | u32 version | u32 timestamp (s) | u32 nonce |
//	var-string user agent (≤1024, UTF-8) | capabilities (≤32)
type Version struct {
	Network      uint32
	Version      uint32
	Timestamp    uint32 // seconds since the Unix epoch
	Nonce        uint32
	UserAgent    string
	Capabilities capability.Capabilities
}

// EncodeBinary writes the payload.
func (v *Version) EncodeBinary(w *io.BinWriter) {
	w.WriteU32LE(v.Network)
	w.WriteU32LE(v.Version)
	w.WriteU32LE(v.Timestamp)
	w.WriteU32LE(v.Nonce)
	w.WriteString(v.UserAgent)
	v.Capabilities.EncodeBinary(w)
}

// DecodeBinary reads the payload with the reference's limits.
func (v *Version) DecodeBinary(r *io.BinReader) {
	v.Network = r.ReadU32LE()
	v.Version = r.ReadU32LE()
	v.Timestamp = r.ReadU32LE()
	v.Nonce = r.ReadU32LE()
	v.UserAgent = readStrictString(r, MaxUserAgentLength)
	v.Capabilities.DecodeBinary(r)
}

// Size returns the encoded size.
func (v *Version) Size() int {
	return 16 + io.GetVarSize(len(v.UserAgent)) + len(v.UserAgent) + v.Capabilities.Size()
}

// AllowCompression reports whether the sender accepts compressed messages.
func (v *Version) AllowCompression() bool { return v.Capabilities.AllowCompression() }
