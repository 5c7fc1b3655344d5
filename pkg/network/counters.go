package network

import (
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
)

// Count is a number of messages and their framed bytes.
type Count struct {
	Messages uint64 `json:"messages"`
	Bytes    uint64 `json:"bytes"`
}

// Traffic is what a server sent and received since it was made: messages
// and bytes by command name ("Inv", "GetData", "Transaction", …) and the
// hashes carried by inv messages, by inventory type ("TX", "Block",
// "Extensible", …). A sent message is counted when its peer's writer
// frames it (one count per peer it goes to); a received one when it was
// read and decoded.
type Traffic struct {
	Sent        map[string]Count  `json:"sent"`
	Received    map[string]Count  `json:"received"`
	InvSent     map[string]uint64 `json:"invSent"`
	InvReceived map[string]uint64 `json:"invReceived"`
	// Reannounced counts the pooled transaction hashes announced again
	// because they stayed in the pool (txResendLoop); each went to every
	// peer, and those invs are in Sent and InvSent too.
	Reannounced uint64 `json:"reannounced"`
}

// cmdCount is one command's counters in one direction.
type cmdCount struct {
	msgs, bytes atomic.Uint64
	// promMsgs and promBytes are the Prometheus children of the command,
	// resolved once (nil for a command never seen before the first use:
	// resolved lazily then).
	promMsgs, promBytes atomic.Pointer[prometheus.Counter]
}

// direction is the counters of one direction.
type direction struct {
	cmds      [256]cmdCount
	invHashes [256]atomic.Uint64 // by inventory type
	msgsVec   *prometheus.CounterVec
	bytesVec  *prometheus.CounterVec
}

// counters counts the server's traffic by command: atomic counters the
// server reads (Server.Traffic) and Prometheus counters by command
// (n3d_p2p_messages_{sent,received}_total, n3d_p2p_message_bytes_…).
type counters struct {
	sent, recv  direction
	reannounced atomic.Uint64
}

func newCounters(reg prometheus.Registerer) (*counters, error) {
	c := &counters{}
	m := promutil.NewSet(reg, "p2p")
	c.sent.msgsVec = m.CounterVec("messages_sent_total", "P2P messages queued to peers and written, by command.", "command")
	c.sent.bytesVec = m.CounterVec("message_bytes_sent_total", "Framed bytes of the P2P messages written, by command.", "command")
	c.recv.msgsVec = m.CounterVec("messages_received_total", "P2P messages read from peers, by command.", "command")
	c.recv.bytesVec = m.CounterVec("message_bytes_received_total", "Framed bytes of the P2P messages read, by command.", "command")
	return c, m.Err()
}

// count adds one message of size framed bytes.
func (d *direction) count(m *message.Message, size int) {
	c := &d.cmds[m.Command]
	c.msgs.Add(1)
	c.bytes.Add(uint64(size))
	pm, pb := c.promMsgs.Load(), c.promBytes.Load()
	if pm == nil {
		name := m.Command.String()
		cm, cb := d.msgsVec.WithLabelValues(name), d.bytesVec.WithLabelValues(name)
		c.promMsgs.Store(&cm)
		c.promBytes.Store(&cb)
		pm, pb = &cm, &cb
	}
	(*pm).Inc()
	(*pb).Add(float64(size))
	if m.Command == message.CmdInv {
		if inv, ok := m.Payload.(*payload.Inventory); ok {
			d.invHashes[inv.Type].Add(uint64(len(inv.Hashes)))
		}
	}
}

// snapshot reads the direction's counters.
func (d *direction) snapshot() (map[string]Count, map[string]uint64) {
	cmds, inv := map[string]Count{}, map[string]uint64{}
	for i := range d.cmds {
		c := &d.cmds[i]
		if n := c.msgs.Load(); n > 0 {
			cmds[message.Command(i).String()] = Count{Messages: n, Bytes: c.bytes.Load()}
		}
		if n := d.invHashes[i].Load(); n > 0 {
			inv[payload.InventoryType(i).String()] = n
		}
	}
	return cmds, inv
}

// Traffic returns the messages and bytes the server sent and received so
// far, by command, and the inventory hashes it announced and was
// announced.
func (s *Server) Traffic() Traffic {
	var t Traffic
	t.Sent, t.InvSent = s.counters.sent.snapshot()
	t.Received, t.InvReceived = s.counters.recv.snapshot()
	t.Reannounced = s.counters.reannounced.Load()
	return t
}
