package memnet

import "net/netip"

// PauseReads makes host ip stop reading (paused true) or read again: the
// bytes sent to it stay in its streams' buffers, so once a buffer is full
// the writer blocks (or times out on its write deadline), as with a peer
// whose process stops draining its sockets. Its own writes go on. Dials
// to and from the host still succeed.
func (n *Network) PauseReads(ip netip.Addr, paused bool) {
	ip = ip.Unmap()
	n.mu.Lock()
	if paused {
		n.paused[ip] = true
	} else {
		delete(n.paused, ip)
	}
	n.mu.Unlock()
	n.wakeAll()
}

// flowing reports whether bytes written from→to may be read now: the link
// is up and the receiving host reads.
func (n *Network) flowing(from, to netip.Addr) bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return !n.linkLocked(from, to).Down && !n.paused[to]
}
