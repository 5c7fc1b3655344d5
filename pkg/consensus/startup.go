package consensus

import (
	"context"
	"time"

	"github.com/nspcc-dev/dbft"
	"go.uber.org/zap"
)

// peerPoll is how often the wait for peers asks Config.ConnectedPeers
// when NotifyPeers does not wake it first.
const peerPoll = 200 * time.Millisecond

// defaultStartWait bounds the wait for peers when Config.StartWait is 0.
const defaultStartWait = time.Minute

// minPeers is how many connected peers the first round waits for:
// Config.MinPeers, or the other validators of a quorum (M-1).
func (s *Service) minPeers() int {
	if s.cfg.MinPeers > 0 {
		return s.cfg.MinPeers
	}
	n := s.cfg.Protocol.ValidatorsCountAt(s.cfg.Ledger.BlockHeight() + 1)
	return n - (n-1)/3 - 1
}

// waitForPeers holds the first round until the node has the peers it
// needs, so that the primary's first PrepareRequest is not sent to
// nobody (a view change at every network start). It returns early when
// a consensus payload arrives (the others run: it is handed back to be
// processed after the start) and after StartWait; false when ctx ends.
func (s *Service) waitForPeers(ctx context.Context) (first *Payload, ok bool) {
	need := s.minPeers()
	if s.cfg.ConnectedPeers == nil || need <= 0 {
		return nil, true
	}
	deadline := s.clock.NewTimer(s.cfg.StartWait)
	defer deadline.Stop()
	logged := false
	for {
		n := s.cfg.ConnectedPeers()
		if n >= need {
			if logged {
				s.log.Info("peers connected, starting consensus", zap.Int("peers", n))
			}
			return nil, true
		}
		if !logged {
			s.log.Info("waiting for peers before the first round", zap.Int("peers", n), zap.Int("need", need),
				zap.Duration("atMost", s.cfg.StartWait))
			logged = true
		}
		poll := s.clock.NewTimer(peerPoll)
		select {
		case <-ctx.Done():
			poll.Stop()
			return nil, false
		case <-deadline.C():
			poll.Stop()
			s.log.Warn("starting consensus without the peers it needs", zap.Int("peers", s.cfg.ConnectedPeers()),
				zap.Int("need", need))
			return nil, true
		case p := <-s.messages:
			poll.Stop()
			s.log.Info("consensus payload received, starting consensus", zap.Int("peers", s.cfg.ConnectedPeers()))
			return p, true
		case <-s.peerWake:
		case <-poll.C():
		}
		poll.Stop()
	}
}

// NotifyPeers tells the service that a peer connected (it ends the wait
// for peers sooner than the poll). It never blocks.
func (s *Service) NotifyPeers() {
	select {
	case s.peerWake <- struct{}{}:
	default:
	}
}

// requestRecovery asks the other validators for the state of the round
// (as the reference does on start): a node that starts late, or
// restarts, gets the proposal it missed from their recovery messages.
func (s *Service) requestRecovery() {
	if s.dbft.Context.WatchOnly() || s.dbft.N() < 2 || s.dbft.BlockSent() {
		return
	}
	req := newRecoveryRequest(uint64(s.clock.Now().UnixNano()))
	s.broadcast(s.newPayload(&s.dbft.Context, dbft.RecoveryRequestType, req).(*Payload))
}
