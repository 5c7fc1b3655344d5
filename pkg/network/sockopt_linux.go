//go:build linux

package network

import (
	"net"
	"syscall"
)

// ackReader re-arms TCP_QUICKACK after every read: Linux leaves quick-ack
// mode on its own, and a request/response exchange would then wait out
// the delayed ACK (up to 40 ms) on every round trip.
type ackReader struct {
	net.Conn
	raw syscall.RawConn
}

func newAckReader(c net.Conn) interface{ Read([]byte) (int, error) } {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return c
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return c
	}
	return &ackReader{Conn: c, raw: raw}
}

func (a *ackReader) Read(b []byte) (int, error) {
	n, err := a.Conn.Read(b)
	if n > 0 {
		// A hint only: if the kernel refuses it, the connection works, a
		// little slower; there is nothing to report to anyone.
		_ = a.raw.Control(func(fd uintptr) {
			_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
		})
	}
	return n, err
}
