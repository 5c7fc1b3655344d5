package notarypool

import (
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// ContainsKey reports whether a request with this fallback hash is pooled.
func (p *Pool) ContainsKey(fallback util.Uint256) bool {
	p.mu.RLock()
	defer p.mu.RUnlock()
	_, ok := p.byHash[fallback]
	return ok
}

// GetRequest returns the request with this fallback hash.
func (p *Pool) GetRequest(fallback util.Uint256) (*payload.P2PNotaryRequest, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	it, ok := p.byHash[fallback]
	if !ok {
		return nil, false
	}
	return it.req, true
}

// Count is the number of pooled requests.
func (p *Pool) Count() int {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return len(p.list)
}

// Requests lists the pooled requests, most prioritized first.
func (p *Pool) Requests() []*payload.P2PNotaryRequest {
	p.mu.RLock()
	defer p.mu.RUnlock()
	out := make([]*payload.P2PNotaryRequest, len(p.list))
	for i, it := range p.list {
		out[i] = it.req
	}
	return out
}

// FindTransaction returns the pooled fallback with hash h or, failing
// that, the main transaction with hash h of a pooled request
// (getrawnotarytransaction).
func (p *Pool) FindTransaction(h util.Uint256) (*transaction.Transaction, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	if it, ok := p.byHash[h]; ok {
		return it.tx, true
	}
	for _, it := range p.list {
		if it.main == h {
			return it.req.MainTransaction, true
		}
	}
	return nil, false
}

// Remove drops the request with this fallback hash; false: not pooled.
func (p *Pool) Remove(fallback util.Uint256) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	it, ok := p.byHash[fallback]
	if ok {
		p.remove(it)
	}
	return ok
}
