package network

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// ConsensusCategory is the extensible category of dBFT messages, which
// travel on the high-priority queue.
const ConsensusCategory = "dBFT"

// broadcast offers m to the handshaked peers that pass keep. With all
// false the peers are a random subset sized by the fan-out (see
// fanOutFor); otherwise every such peer. Peers with room take it at once;
// the others are waited for concurrently until 2/3 of the chosen accepted
// (the rest are cancelled, which is no error) or the broadcast timeout
// passes (a peer still full then is ruled out). It returns the number of
// peers that took m.
func (s *Server) broadcast(m *message.Message, q queueKind, all bool, keep func(*peer) bool) int {
	ps := s.peers(keep)
	if len(ps) == 0 {
		return 0
	}
	rand.Shuffle(len(ps), func(i, j int) { ps[i], ps[j] = ps[j], ps[i] })
	if !all {
		ps = ps[:s.fanOutFor(len(ps))]
	}
	need := (2*len(ps) + 2) / 3
	if s.cfg.BroadcastNoCancel {
		need = len(ps)
	}
	accepted := 0
	var slow []*peer
	for _, p := range ps {
		switch err := p.tryEnqueue(q, m); {
		case err == nil:
			accepted++
		case errors.Is(err, errBusy):
			slow = append(slow, p)
		}
	}
	if accepted >= need || len(slow) == 0 {
		s.skipped(m, len(slow))
		return accepted
	}
	late := s.broadcastSlow(slow, need-accepted, q, m)
	s.skipped(m, len(slow)-late)
	return accepted + late
}

// skipped records the peers a broadcast of m did not reach because their
// queue was full (cancelled once 2/3 of the chosen took it, or ruled out
// at the timeout): gossip reaches them through the others, and a pooled
// transaction is announced again if it stays (txResendLoop).
func (s *Server) skipped(m *message.Message, n int) {
	if n <= 0 {
		return
	}
	s.metrics.skipped.Add(float64(n))
	s.log.Debug("broadcast skipped busy peers", zap.Stringer("command", m.Command), zap.Int("peers", n))
}

// broadcastSlow waits for full peers in parallel until need of them took
// m or the broadcast timeout passed.
func (s *Server) broadcastSlow(slow []*peer, need int, q queueKind, m *message.Message) int {
	ctx, cancel := s.withTimeout(context.Background(), s.cfg.broadcastTimeout())
	defer cancel()
	res := make(chan error, len(slow))
	started := 0
	for _, p := range slow {
		ok := s.goAdd(func() {
			err := p.enqueue(ctx, q, m)
			if errors.Is(err, errBusy) && errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
				p.disconnect(err)
			}
			res <- err
		})
		if ok {
			started++
		}
	}
	accepted := 0
	for range started {
		if err := <-res; err == nil {
			accepted++
			if accepted == need {
				cancel()
			}
		}
	}
	return accepted
}

// fanOutFor is the number of peers (of n eligible) a transaction
// announcement goes to: the fan-out for the estimated network size,
// moved towards n by BroadcastFactor.
func (s *Server) fanOutFor(n int) int {
	f := fanOut(s.book.networkSize())
	k := (f*(100-s.cfg.BroadcastFactor) + n*s.cfg.BroadcastFactor) / 100
	return min(max(k, 1), n)
}

// RelayBlock announces a new block (an inv of its hash) to every peer not
// known to have it.
func (s *Server) RelayBlock(b *block.Block) {
	m, err := message.New(message.CmdInv, &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{b.Hash()}})
	if err != nil {
		s.log.Error("building block inv", zap.Error(err))
		return
	}
	s.broadcast(m, qBroadcast, true, func(p *peer) bool { return p.height.Load() < b.Index })
}

// RelayTxs queues transaction hashes for announcement: they are batched
// for BroadcastTxsBatchDelay into inventories of at most 42 hashes. With
// FirstHandRelayOnly, transactions that came from peers (firstHand false)
// are not announced. It blocks only when the batching queue is full.
func (s *Server) RelayTxs(firstHand bool, hashes ...util.Uint256) {
	if s.cfg.FirstHandRelayOnly && !firstHand {
		return
	}
	for _, h := range hashes {
		select {
		case s.txRelay <- h:
		case <-s.stop:
			return
		}
	}
}

// AnnounceTxs announces transaction hashes at once, in inventories of at
// most InvBatchSize (42) hashes (for callers that batch themselves), to
// the fan-out; with FirstHandRelayOnly to every peer, since no peer
// passes them on.
func (s *Server) AnnounceTxs(hashes []util.Uint256) {
	for _, inv := range payload.SplitInventory(payload.InvTX, hashes, s.cfg.InvBatchSize) {
		m, err := message.New(message.CmdInv, &inv)
		if err != nil {
			s.log.Error("building tx inv", zap.Error(err))
			return
		}
		if s.broadcast(m, qBroadcast, s.cfg.FirstHandRelayOnly, nil) == 0 {
			// Announced again by txResendLoop if it stays in the pool.
			s.log.Debug("transactions announced to no peer", zap.Int("count", len(inv.Hashes)))
		}
	}
}

// txRelayLoop batches RelayTxs hashes: an inv leaves when 42 hashes are
// pending or BroadcastTxsBatchDelay after the first one.
func (s *Server) txRelayLoop(ctx context.Context) {
	batch := make([]util.Uint256, 0, s.cfg.InvBatchSize)
	timer := s.clock.NewTimer(time.Hour)
	timer.Stop()
	flush := func() {
		timer.Stop()
		s.AnnounceTxs(batch)
		batch = batch[:0]
	}
	for {
		select {
		case <-ctx.Done():
			return
		case <-timer.C():
			flush()
		case h := <-s.txRelay:
			if len(batch) == 0 {
				timer.Reset(s.cfg.BroadcastTxsBatchDelay)
			}
			if batch = append(batch, h); len(batch) == s.cfg.InvBatchSize {
				flush()
			}
		}
	}
}

// RelayExtensible caches e for getdata and announces it; consensus
// payloads go on the high-priority queue to every peer.
func (s *Server) RelayExtensible(e *payload.Extensible) {
	h := e.Hash()
	s.ext.put(h, e, s.cfg.Ledger.BlockHeight())
	m, err := message.New(message.CmdInv, &payload.Inventory{Type: payload.InvExtensible, Hashes: []util.Uint256{h}})
	if err != nil {
		s.log.Error("building extensible inv", zap.Error(err))
		return
	}
	if e.Category == ConsensusCategory {
		s.broadcast(m, qHigh, true, nil)
		return
	}
	s.broadcast(m, qBroadcast, true, nil)
}

// RequestTxs asks every handshaked peer for the transactions (getdata, at
// most 500 hashes a message, on the high-priority queue): the consensus
// service calls it for the proposed transactions it lacks. The answers
// reach OnTransaction like any transaction; peers lacking some answer
// notfound.
func (s *Server) RequestTxs(hashes ...util.Uint256) {
	for _, inv := range payload.SplitInventory(payload.InvTX, hashes, payload.MaxHashesCount) {
		m, err := message.New(message.CmdGetData, &inv)
		if err != nil {
			s.log.Error("building tx getdata", zap.Error(err))
			return
		}
		s.broadcast(m, qHigh, true, nil)
	}
}
