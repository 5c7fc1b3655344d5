package network

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/clock"

	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"go.uber.org/zap"
)

const (
	// syncChunk is the number of blocks asked for in one getblockbyindex,
	// the most a reference node serves per request.
	syncChunk = payload.MaxHashesCount
	// syncWindow is how far above our height blocks are requested: the
	// block queue's window (blockqueue.DefaultSize).
	syncWindow = 2000
	// chunksPerPeer bounds the requests one peer serves at a time.
	chunksPerPeer = 2
)

// chunkReq is one outstanding getblockbyindex.
type chunkReq struct {
	p          *peer
	start, end uint32    // requested indexes, inclusive
	recv       uint32    // highest index received from it
	progress   time.Time // last block received (or the request)
}

// syncer requests blocks from peers ahead of us. The index space is cut
// into 500-block chunks (aligned on multiples of 500); each chunk within
// the window above our height is requested from one peer that has it,
// spreading chunks over peers, at most two per peer. A chunk is done when
// our height passes its end; one whose peer went away or stalled is asked
// from another peer. Blocks go to the block queue, which orders them.
type syncer struct {
	s *Server
	// height is the index the requests start above: the ledger's
	// height, or for the blocks of a state sync's window the module's.
	height func() uint32
	// limit caps the requested indexes (the sync point for a state
	// sync's window).
	limit func() uint32
	mu    struct {
		sync.Mutex
		reqs map[uint32]*chunkReq // by chunk number (index / syncChunk)
	}
}

func newSyncer(s *Server) *syncer {
	return newSyncerOver(s, s.cfg.Ledger.BlockHeight, func() uint32 { return math.MaxUint32 })
}

// newSyncerOver is a syncer filling the indexes above height up to limit.
func newSyncerOver(s *Server, height, limit func() uint32) *syncer {
	y := &syncer{s: s, height: height, limit: limit}
	y.mu.reqs = make(map[uint32]*chunkReq)
	return y
}

// stallTimeout: a request without a block for this long is given up.
func (y *syncer) stallTimeout() time.Duration {
	return max(2*y.s.cfg.sendTimeout(), 5*time.Second)
}

// run re-evaluates the requests when kicked (new peer, height news, block
// received) and every ProtoTickInterval.
func (y *syncer) run(ctx context.Context, tick clock.Ticker) {
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C():
		case <-y.s.kick:
		}
		now := y.s.clock.Now()
		if ss := y.s.ssync; ss != nil && ss.drive(now) {
			continue // a state sync runs: it requests what it needs
		}
		y.request(now)
	}
}

// received notes a block from p (progress of its request).
func (y *syncer) received(p *peer, index uint32) {
	y.mu.Lock()
	defer y.mu.Unlock()
	if r := y.mu.reqs[index/syncChunk]; r != nil && r.p == p && index >= r.start && index <= r.end {
		r.recv = max(r.recv, index)
		r.progress = y.s.clock.Now()
	}
}

// peerGone frees the chunks of a disconnected peer.
func (y *syncer) peerGone(p *peer) {
	y.mu.Lock()
	defer y.mu.Unlock()
	for k, r := range y.mu.reqs {
		if r.p == p {
			delete(y.mu.reqs, k)
		}
	}
	y.s.kickSync()
}

// request drops finished and stalled chunks and asks peers for the
// missing ones.
func (y *syncer) request(now time.Time) {
	h, lim := y.height(), y.limit()
	ps := y.s.peers(func(p *peer) bool { return p.height.Load() > h && h < lim })
	y.mu.Lock()
	held := make(map[*peer]int, len(ps))
	for k, r := range y.mu.reqs {
		stall := y.stallTimeout()
		if r.recv == r.end {
			stall *= 4 // all sent: the queue may just be slow to add them
		}
		if h >= r.end || now.Sub(r.progress) > stall {
			delete(y.mu.reqs, k)
			continue
		}
		held[r.p]++
	}
	type send struct {
		p   *peer
		req payload.GetBlockByIndex
	}
	var out []send
	for _, p := range ps {
		ph := p.height.Load()
		for held[p] < chunksPerPeer {
			r := y.nextChunkLocked(p, h, min(ph, lim), now)
			if r == nil {
				break
			}
			held[p]++
			out = append(out, send{p, payload.GetBlockByIndex{IndexStart: r.start, Count: int16(r.end - r.start + 1)}})
		}
	}
	y.mu.Unlock()
	for _, o := range out {
		err := o.p.sendNew(qDirect, message.CmdGetBlockByIndex, &o.req)
		y.s.log.Debug("blocks requested", zap.Stringer("addr", o.p), zap.Uint32("start", o.req.IndexStart),
			zap.Int16("count", o.req.Count), zap.Error(err))
	}
}

// nextChunkLocked reserves for p the lowest unrequested chunk between our
// height h and the peer's height ph, within the window.
func (y *syncer) nextChunkLocked(p *peer, h, ph uint32, now time.Time) *chunkReq {
	top := min(ph, h+syncWindow)
	for k := (h + 1) / syncChunk; k*syncChunk <= top; k++ {
		if _, taken := y.mu.reqs[k]; taken {
			continue
		}
		r := &chunkReq{p: p, start: max(k*syncChunk, h+1), end: min(k*syncChunk+syncChunk-1, top), progress: now}
		r.recv = r.start - 1
		y.mu.reqs[k] = r
		return r
	}
	return nil
}
