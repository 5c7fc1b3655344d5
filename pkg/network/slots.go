package network

import (
	"fmt"
	stdio "io"
)

// Handshake slots. A connection counts against MaxPeers only once it has
// finished the handshake. Before that, inbound connections share
// MaxHandshaking slots of their own, and each must send a first byte
// within FirstByteTimeout. When the slots are full, a new inbound
// connection takes the slot of the oldest one that has not sent a byte
// yet, or failing that of the oldest one still handshaking: a flood of
// silent or slow connections can delay an honest peer by one handshake
// at most, never lock it out. Our own dials are not counted: they are
// few (AttemptConnPeers a round) and chosen by us.

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
		pending, oldest := s.handshakingLocked()
		if pending >= s.cfg.MaxHandshaking {
			if oldest == nil {
				return nil, ErrHandshakeSlots
			}
			oldest.evicted = true
			victim = oldest
		}
	}
	s.mu.peers[p] = struct{}{}
	s.wg.Add(4) // under the lock: shutdown's Wait cannot have begun
	return victim, nil
}

// handshakingLocked counts the inbound connections holding a handshake
// slot and picks the one a newcomer may take over: the oldest silent one,
// else the oldest. Called with s.mu held.
func (s *Server) handshakingLocked() (n int, victim *peer) {
	var silent, any *peer
	for q := range s.mu.peers {
		if q.dialed != "" || q.evicted || q.handshaked.Load() {
			continue
		}
		n++
		if !q.heard.Load() && (silent == nil || q.created.Before(silent.created)) {
			silent = q
		}
		if any == nil || q.created.Before(any.created) {
			any = q
		}
	}
	if silent != nil {
		return n, silent
	}
	return n, any
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

// HandshakingPeers is the number of inbound connections that hold a
// handshake slot (connected, not handshaked).
func (s *Server) HandshakingPeers() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, _ := s.handshakingLocked()
	return n
}

// firstByteReader notes the peer's first byte: the peer is no longer
// silent (its slot is taken over last) and its read deadline moves from
// FirstByteTimeout to HandshakeTimeout after its creation.
type firstByteReader struct {
	r stdio.Reader
	p *peer
}

func (f *firstByteReader) Read(b []byte) (int, error) {
	n, err := f.r.Read(b)
	if n > 0 && !f.p.heard.Load() {
		f.p.heard.Store(true)
		if !f.p.handshaked.Load() {
			derr := f.p.conn.SetReadDeadline(f.p.created.Add(f.p.s.cfg.HandshakeTimeout))
			if derr != nil && err == nil {
				err = fmt.Errorf("set deadline: %w", derr)
			}
		}
	}
	return n, err
}
