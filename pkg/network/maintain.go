package network

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"

	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"go.uber.org/zap"
)

// loop is the server's housekeeping goroutine (Run's own): it dials when
// below the wanted number of peers, asks for addresses, pings peers and
// times out unanswered pings. The discovery timer is adaptive: every
// ProtoTickInterval while below the minimum, four times slower otherwise.
// All run on the server's clock.
func (s *Server) loop(ctx context.Context, t loopTimers) {
	tick, retry, disc := t.tick, t.retry, t.disc
	defer tick.Stop()
	defer retry.Stop()
	defer disc.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C():
			// The clock's time now, not the tick's: a fake clock advanced
			// by several periods delivers its first tick only.
			now := s.clock.Now()
			s.pingPeers(now)
			s.watch(now)
		case <-retry.C():
			s.retryRequests(s.clock.Now())
		case <-disc.C():
			disc.Reset(s.discover(ctx))
		}
	}
}

// loopTimers are the timers of the server's loop, armed by Run before
// Ready is closed.
type loopTimers struct {
	tick, retry clock.Ticker
	disc        clock.Timer
}

// fanOut is the number of peers a gossip message should reach in a
// network of n nodes for it to reach all of them with high probability
// (ln n plus a margin).
func fanOut(n int) int {
	if n <= 2 {
		return 1
	}
	return int(math.Ceil(2.5 * math.Log(float64(n))))
}

// wantPeers is the number of peers to keep: MinPeers, raised to the
// fan-out the known network size calls for (never above the network
// itself or MaxPeers).
func (s *Server) wantPeers() int {
	n := s.book.networkSize()
	return min(max(s.cfg.MinPeers, min(fanOut(n), n-1)), s.cfg.MaxPeers)
}

// discover runs one discovery round and returns the delay to the next.
func (s *Server) discover(ctx context.Context) time.Duration {
	_, handshaked := s.PeerCount()
	want := s.wantPeers()
	next := 4 * s.cfg.ProtoTickInterval
	if handshaked < want {
		next = s.cfg.ProtoTickInterval
		n := min(s.cfg.AttemptConnPeers, s.dialRoom())
		for _, a := range s.book.candidates(n) {
			s.goAdd(func() { s.dial(ctx, a) })
		}
	}
	h := s.cfg.Ledger.BlockHeight()
	s.mu.Lock()
	periodic := h >= s.mu.lastAddrH+getAddrEvery
	if periodic {
		s.mu.lastAddrH = h
	}
	s.mu.Unlock()
	if periodic || s.book.unconnected()+handshaked < s.cfg.AttemptConnPeers {
		s.requestAddrs(nil)
	}
	return next
}

// requestAddrs sends getaddr to the given peers (nil: every handshaked
// peer), counting the requests so that only solicited addr replies are
// taken.
func (s *Server) requestAddrs(ps []*peer) {
	if ps == nil {
		ps = s.peers(nil)
	}
	m, err := message.New(message.CmdGetAddr, nil)
	if err != nil {
		s.log.Error("building getaddr", zap.Error(err))
		return
	}
	for _, p := range ps {
		p.mu.Lock()
		p.mu.getAddrSent++
		p.mu.Unlock()
		if err := p.tryEnqueue(qHigh, m); err != nil {
			s.log.Debug("getaddr not sent", zap.Stringer("addr", p), zap.Error(err))
		}
	}
}

// pingPeers disconnects peers that did not answer a ping within
// PingTimeout and pings those not pinged for PingInterval.
func (s *Server) pingPeers(now time.Time) {
	for _, p := range s.peers(nil) {
		p.mu.Lock()
		sent, last := p.mu.pingSent, p.mu.lastPing
		p.mu.Unlock()
		switch {
		case !sent.IsZero() && now.Sub(sent) > s.cfg.PingTimeout:
			p.disconnect(ErrPingTimeout)
		case sent.IsZero() && now.Sub(last) >= s.cfg.PingInterval:
			s.ping(p, now)
		}
	}
}

// ping sends a ping with our height.
func (s *Server) ping(p *peer, now time.Time) {
	m, err := message.New(message.CmdPing, &payload.Ping{
		LastBlockIndex: s.cfg.Ledger.BlockHeight(),
		Timestamp:      uint32(now.Unix()),
		Nonce:          rand.Uint32(),
	})
	if err != nil {
		s.log.Error("building ping", zap.Error(err))
		return
	}
	p.mu.Lock()
	p.mu.pingSent, p.mu.lastPing = now, now
	p.mu.Unlock()
	if err := p.tryEnqueue(qHigh, m); err != nil {
		s.log.Debug("ping not sent", zap.Stringer("addr", p), zap.Error(err))
	}
}
