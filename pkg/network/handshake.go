package network

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"go.uber.org/zap"
)

// handleHandshake handles a message from a peer that has not finished
// the handshake. Both sides send their version at once; each answers the
// other's version with a verack; a peer is handshaked once it has sent
// both, in this order. Anything else before that disconnects it.
func (s *Server) handleHandshake(p *peer, m *message.Message) error {
	p.mu.Lock()
	stage := p.mu.stage
	p.mu.Unlock()
	switch {
	case m.Command == message.CmdVersion && stage&stageVersionReceived == 0:
		v, ok := m.Payload.(*payload.Version)
		if !ok {
			return fmt.Errorf("%w: version without payload", ErrHandshake)
		}
		if err := s.acceptVersion(p, v); err != nil {
			return err
		}
		verack, err := message.New(message.CmdVerack, nil)
		if err != nil {
			return err
		}
		return p.tryEnqueue(qHigh, verack)
	case m.Command == message.CmdVerack && stage&stageVersionReceived != 0 && stage&stageVerackReceived == 0:
		p.mu.Lock()
		p.mu.stage |= stageVerackReceived
		p.mu.lastPing = s.clock.Now()
		p.mu.Unlock()
		if err := s.promote(p); err != nil {
			return err
		}
		p.stopTimers()
		s.onHandshake(p)
		return nil
	default:
		return fmt.Errorf("%w: %s before the handshake completed", ErrHandshake, m.Command)
	}
}

// acceptVersion checks a peer's version (network, not ourselves, not
// already connected) and records it.
func (s *Server) acceptVersion(p *peer, v *payload.Version) error {
	if v.Network != s.cfg.Magic {
		return fmt.Errorf("%w: magic %d, ours %d", ErrWrongMagic, v.Network, s.cfg.Magic)
	}
	if v.Nonce == s.nonce {
		return ErrSelf
	}
	s.mu.Lock()
	other, dup := s.mu.nonces[v.Nonce]
	keepNew := dup && s.preferNew(p, v.Nonce)
	if !dup || keepNew {
		s.mu.nonces[v.Nonce] = p
	}
	s.mu.Unlock()
	switch {
	case keepNew:
		other.disconnect(fmt.Errorf("%w: replaced by %s", ErrAlreadyConnected, p))
	case dup:
		return fmt.Errorf("%w: nonce %d is %s", ErrAlreadyConnected, v.Nonce, other)
	}

	p.mu.Lock()
	p.mu.version = v
	p.mu.stage |= stageVersionReceived
	p.mu.Unlock()
	if h, ok := v.Capabilities.StartHeight(); ok {
		p.updateHeight(h)
	}
	p.compress.Store(v.AllowCompression())
	return nil
}

// onHandshake starts the protocol with a new peer: the address book
// learns it is good, the sync loop looks at its height, and, while we
// know few addresses, it is asked for more.
func (s *Server) onHandshake(p *peer) {
	v := p.version()
	s.book.handshaked(p)
	s.log.Info("peer handshaked", zap.Stringer("addr", p), zap.String("userAgent", v.UserAgent),
		zap.Uint32("height", p.height.Load()), zap.Uint32("nonce", v.Nonce))
	if _, n := s.PeerCount(); s.book.unconnected()+n < s.cfg.AttemptConnPeers {
		s.requestAddrs([]*peer{p})
	}
	s.kickSync()
	if s.cfg.OnHandshake != nil {
		s.cfg.OnHandshake()
	}
}

// preferNew decides which of two connections to the same node survives
// when they cross (both nodes dialled each other): the one dialled by
// the node with the lower nonce. Both ends apply the same rule, so they
// keep the same connection instead of dropping both.
func (s *Server) preferNew(p *peer, theirs uint32) bool {
	outbound := p.dialed != ""
	return outbound == (s.nonce < theirs)
}
