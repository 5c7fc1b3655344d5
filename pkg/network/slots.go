package network

import (
	"fmt"
	stdio "io"
	"net/netip"
)

// Handshake slots. A connection counts against MaxPeers only once it has
// finished the handshake. Before that, inbound connections share
// MaxHandshaking slots of their own, at most half of them (at least
// one) per remote IP, and each must send a first byte within
// FirstByteTimeout. A new inbound connection whose IP holds its share
// takes over the slot of that IP's oldest connection (the oldest silent
// one first); when all slots are held it takes over the slot of the
// oldest silent connection, or failing that of the oldest one, of the IP
// holding the most slots. So a
// flood of silent or slow connections from one address churns within
// its own share, and one from many addresses can delay an honest peer by
// one handshake at most, never lock it out. Our own dials are not
// counted: they are few (AttemptConnPeers a round) and chosen by us.

// register adds p to the peers, or says why it cannot be: the server is
// stopping, MaxPeers peers are handshaked already, or (inbound) the
// handshake slots are full and none can be taken over. victim, when not
// nil, is the connection whose slot p takes: the caller disconnects it.
// The caller starts p after a nil error (4 goroutines are accounted for).
func (s *Server) register(p *peer) (victim *peer, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.mu.stopping:
		return nil, ErrShutdown
	case s.mu.handshaked >= s.cfg.MaxPeers:
		return nil, fmt.Errorf("%w: %d handshaked", ErrMaxPeers, s.mu.handshaked)
	}
	if p.dialed == "" {
		c := s.handshakingLocked(p.remote.Addr())
		switch {
		case c.sameIP >= max(s.cfg.MaxHandshaking/2, 1):
			victim = c.sameIPVictim
		case c.n >= s.cfg.MaxHandshaking:
			victim = c.victim
		}
		if victim != nil {
			victim.evicted = true
		} else if c.n >= s.cfg.MaxHandshaking {
			return nil, ErrHandshakeSlots
		}
	}
	s.mu.peers[p] = struct{}{}
	s.wg.Add(4) // under the lock: shutdown's Wait cannot have begun
	return victim, nil
}

// slotCount is how the handshake slots are held.
type slotCount struct {
	n, sameIP    int   // held in all, held by one IP
	victim       *peer // whose slot a newcomer takes when all are held
	sameIPVictim *peer // whose slot a newcomer of that IP takes
}

// handshakingLocked counts the inbound connections holding a handshake
// slot, those of ip among them, and picks the ones a newcomer may take
// over: of ip's own, the oldest silent one, else the oldest; of all, the
// same among the connections of the IP holding the most slots, so that a
// flood from several addresses churns within its own slots and does not
// take the one slot of an honest peer whose first bytes were not read yet.
// Called with s.mu held.
func (s *Server) handshakingLocked(ip netip.Addr) slotCount {
	var c slotCount
	perIP := make(map[netip.Addr]int)
	for q := range s.mu.peers {
		if q.dialed != "" || q.evicted || q.handshaked.Load() {
			continue
		}
		c.n++
		perIP[q.remote.Addr()]++
		if ip.IsValid() && q.remote.Addr() == ip {
			c.sameIP++
			c.sameIPVictim = older(c.sameIPVictim, q)
		}
	}
	most := 0
	for _, n := range perIP {
		most = max(most, n)
	}
	for q := range s.mu.peers {
		if q.dialed != "" || q.evicted || q.handshaked.Load() || perIP[q.remote.Addr()] != most {
			continue
		}
		c.victim = older(c.victim, q)
	}
	return c
}

// older picks between the current choice and q the one whose slot is
// taken over first: a silent one before one that has spoken, then the
// older.
func older(cur, q *peer) *peer {
	switch {
	case cur == nil:
		return q
	case cur.heard.Load() != q.heard.Load():
		if q.heard.Load() {
			return cur
		}
		return q
	case q.created.Before(cur.created):
		return q
	}
	return cur
}

// promote marks p handshaked, unless MaxPeers peers are handshaked
// already (ErrMaxPeers) or p lost its slot meanwhile.
func (s *Server) promote(p *peer) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case p.evicted:
		return ErrHandshakeSlots
	case s.mu.handshaked >= s.cfg.MaxPeers:
		return fmt.Errorf("%w: %d handshaked", ErrMaxPeers, s.mu.handshaked)
	}
	s.mu.handshaked++
	p.handshaked.Store(true)
	return nil
}

// dialRoom is the number of dials MaxPeers leaves room for: the
// handshaked peers and our dials in progress count, inbound connections
// still handshaking do not.
func (s *Server) dialRoom() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	used := 0
	for q := range s.mu.peers {
		if q.handshaked.Load() || q.dialed != "" {
			used++
		}
	}
	return max(s.cfg.MaxPeers-used, 0)
}

// HandshakingPeers is the number of inbound connections that hold a
// handshake slot (connected, not handshaked).
func (s *Server) HandshakingPeers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.handshakingLocked(netip.Addr{}).n
}

// firstByteReader notes the peer's first byte: the peer is no longer
// silent (its slot is taken over last, and the first-byte timer lets it
// be; HandshakeTimeout still bounds the handshake).
type firstByteReader struct {
	r stdio.Reader
	p *peer
}

func (f *firstByteReader) Read(b []byte) (int, error) {
	n, err := f.r.Read(b)
	if n > 0 && !f.p.heard.Load() {
		f.p.heard.Store(true)
	}
	return n, err
}
