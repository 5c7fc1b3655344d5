package network

import (
	"errors"
	"time"
)

// errTolerated marks a peer error that is not the peer's fault on its
// own: an extensible payload for a height we are not at (it may be a
// block ahead of us) or a getmptdata for a node we do not keep. neo-go
// keeps such a peer until it sends more of them within one block time than
// its ring allows (tcp_peer.go: the number of consensus nodes × 3 × 10),
// then drops it; so do we.
var errTolerated = errors.New("network: tolerated peer error")

// toleratedPerValidator is neo-go's ring size per consensus node: 3
// blocks above the current height for each validator's payloads, × 10
// for other harmless errors.
const toleratedPerValidator = 3 * 10

// tolerance is a peer's ring of the times of its last tolerated errors
// (owned by the peer's handleLoop).
type tolerance struct {
	ring []time.Time
	next int
}

// allow records an error at now and reports whether the peer may stay:
// false once the ring is full of errors younger than frame.
func (t *tolerance) allow(now time.Time, size int, frame time.Duration) bool {
	if size < 1 {
		size = 1
	}
	if len(t.ring) != size {
		t.ring, t.next = make([]time.Time, size), 0
	}
	t.ring[t.next] = now
	t.next = (t.next + 1) % size
	oldest := t.ring[t.next]
	return oldest.IsZero() || now.Sub(oldest) > frame
}

// toleratedErrors is the ring size for the current height.
func (s *Server) toleratedErrors() int {
	n := 1
	if s.cfg.ValidatorsCount != nil {
		n = max(s.cfg.ValidatorsCount(), 1)
	}
	return n * toleratedPerValidator
}
