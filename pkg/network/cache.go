package network

import (
	"slices"
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// extCache keeps the most recent valid extensible payloads to answer
// getdata; the oldest is evicted first. A payload that has expired (the
// chain reached its ValidBlockEnd: no node takes it any more) is not
// served, and its body is let go at the next put, keeping only its hash
// so it is still known (not fetched again when announced): a proposal
// carries a hash per transaction of its block (200-600 KB under load,
// twice, encoded and decoded), and the reference's pool drops expired
// payloads at every block too.
type extCache struct {
	mu    sync.Mutex
	max   int
	m     map[util.Uint256]*payload.Extensible // nil: expired, body dropped
	order []util.Uint256
	swept uint32 // height of the last sweep for expired bodies
}

func newExtCache(n int) *extCache {
	return &extCache{max: n, m: make(map[util.Uint256]*payload.Extensible, n)}
}

// put adds e (hash h) at chain height height, dropping the bodies of the
// payloads expired at that height.
func (c *extCache) put(h util.Uint256, e *payload.Extensible, height uint32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if height != c.swept {
		c.swept = height
		for k, old := range c.m {
			if old != nil && old.ValidBlockEnd <= height {
				c.m[k] = nil
			}
		}
	}
	if _, ok := c.m[h]; ok {
		return
	}
	if len(c.order) >= c.max {
		delete(c.m, c.order[0])
		c.order = c.order[1:]
	}
	c.m[h] = e
	c.order = append(c.order, h)
}

// get returns payload h if it is cached and still valid at height.
func (c *extCache) get(h util.Uint256, height uint32) *payload.Extensible {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.m[h]; e != nil && height < e.ValidBlockEnd {
		return e
	}
	return nil
}

// has reports whether payload h was cached (expired or not) and not yet
// evicted.
func (c *extCache) has(h util.Uint256) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.m[h]
	return ok
}

// maxInflight bounds the requested-hash set; beyond it hashes are
// requested without being tracked (a duplicate request rather than a
// lost one).
const maxInflight = 1 << 16

// maxAnnouncers bounds the other announcers remembered per hash.
const maxAnnouncers = 4

// maxRefetches bounds how often a delivered transaction the node then
// dropped is asked for again (see inflight.delivered).
const maxRefetches = 3

// request is one hash asked for with getdata: from whom, until when, and
// the other peers that announced it meanwhile, to ask next. A delivered
// request waits until expiry for the node to know the item (see
// inflight.delivered); refetches counts the times it was asked again
// after a delivery.
type request struct {
	typ       payload.InventoryType
	asked     *peer
	expiry    time.Time
	others    []*peer
	delivered bool
	refetches uint8
}

// inflight is the set of hashes requested with getdata and not yet
// received: an item announced by several peers is asked for once, and if
// that peer does not deliver in time (no answer, notfound, gone) it is
// asked from the next peer that announced it.
type inflight struct {
	mu sync.Mutex
	m  map[util.Uint256]*request
}

func newInflight() *inflight { return &inflight{m: make(map[util.Uint256]*request)} }

// claim reports whether h, announced by p, is to be requested from p
// now: it is not in flight (or its request expired). Otherwise p is
// remembered as another source of h.
func (f *inflight) claim(h util.Uint256, typ payload.InventoryType, p *peer, now time.Time, timeout time.Duration) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.m[h]
	switch {
	case ok && now.Before(r.expiry):
		if r.asked != p && len(r.others) < maxAnnouncers && !slices.Contains(r.others, p) {
			r.others = append(r.others, p)
		}
		return false
	case ok:
		r.asked, r.expiry = p, now.Add(timeout)
		r.others = slices.DeleteFunc(r.others, func(q *peer) bool { return q == p })
	case len(f.m) < maxInflight:
		f.m[h] = &request{typ: typ, asked: p, expiry: now.Add(timeout)}
	}
	return true
}

// delivered records that p delivered the transaction or queued block h.
// A requested item stays tracked after its delivery, until the node knows
// it (a transaction pooled, being verified, or refused for good; a block
// added: see expired), so other announcements do not fetch it again. A
// transaction dropped on its way to the pool (a full verification queue,
// a refusal that depends on the moment such as a full pool) is so asked
// again from p after timeout, instead of waiting, unknown, for its
// owner's re-announcement blocks later. A block the chain has not added
// by then (rejected, or waiting for a missing predecessor) is forgotten
// instead: the sync loop fetches missing blocks by index. An unrequested
// item is not tracked.
func (f *inflight) delivered(h util.Uint256, p *peer, now time.Time, timeout time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.m[h]; ok {
		r.asked, r.expiry, r.delivered = p, now.Add(timeout), true
	}
}

// remove forgets received hashes.
func (f *inflight) remove(hs ...util.Uint256) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range hs {
		delete(f.m, h)
	}
}

// failed expires the requests of hs made to p (it answered notfound or
// could not take the getdata): the next retry asks another announcer.
func (f *inflight) failed(p *peer, hs ...util.Uint256) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range hs {
		if r, ok := f.m[h]; ok && r.asked == p {
			r.expiry = time.Time{}
		}
	}
}

// expiredResult is what one expired pass found: the getdata messages to
// make again, the requests given up (no announcer left, or delivered and
// dropped maxRefetches times), and the delivered ones asked again.
type expiredResult struct {
	retries   []retry
	abandoned int
	refetched int
}

// retry is a getdata to make again: hashes of one type for one peer.
type retry struct {
	p      *peer
	typ    payload.InventoryType
	hashes []util.Uint256
}

// expired reassigns the requests expired at now to the next announcer
// still connected (known items, per the known func, are dropped) and
// returns the getdata messages to send; a request with no announcer
// left is forgotten: the item comes back when someone announces it
// again (the owner of a pooled transaction does, see txResendLoop). A
// delivered transaction the node still does not know is asked again from
// the peer that delivered it (or the next announcer), at most
// maxRefetches times; a delivered block is forgotten (see delivered).
func (f *inflight) expired(now time.Time, timeout time.Duration, known func(payload.InventoryType, util.Uint256) bool) expiredResult {
	type key struct {
		p   *peer
		typ payload.InventoryType
	}
	var res expiredResult
	batches := make(map[key][]util.Uint256)
	f.mu.Lock()
	for h, r := range f.m {
		if now.Before(r.expiry) {
			continue
		}
		if known(r.typ, h) {
			delete(f.m, h)
			continue
		}
		if r.delivered && r.typ == payload.InvBlock {
			delete(f.m, h) // delivered: the chain's (and the sync loop's) from here
			continue
		}
		if r.delivered {
			if r.refetches >= maxRefetches {
				delete(f.m, h)
				res.abandoned++
				continue
			}
			r.refetches++
			r.delivered = false
			res.refetched++
			if !r.asked.gone() {
				r.expiry = now.Add(timeout)
				k := key{r.asked, r.typ}
				batches[k] = append(batches[k], h)
				continue
			}
		}
		for len(r.others) > 0 && r.others[0].gone() {
			r.others = r.others[1:]
		}
		if len(r.others) == 0 {
			delete(f.m, h)
			res.abandoned++
			continue
		}
		r.asked, r.others = r.others[0], r.others[1:]
		r.expiry = now.Add(timeout)
		k := key{r.asked, r.typ}
		batches[k] = append(batches[k], h)
	}
	f.mu.Unlock()
	res.retries = make([]retry, 0, len(batches))
	for k, hs := range batches {
		res.retries = append(res.retries, retry{p: k.p, typ: k.typ, hashes: hs})
	}
	return res
}
