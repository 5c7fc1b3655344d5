package memnet

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"
)

// DefaultBufferSize is the bytes a stream holds unread (Config.BufferSize).
const DefaultBufferSize = 256 << 10

// Errors of dials and connections.
var (
	// ErrRefused: nothing listens on the dialled address (or its accept
	// backlog is full).
	ErrRefused = errors.New("memnet: connection refused")
	// ErrUnreachable: the link between the hosts is down.
	ErrUnreachable = errors.New("memnet: network unreachable")
	// ErrReset: the other end closed the connection (a write) or the
	// network cut it (Network.Cut).
	ErrReset = errors.New("memnet: connection reset")
	// ErrAddress: an address is not "IP:port" or not the host's.
	ErrAddress = errors.New("memnet: bad address")
)

// acceptBacklog is the connections a listener holds before Accept takes
// them; a dial beyond it is refused.
const acceptBacklog = 128

// firstEphemeralPort is the first port given to dialling ends and to
// listeners on port 0.
const firstEphemeralPort = 40000

// Config configures a Network.
type Config struct {
	// Clock times the delivery of delayed bytes (clock.Real when nil).
	Clock clock.Clock
	// Seed seeds the jitter and loss draws.
	Seed uint64
	// BufferSize bounds the unread bytes of a stream (DefaultBufferSize
	// when 0).
	BufferSize int
}

// Link is what the network does to the bytes written from one host to
// another.
type Link struct {
	// Latency delays every write's bytes by this much.
	Latency time.Duration
	// Jitter adds a uniform delay in [0, Jitter) to each write; the
	// order of the bytes is kept (a write is never delivered before an
	// earlier one).
	Jitter time.Duration
	// Bandwidth, in bytes per second, spaces the writes (0: unlimited).
	Bandwidth int64
	// Loss is the probability (0..1) that a write is lost once and
	// delivered after RetransmitDelay more.
	Loss float64
	// RetransmitDelay is the delay a lost write takes (200 ms when 0).
	RetransmitDelay time.Duration
	// Down holds every byte on the link until it is up again and makes
	// dials across it fail with ErrUnreachable: one side of a partition.
	Down bool
}

// defaultRetransmit is Link.RetransmitDelay's default (TCP's minimum RTO).
const defaultRetransmit = 200 * time.Millisecond

// pair is an ordered pair of hosts: a link's direction.
type pair struct{ from, to netip.Addr }

// Network is a set of hosts and the links between them. Its methods are
// safe for concurrent use.
type Network struct {
	clock clock.Clock
	bufSz int

	mu        sync.Mutex
	rng       *rand.Rand
	listeners map[netip.AddrPort]*listener
	ports     map[netip.Addr]uint16 // the last port given out per host
	links     map[pair]Link
	def       Link
	conns     map[*conn]struct{}
	closed    bool
	paused    map[netip.Addr]bool // hosts that stopped reading (faults.go)
	parted    map[pair]bool       // directions a Partition took down

	sent sync.Map // netip.Addr -> *sentStats
}

// sentStats counts what a host wrote.
type sentStats struct{ bytes, writes atomic.Uint64 }

// Sent returns the bytes and the Write calls that host ip has written on
// all its connections since the network was made (a Write of the P2P
// server is about one message).
func (n *Network) Sent(ip netip.Addr) (bytes, writes uint64) {
	v, ok := n.sent.Load(ip.Unmap())
	if !ok {
		return 0, 0
	}
	st := v.(*sentStats)
	return st.bytes.Load(), st.writes.Load()
}

func (n *Network) countSent(from netip.Addr, size int) {
	v, ok := n.sent.Load(from)
	if !ok {
		v, _ = n.sent.LoadOrStore(from, new(sentStats))
	}
	st := v.(*sentStats)
	st.bytes.Add(uint64(size))
	st.writes.Add(1)
}

// New returns an empty network.
func New(cfg Config) *Network {
	if cfg.BufferSize <= 0 {
		cfg.BufferSize = DefaultBufferSize
	}
	return &Network{
		clock:     clock.OrReal(cfg.Clock),
		bufSz:     cfg.BufferSize,
		rng:       rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x6d656d6e6574)),
		listeners: make(map[netip.AddrPort]*listener),
		ports:     make(map[netip.Addr]uint16),
		links:     make(map[pair]Link),
		conns:     make(map[*conn]struct{}),
		paused:    make(map[netip.Addr]bool),
		parted:    make(map[pair]bool),
	}
}

// Host returns the host with address ip: its Listen and Dial make it a
// network.Transport.
func (n *Network) Host(ip netip.Addr) *Host { return &Host{n: n, ip: ip.Unmap()} }

// SetDefaultLink sets the link of every direction not set by SetLink.
func (n *Network) SetDefaultLink(l Link) {
	n.mu.Lock()
	n.def = l
	n.mu.Unlock()
	n.wakeAll()
}

// SetLink sets the link from one host to another (one direction).
func (n *Network) SetLink(from, to netip.Addr, l Link) {
	n.mu.Lock()
	n.links[pair{from.Unmap(), to.Unmap()}] = l
	n.mu.Unlock()
	n.wakeAll()
}

// Partition takes the links between the two groups of hosts down (both
// directions: bytes held, dials refused) or, with down false, up again.
// It is kept apart from the links' settings: a link healed is the link
// set by SetLink or SetDefaultLink, whatever those became meanwhile.
func (n *Network) Partition(a, b []netip.Addr, down bool) {
	n.mu.Lock()
	for _, x := range a {
		for _, y := range b {
			for _, p := range []pair{{x.Unmap(), y.Unmap()}, {y.Unmap(), x.Unmap()}} {
				if down {
					n.parted[p] = true
				} else {
					delete(n.parted, p)
				}
			}
		}
	}
	n.mu.Unlock()
	n.wakeAll()
}

// Cut closes every connection between hosts a and b, as a reset: both
// ends fail their reads and writes at once.
func (n *Network) Cut(a, b netip.Addr) int {
	a, b = a.Unmap(), b.Unmap()
	n.mu.Lock()
	var cut []*conn
	for c := range n.conns {
		l, r := c.local.Addr(), c.remote.Addr()
		if l == a && r == b || l == b && r == a {
			cut = append(cut, c)
		}
	}
	n.mu.Unlock()
	for _, c := range cut {
		c.reset()
	}
	return len(cut) / 2
}

// Close closes every listener and connection; later dials and listens
// fail.
func (n *Network) Close() {
	n.mu.Lock()
	n.closed = true
	ls := make([]*listener, 0, len(n.listeners))
	for _, l := range n.listeners {
		ls = append(ls, l)
	}
	cs := make([]*conn, 0, len(n.conns))
	for c := range n.conns {
		cs = append(cs, c)
	}
	n.mu.Unlock()
	for _, l := range ls {
		_ = l.Close()
	}
	for _, c := range cs {
		_ = c.Close()
	}
}

// Conns is the number of open connection ends.
func (n *Network) Conns() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.conns)
}

// linkLocked is the link from one host to another, Down when a
// Partition took it down.
func (n *Network) linkLocked(from, to netip.Addr) Link {
	l, ok := n.links[pair{from, to}]
	if !ok {
		l = n.def
	}
	l.Down = l.Down || n.parted[pair{from, to}]
	return l
}

// delay is the delivery time of a write of size bytes at now on the link
// from→to, given when the link is busy until (bandwidth) and the last
// delivery time of the stream (order); it returns the new busy time.
func (n *Network) delay(from, to netip.Addr, now, busy, last time.Time, size int) (at, busyUntil time.Time, down bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := n.linkLocked(from, to)
	start := now
	if busy.After(start) {
		start = busy
	}
	busyUntil = start
	if l.Bandwidth > 0 {
		busyUntil = start.Add(time.Duration(int64(size) * int64(time.Second) / l.Bandwidth))
	}
	at = busyUntil.Add(l.Latency)
	if l.Jitter > 0 {
		at = at.Add(time.Duration(n.rng.Int64N(int64(l.Jitter))))
	}
	if l.Loss > 0 && n.rng.Float64() < l.Loss {
		rto := l.RetransmitDelay
		if rto == 0 {
			rto = defaultRetransmit
		}
		at = at.Add(rto)
	}
	if at.Before(last) {
		at = last
	}
	return at, busyUntil, l.Down
}

// wakeAll wakes every stream's waiters (a link changed).
func (n *Network) wakeAll() {
	n.mu.Lock()
	ss := make([]*stream, 0, len(n.conns))
	for c := range n.conns {
		ss = append(ss, c.in)
	}
	n.mu.Unlock()
	for _, s := range ss {
		s.mu.Lock()
		s.wakeLocked()
		s.mu.Unlock()
	}
}

// port gives out a free port of ip (called with n.mu held).
func (n *Network) portLocked(ip netip.Addr) (uint16, error) {
	for range 1 << 16 {
		p := n.ports[ip]
		if p < firstEphemeralPort {
			p = firstEphemeralPort - 1
		}
		p++
		if p == 0 {
			p = firstEphemeralPort
		}
		n.ports[ip] = p
		if _, used := n.listeners[netip.AddrPortFrom(ip, p)]; !used {
			return p, nil
		}
	}
	return 0, fmt.Errorf("%w: no free port on %s", ErrAddress, ip)
}

// Host is one machine of a Network, named by its IP address.
type Host struct {
	n  *Network
	ip netip.Addr
}

// IP is the host's address.
func (h *Host) IP() netip.Addr { return h.ip }

// Listen listens on addr: "IP:port" with the host's IP, the unspecified
// address or no host (all mean the host's IP); port 0 takes a free port.
func (h *Host) Listen(_ context.Context, addr string) (net.Listener, error) {
	ap, err := h.parse(addr, true)
	if err != nil {
		return nil, err
	}
	n := h.n
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, net.ErrClosed
	}
	if ap.Port() == 0 {
		p, err := n.portLocked(h.ip)
		if err != nil {
			return nil, err
		}
		ap = netip.AddrPortFrom(h.ip, p)
	}
	if _, used := n.listeners[ap]; used {
		return nil, fmt.Errorf("memnet: listen %s: address already in use", ap)
	}
	l := &listener{n: n, addr: ap, conns: make(chan *conn, acceptBacklog), done: make(chan struct{})}
	n.listeners[ap] = l
	return l, nil
}

// Dial connects to addr ("IP:port") from this host. It fails at once
// with ErrRefused when nothing listens there and ErrUnreachable when a
// link between the hosts is down.
func (h *Host) Dial(ctx context.Context, addr string) (net.Conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ap, err := h.parse(addr, false)
	if err != nil {
		return nil, err
	}
	n := h.n
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return nil, net.ErrClosed
	}
	if n.linkLocked(h.ip, ap.Addr()).Down || n.linkLocked(ap.Addr(), h.ip).Down {
		return nil, fmt.Errorf("dial %s: %w", addr, ErrUnreachable)
	}
	l := n.listeners[ap]
	if l == nil {
		return nil, fmt.Errorf("dial %s: %w", addr, ErrRefused)
	}
	port, err := n.portLocked(h.ip)
	if err != nil {
		return nil, err
	}
	local := netip.AddrPortFrom(h.ip, port)
	c2s, s2c := newStream(n, local.Addr(), ap.Addr()), newStream(n, ap.Addr(), local.Addr())
	client := &conn{n: n, local: local, remote: ap, in: s2c, out: c2s}
	server := &conn{n: n, local: ap, remote: local, in: c2s, out: s2c}
	select {
	case l.conns <- server:
	default:
		return nil, fmt.Errorf("dial %s: %w (backlog full)", addr, ErrRefused)
	}
	n.conns[client], n.conns[server] = struct{}{}, struct{}{}
	return client, nil
}

func (h *Host) parse(addr string, listen bool) (netip.AddrPort, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%w: %q: %w", ErrAddress, addr, err)
	}
	if listen && host == "" {
		host = h.ip.String()
	}
	ap, err := netip.ParseAddrPort(net.JoinHostPort(host, port))
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%w: %q: %w", ErrAddress, addr, err)
	}
	ip := ap.Addr().Unmap()
	if listen {
		if ip.IsUnspecified() {
			ip = h.ip
		}
		if ip != h.ip {
			return netip.AddrPort{}, fmt.Errorf("%w: %s is not host %s", ErrAddress, addr, h.ip)
		}
	}
	return netip.AddrPortFrom(ip, ap.Port()), nil
}

// Addr is a memnet address.
type Addr netip.AddrPort

// Network implements net.Addr.
func (Addr) Network() string { return "memnet" }

// String implements net.Addr: "IP:port".
func (a Addr) String() string { return netip.AddrPort(a).String() }

// listener is a Host's listener.
type listener struct {
	n     *Network
	addr  netip.AddrPort
	conns chan *conn
	done  chan struct{}
	once  sync.Once
}

func (l *listener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *listener) Close() error {
	err := net.ErrClosed
	l.once.Do(func() {
		err = nil
		close(l.done)
		l.n.mu.Lock()
		if l.n.listeners[l.addr] == l {
			delete(l.n.listeners, l.addr)
		}
		l.n.mu.Unlock()
		for {
			select {
			case c := <-l.conns: // dialled, never accepted
				c.reset()
			default:
				return
			}
		}
	})
	return err
}

func (l *listener) Addr() net.Addr { return Addr(l.addr) }
