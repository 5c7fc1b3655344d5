package network

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// StateSync is the chain's state synchronisation as the server drives it
// (the chain's module behind an adapter in pkg/node). A node far behind
// its peers takes the state at a sync point from them instead of
// executing every block: first the header chain past the sync point, then
// the state trie of the sync point (MPT nodes) and the blocks of the
// traceable window below it, then the module jumps the chain to the sync
// point and blocks are added as usual. Every method may be called from
// several goroutines.
type StateSync interface {
	// IsInitialized reports whether Init ran (successfully).
	IsInitialized() bool
	// Init starts a sync towards the peers' height h (the median of the
	// handshaked peers'): it picks the sync point, or leaves the module
	// inactive when the chain is close enough to h to add every block.
	Init(h uint32) error
	// IsActive reports whether blocks must go to the module rather than
	// to the chain: true before Init and until the jump to the sync point.
	IsActive() bool
	// SyncPoint is the height whose state is being synchronised (after
	// Init).
	SyncPoint() uint32

	// NeedHeaders reports whether headers are wanted above HeaderHeight.
	NeedHeaders() bool
	// HeaderHeight is the index of the last verified header.
	HeaderHeight() uint32
	// AddHeaders verifies and stores headers (in order, the first at
	// most HeaderHeight+1; those already known are skipped). An error
	// means an invalid header: its sender is dropped.
	AddHeaders(hs []*block.Header) error

	// NeedMPTNodes reports whether state trie nodes are still missing.
	NeedMPTNodes() bool
	// UnknownMPTNodes returns up to limit hashes of missing trie nodes,
	// in any order; the slice is the caller's.
	UnknownMPTNodes(limit int) []util.Uint256
	// MissingMPTNodes is the number of trie nodes known to be missing
	// (the frontier: it grows as nodes arrive, until the trie is whole).
	MissingMPTNodes() int
	// AddMPTNodes takes node encodings from a peer; nodes that are not
	// missing are ignored. An error means a node that does not fit the
	// trie: its sender is dropped.
	AddMPTNodes(nodes [][]byte) error

	// NeedBlocks reports whether blocks of the window below the sync
	// point are still wanted; they go to StateExchangeConfig.Blocks.
	NeedBlocks() bool
	// BlockHeight is the index of the last window block the module holds
	// (the requests start above it).
	BlockHeight() uint32
}

// State sync stages, the value of the n3d_statesync_stage gauge.
const (
	ssOff     = iota // no state sync (disabled, done or not needed)
	ssWaiting        // waiting for peers to pick the sync point
	ssHeaders        // fetching headers
	ssState          // fetching MPT nodes and/or window blocks
	ssFailed         // Init failed; nothing is synchronised
)

var ssStageNames = [...]string{ssOff: "off", ssWaiting: "waiting for peers", ssHeaders: "headers",
	ssState: "state and blocks", ssFailed: "failed"}

const (
	// mptPerPeer bounds the outstanding getmptdata of one peer.
	mptPerPeer = 2
	// mptStrikes: a peer whose getmptdata went unanswered this many
	// times in a row is passed over (until every peer is).
	mptStrikes = 3
)

// mptReq is one outstanding getmptdata.
type mptReq struct {
	hashes []util.Uint256
	sent   time.Time
}

// hdrReq is the outstanding getheaders.
type hdrReq struct {
	p     *peer
	start uint32
	sent  time.Time
}

// stateSyncer drives a StateSync from the server's sync loop: it picks
// the sync point from the peers' heights, asks one peer at a time for the
// headers above the header height, spreads getmptdata batches of missing
// nodes over the peers (two outstanding per peer; an unanswered one is
// given back after the request timeout and asked from another peer; a
// peer that let three in a row go unanswered is passed over) and fills the
// window of blocks through a block syncer of its own.
type stateSyncer struct {
	s      *Server
	mod    StateSync
	blocks *syncer // window blocks, above mod.BlockHeight up to the sync point
	mu     struct {
		sync.Mutex
		stage   int
		hdr     *hdrReq
		mpt     map[*peer][]*mptReq
		flying  map[util.Uint256]struct{}
		strikes map[*peer]int
	}
}

func newStateSyncer(s *Server, mod StateSync) *stateSyncer {
	y := &stateSyncer{s: s, mod: mod}
	y.blocks = newSyncerOver(s, mod.BlockHeight, mod.SyncPoint)
	y.mu.stage = -1
	y.mu.mpt = make(map[*peer][]*mptReq)
	y.mu.flying = make(map[util.Uint256]struct{})
	y.mu.strikes = make(map[*peer]int)
	return y
}

// active reports whether blocks from peers go to the state sync: until
// the module is initialised (a block executed before would spoil the
// sync) and while it gathers data.
func (y *stateSyncer) active() bool {
	y.mu.Lock()
	failed := y.mu.stage == ssFailed
	y.mu.Unlock()
	return !failed && (!y.mod.IsInitialized() || y.mod.IsActive())
}

// drive requests what the sync needs now; false when no sync runs (the
// ordinary block sync goes on).
func (y *stateSyncer) drive(now time.Time) bool {
	if !y.active() {
		y.setStage(ssOff)
		return false
	}
	if !y.mod.IsInitialized() && !y.init() {
		return y.active() // no block is requested before Init
	}
	if !y.mod.IsActive() {
		y.setStage(ssOff)
		return false
	}
	switch {
	case y.mod.NeedHeaders():
		y.setStage(ssHeaders)
		y.requestHeaders(now)
	case y.mod.NeedMPTNodes() || y.mod.NeedBlocks():
		y.setStage(ssState)
		if y.mod.NeedMPTNodes() {
			y.requestMPT(now)
		} else {
			y.dropMPT()
		}
		if y.mod.NeedBlocks() {
			y.blocks.request(now)
		}
	default:
		y.setStage(ssWaiting) // the module is between stages (jumping)
	}
	return true
}

// init calls Init with the median height of the handshaked peers once
// there are MinPeers of them (at least one); false when it did not.
func (y *stateSyncer) init() bool {
	y.setStage(ssWaiting)
	ps := y.s.peers(nil)
	if len(ps) == 0 || len(ps) < y.s.cfg.MinPeers {
		return false
	}
	hs := make([]uint32, len(ps))
	for i, p := range ps {
		hs[i] = p.height.Load()
	}
	slices.Sort(hs)
	h := hs[len(hs)/2]
	if err := y.mod.Init(h); err != nil {
		y.s.log.Error("state sync cannot start: blocks are not synchronised", zap.Uint32("peers_height", h),
			zap.Uint32("height", y.s.cfg.Ledger.BlockHeight()), zap.Error(err))
		y.setStage(ssFailed)
		if f := y.s.cfg.StateExchange.OnFailed; f != nil {
			f(fmt.Errorf("network: state sync: %w", err))
		}
		return false
	}
	if y.mod.IsActive() {
		y.s.log.Info("state sync point chosen", zap.Uint32("sync_point", y.mod.SyncPoint()),
			zap.Uint32("peers_height", h))
	}
	return true
}

// setStage records the stage, logging and exporting a change.
func (y *stateSyncer) setStage(st int) {
	y.mu.Lock()
	old := y.mu.stage
	if old == st || old == ssFailed {
		y.mu.Unlock()
		return
	}
	y.mu.stage = st
	y.mu.Unlock()
	y.s.metrics.ssStage.Set(float64(st))
	msg := "state sync stage"
	switch {
	case old < 0 && st == ssOff:
		return // never ran
	case st == ssOff:
		msg = "state sync done: blocks are added as usual"
	}
	y.s.log.Info(msg, zap.String("stage", ssStageNames[st]),
		zap.Uint32("sync_point", y.mod.SyncPoint()), zap.Uint32("header_height", y.mod.HeaderHeight()),
		zap.Uint32("height", y.s.cfg.Ledger.BlockHeight()))
}

// requestHeaders asks a peer above our header height for the next
// headers, unless a request is outstanding and not timed out.
func (y *stateSyncer) requestHeaders(now time.Time) {
	hh := y.mod.HeaderHeight()
	y.mu.Lock()
	if r := y.mu.hdr; r != nil && r.start > hh && !r.p.gone() && now.Sub(r.sent) < 2*y.s.cfg.requestTimeout() {
		y.mu.Unlock()
		return
	}
	var last *peer
	if y.mu.hdr != nil {
		last = y.mu.hdr.p
	}
	ps := y.s.peers(func(p *peer) bool { return p.height.Load() > hh })
	if len(ps) == 0 {
		y.mu.hdr = nil
		y.mu.Unlock()
		return
	}
	p := ps[0]
	for _, q := range ps { // another peer than the one that let us wait
		if q != last {
			p = q
			break
		}
	}
	y.mu.hdr = &hdrReq{p: p, start: hh + 1, sent: now}
	y.mu.Unlock()
	err := p.sendNew(qDirect, message.CmdGetHeaders, &payload.GetBlockByIndex{IndexStart: hh + 1, Count: -1})
	y.s.log.Debug("headers requested", zap.Stringer("addr", p), zap.Uint32("start", hh+1), zap.Error(err))
}

// onHeaders passes the headers to the module while it needs them. An
// invalid header drops the peer.
func (y *stateSyncer) onHeaders(p *peer, hs []*block.Header) error {
	if !y.active() || !y.mod.NeedHeaders() || len(hs) == 0 {
		return nil
	}
	y.mu.Lock()
	if r := y.mu.hdr; r != nil && r.p == p {
		y.mu.hdr = nil
	}
	y.mu.Unlock()
	defer y.s.kickSync()
	if err := y.mod.AddHeaders(hs); err != nil {
		return fmt.Errorf("%w: headers %d..%d: %w", ErrProtocol, hs[0].Index, hs[len(hs)-1].Index, err)
	}
	return nil
}

// requestMPT gives back timed-out batches and sends new batches of
// missing nodes to the peers with free slots.
func (y *stateSyncer) requestMPT(now time.Time) {
	sp := y.mod.SyncPoint()
	ps := y.s.peers(func(p *peer) bool { return p.height.Load() >= sp })
	timeout := 2 * y.s.cfg.requestTimeout()
	y.mu.Lock()
	y.expireMPTLocked(now, timeout)
	usable := make([]*peer, 0, len(ps))
	for _, p := range ps {
		if y.mu.strikes[p] < mptStrikes {
			usable = append(usable, p)
		}
	}
	if len(usable) == 0 { // every peer let us wait: try them all again
		for _, p := range ps {
			delete(y.mu.strikes, p)
		}
		usable = ps
	}
	free := 0
	for _, p := range usable {
		free += mptPerPeer - len(y.mu.mpt[p])
	}
	flying := len(y.mu.flying)
	y.mu.Unlock()
	if free <= 0 {
		return
	}
	unknown := y.mod.UnknownMPTNodes(flying + free*payload.MaxMPTHashesCount)
	type send struct {
		p   *peer
		inv payload.MPTInventory
	}
	var out []send
	y.mu.Lock()
	fresh := unknown[:0]
	for _, h := range unknown {
		if _, ok := y.mu.flying[h]; !ok {
			fresh = append(fresh, h)
		}
	}
	for _, p := range usable {
		for len(y.mu.mpt[p]) < mptPerPeer && len(fresh) > 0 {
			n := min(len(fresh), payload.MaxMPTHashesCount)
			batch := slices.Clone(fresh[:n])
			fresh = fresh[n:]
			for _, h := range batch {
				y.mu.flying[h] = struct{}{}
			}
			y.mu.mpt[p] = append(y.mu.mpt[p], &mptReq{hashes: batch, sent: now})
			out = append(out, send{p, payload.MPTInventory{Hashes: batch}})
		}
	}
	y.s.metrics.ssFlying.Set(float64(len(y.mu.flying)))
	y.mu.Unlock()
	for _, o := range out {
		if err := o.p.sendNew(qDirect, message.CmdGetMPTData, &o.inv); err != nil {
			y.s.log.Debug("getmptdata not sent", zap.Stringer("addr", o.p), zap.Error(err))
		}
	}
}

// expireMPTLocked gives back the batches of peers gone or silent for
// timeout; a silent peer earns a strike.
func (y *stateSyncer) expireMPTLocked(now time.Time, timeout time.Duration) {
	for p, reqs := range y.mu.mpt {
		keep := reqs[:0]
		for _, r := range reqs {
			if p.gone() || now.Sub(r.sent) >= timeout {
				y.releaseLocked(r)
				if !p.gone() {
					y.mu.strikes[p]++
					y.s.metrics.ssTimeouts.Inc()
				}
				continue
			}
			keep = append(keep, r)
		}
		if len(keep) == 0 {
			delete(y.mu.mpt, p)
		} else {
			y.mu.mpt[p] = keep
		}
		if p.gone() {
			delete(y.mu.strikes, p)
		}
	}
}

// dropMPT forgets the outstanding getmptdata once the trie is whole:
// late replies are ignored.
func (y *stateSyncer) dropMPT() {
	y.mu.Lock()
	defer y.mu.Unlock()
	clear(y.mu.mpt)
	clear(y.mu.flying)
	clear(y.mu.strikes)
	y.s.metrics.ssFlying.Set(0)
}

func (y *stateSyncer) releaseLocked(r *mptReq) {
	for _, h := range r.hashes {
		delete(y.mu.flying, h)
	}
}

// errMPTJunk is an mptdata holding none of the nodes asked from its
// sender.
var errMPTJunk = errors.New("network: mptdata answers no getmptdata of ours")

// onMPTData matches a reply with the oldest outstanding batch of p whose
// hashes it starts with (a peer answers in order; batches before the
// answered one went unanswered) and hands the nodes to the module. A
// reply answering nothing we asked, or holding a node that does not fit
// the trie, drops the peer; one that comes when no batch of p is
// outstanding is ignored.
func (y *stateSyncer) onMPTData(p *peer, nodes [][]byte) error {
	if !y.active() || !y.mod.NeedMPTNodes() {
		return nil // late: the trie is whole (another peer completed it)
	}
	y.mu.Lock()
	reqs := y.mu.mpt[p]
	if len(reqs) == 0 {
		y.mu.Unlock()
		return nil
	}
	answered := -1
	if len(nodes) > 0 {
		first := hash.DoubleSha256(nodes[0])
		for i, r := range reqs {
			if slices.Contains(r.hashes, first) {
				answered = i
				break
			}
		}
	}
	if answered < 0 {
		y.mu.Unlock()
		return fmt.Errorf("%w: %w", ErrProtocol, errMPTJunk)
	}
	for _, r := range reqs[:answered+1] {
		y.releaseLocked(r)
	}
	y.mu.strikes[p] = 0
	if rest := reqs[answered+1:]; len(rest) > 0 {
		y.mu.mpt[p] = slices.Clone(rest)
	} else {
		delete(y.mu.mpt, p)
	}
	y.s.metrics.ssFlying.Set(float64(len(y.mu.flying)))
	y.mu.Unlock()
	defer y.s.kickSync()
	y.s.metrics.ssNodes.Add(float64(len(nodes)))
	err := y.mod.AddMPTNodes(nodes)
	y.s.metrics.ssMissing.Set(float64(y.mod.MissingMPTNodes()))
	switch {
	case err == nil:
		return nil
	case !y.mod.NeedMPTNodes():
		// The trie was completed meanwhile (a reply of another peer), or
		// the module failed moving on: not this peer's fault.
		y.s.log.Debug("mptdata after the trie stage", zap.Stringer("addr", p), zap.Error(err))
		return nil
	default:
		return fmt.Errorf("%w: mptdata: %w", ErrProtocol, err)
	}
}

// onBlock takes a block from a peer while the sync is active: a block of
// the window goes to StateExchangeConfig.Blocks, others are dropped.
func (y *stateSyncer) onBlock(p *peer, b *block.Block) {
	if !y.mod.NeedBlocks() {
		return
	}
	y.blocks.received(p, b.Index)
	if err := y.s.cfg.StateExchange.Blocks.Put(b); err != nil {
		y.s.log.Debug("window block not queued", zap.Uint32("index", b.Index), zap.Error(err))
	}
}

// peerGone forgets a disconnected peer's requests.
func (y *stateSyncer) peerGone(p *peer) {
	y.blocks.peerGone(p)
	y.mu.Lock()
	for _, r := range y.mu.mpt[p] {
		y.releaseLocked(r)
	}
	delete(y.mu.mpt, p)
	delete(y.mu.strikes, p)
	if y.mu.hdr != nil && y.mu.hdr.p == p {
		y.mu.hdr = nil
	}
	y.mu.Unlock()
}
