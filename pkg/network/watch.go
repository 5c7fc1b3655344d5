package network

import (
	"net"
	"net/netip"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Operator visibility: a node alone says so, failed dials are summarised,
// our own address is never listed as a peer.

const (
	// DefaultNoPeersWarn is how long the node may have no handshaked peer
	// before it warns (see Config.NoPeersWarn).
	DefaultNoPeersWarn = time.Minute
	// DefaultDialLogInterval is the period of the failed-dials summary.
	DefaultDialLogInterval = time.Minute
	// noPeersRepeat: while still alone, the warning is repeated every
	// this many NoPeersWarn periods.
	noPeersRepeat = 10
	// dialSampleSize bounds the addresses named in one summary.
	dialSampleSize = 5
)

// dialStats gathers failed dials between two summaries.
type dialStats struct {
	mu    sync.Mutex
	n     int
	addrs map[string]error // last error per address
}

func (d *dialStats) failed(addr string, err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.addrs == nil {
		d.addrs = make(map[string]error)
	}
	d.n++
	d.addrs[addr] = err
}

// take returns and resets the failures since the last call.
func (d *dialStats) take() (n int, addrs map[string]error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n, addrs = d.n, d.addrs
	d.n, d.addrs = 0, nil
	return n, addrs
}

// watcher is the state of the operator log lines; only the server's loop
// goroutine uses it.
type watcher struct {
	started    time.Time
	aloneSince time.Time // zero: has peers
	nextWarn   time.Time // zero: no warning given for this spell
	lastDials  time.Time
}

// watch logs what the operator must know, called from the loop with the
// current time: a WARN when the node has had no peer for NoPeersWarn
// (repeated every noPeersRepeat periods while it lasts) and an INFO when
// it has peers again; a summary at INFO of the dials that failed in the
// last DialLogInterval.
func (s *Server) watch(now time.Time) {
	w := &s.watcher
	if w.started.IsZero() {
		w.started, w.aloneSince, w.lastDials = now, now, now
	}
	_, peers := s.PeerCount()
	s.metrics.peers.Set(float64(peers))
	s.metrics.handshaking.Set(float64(s.HandshakingPeers()))
	switch {
	case peers > 0 && !w.aloneSince.IsZero():
		if !w.nextWarn.IsZero() {
			s.log.Info("peers connected again", zap.Int("peers", peers),
				zap.Duration("alone", now.Sub(w.aloneSince).Round(time.Second)))
		}
		w.aloneSince, w.nextWarn = time.Time{}, time.Time{}
	case peers == 0 && w.aloneSince.IsZero():
		w.aloneSince = now
	case peers == 0 && now.Sub(w.aloneSince) >= s.cfg.NoPeersWarn && !now.Before(w.nextWarn):
		// A node that knows no address to dial is standalone by design.
		if known := s.book.size(); known > 0 {
			s.log.Warn("no peer connected: this node is not in touch with the network",
				zap.Duration("for", now.Sub(w.aloneSince).Round(time.Second)),
				zap.Int("knownAddresses", known), zap.Strings("seeds", s.cfg.Seeds))
			w.nextWarn = now.Add(noPeersRepeat * s.cfg.NoPeersWarn)
		}
	}
	if now.Sub(w.lastDials) >= s.cfg.DialLogInterval {
		w.lastDials = now
		s.logDials()
	}
}

// logDials summarises the failed dials since the last summary in one
// INFO line (nothing when none failed).
func (s *Server) logDials() {
	n, addrs := s.dials.take()
	if n == 0 {
		return
	}
	keys := make([]string, 0, len(addrs))
	for a := range addrs {
		keys = append(keys, a)
	}
	slices.Sort(keys)
	sample := make([]string, 0, dialSampleSize)
	for _, a := range keys[:min(len(keys), dialSampleSize)] {
		sample = append(sample, a+": "+addrs[a].Error())
	}
	s.log.Info("dials failed", zap.Int("failures", n), zap.Int("addresses", len(addrs)),
		zap.Duration("in", s.cfg.DialLogInterval), zap.Strings("sample", sample))
}

// ownAddrs is what identifies our own listening addresses: each
// listener's bound IP and port (every interface address for a listener
// on the unspecified address) and its announced port.
type ownAddrs struct {
	mu    sync.Mutex
	exact map[netip.AddrPort]bool
	ports map[uint16]bool // ports listened on every interface
	ifs   map[netip.Addr]bool
}

// addListener records a listener's bound address and announced port.
func (o *ownAddrs) addListener(bound netip.AddrPort, announced uint16) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.exact == nil {
		o.exact, o.ports, o.ifs = make(map[netip.AddrPort]bool), make(map[uint16]bool), make(map[netip.Addr]bool)
		if as, err := net.InterfaceAddrs(); err == nil {
			for _, a := range as {
				if pfx, err := netip.ParsePrefix(a.String()); err == nil {
					o.ifs[pfx.Addr().Unmap()] = true
				}
			}
		}
	}
	ip := bound.Addr().Unmap()
	for _, port := range []uint16{bound.Port(), announced} {
		if ip.IsUnspecified() {
			o.ports[port] = true
		} else {
			o.exact[netip.AddrPortFrom(ip, port)] = true
		}
	}
}

// is reports whether addr ("IP:port") is one of our listening addresses.
// Host names are not resolved (a seed name that is us is found out by the
// handshake and marked as ourselves).
func (o *ownAddrs) is(addr string) bool {
	ap, err := netip.ParseAddrPort(addr)
	if err != nil {
		return false
	}
	ip := ap.Addr().Unmap()
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.exact[netip.AddrPortFrom(ip, ap.Port())] ||
		o.ports[ap.Port()] && (ip.IsUnspecified() || o.ifs[ip])
}
