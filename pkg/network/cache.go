package network

import (
	"sync"
	"time"

	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// extCache keeps the most recent valid extensible payloads to answer
// getdata; the oldest is evicted first.
type extCache struct {
	mu    sync.Mutex
	max   int
	m     map[util.Uint256]*payload.Extensible
	order []util.Uint256
}

func newExtCache(n int) *extCache {
	return &extCache{max: n, m: make(map[util.Uint256]*payload.Extensible, n)}
}

func (c *extCache) put(h util.Uint256, e *payload.Extensible) {
	c.mu.Lock()
	defer c.mu.Unlock()
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

func (c *extCache) get(h util.Uint256) *payload.Extensible {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[h]
}

func (c *extCache) has(h util.Uint256) bool { return c.get(h) != nil }

// maxInflight bounds the requested-hash set; beyond it new hashes are not
// requested until the sweep frees room.
const maxInflight = 1 << 16

// inflight is the set of hashes requested with getdata and not yet
// received: an item announced by several peers is asked for once. Entries
// expire so that a request lost with its peer is made again.
type inflight struct {
	mu sync.Mutex
	m  map[util.Uint256]time.Time // hash → expiry
}

func newInflight() *inflight { return &inflight{m: make(map[util.Uint256]time.Time)} }

// claim marks h as requested until expiry; false if it already is.
func (f *inflight) claim(h util.Uint256, expiry time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if exp, ok := f.m[h]; ok && time.Now().Before(exp) {
		return false
	}
	if len(f.m) >= maxInflight {
		return false
	}
	f.m[h] = expiry
	return true
}

func (f *inflight) remove(hs ...util.Uint256) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range hs {
		delete(f.m, h)
	}
}

// sweep drops expired entries.
func (f *inflight) sweep(now time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for h, exp := range f.m {
		if now.After(exp) {
			delete(f.m, h)
		}
	}
}
