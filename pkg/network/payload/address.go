package payload

import (
	"fmt"
	"net/netip"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/capability"
)

// MaxAddrCount bounds an addr payload (AddrPayload.MaxCountToSend).
const MaxAddrCount = 200

// NetworkAddress is one entry of an addr payload: when the peer was seen,
// its IP (16 bytes, IPv4 mapped into IPv6) and its capabilities (the port
// is in the TcpServer capability).
type NetworkAddress struct {
	Timestamp    uint32
	IP           [16]byte
	Capabilities capability.Capabilities
}

// NewNetworkAddress builds an entry for addr; IPv4 addresses are stored
// mapped into IPv6 as the reference does.
func NewNetworkAddress(addr netip.Addr, timestamp uint32, caps capability.Capabilities) NetworkAddress {
	return NetworkAddress{Timestamp: timestamp, IP: addr.As16(), Capabilities: caps}
}

// Addr returns the IP, unmapped to IPv4 where it is a mapped address.
func (a *NetworkAddress) Addr() netip.Addr { return netip.AddrFrom16(a.IP).Unmap() }

// AddrPort returns the IP and the TcpServer port (0 when not announced,
// which the reference treats as "not connectable").
func (a *NetworkAddress) AddrPort() netip.AddrPort {
	return netip.AddrPortFrom(a.Addr(), a.Capabilities.TCPPort())
}

// EncodeBinary writes the entry.
func (a *NetworkAddress) EncodeBinary(w *io.BinWriter) {
	w.WriteU32LE(a.Timestamp)
	w.WriteBytes(a.IP[:])
	a.Capabilities.EncodeBinary(w)
}

// DecodeBinary reads the entry.
func (a *NetworkAddress) DecodeBinary(r *io.BinReader) {
	a.Timestamp = r.ReadU32LE()
	r.ReadBytes(a.IP[:])
	a.Capabilities.DecodeBinary(r)
}

// Size returns the encoded size.
func (a *NetworkAddress) Size() int { return 4 + 16 + a.Capabilities.Size() }

// AddrList is the payload of the addr message: 1 to MaxAddrCount entries.
type AddrList struct {
	Addrs []NetworkAddress
}

// EncodeBinary writes the list.
func (l *AddrList) EncodeBinary(w *io.BinWriter) {
	w.WriteVarUint(uint64(len(l.Addrs)))
	for i := range l.Addrs {
		l.Addrs[i].EncodeBinary(w)
	}
}

// DecodeBinary reads the list; an empty list is an error, as in the
// reference.
func (l *AddrList) DecodeBinary(r *io.BinReader) {
	l.Addrs = io.ReadArray[NetworkAddress](r, MaxAddrCount)
	if r.Err == nil && len(l.Addrs) == 0 {
		r.Err = fmt.Errorf("%w: addr", ErrEmpty)
	}
}

// Size returns the encoded size.
func (l *AddrList) Size() int {
	n := io.GetVarSize(len(l.Addrs))
	for i := range l.Addrs {
		n += l.Addrs[i].Size()
	}
	return n
}
