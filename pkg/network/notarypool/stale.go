package notarypool

import (
	"math/big"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// UpdateForBlock is called after each persisted block at height with the
// block's transactions: it drops the requests whose fallback or main
// transaction is among them or whose fallback expired (ValidUntilBlock ≤
// height), then those relevant rejects (the chain's re-check of the
// fallback as a partially signed transaction; nil keeps them), and
// recomputes each payer's fees against fresh balances in priority order,
// dropping the requests its balance no longer covers (as the reference's
// RemoveStale). It returns the dropped requests.
func (p *Pool) UpdateForBlock(height uint32, txs []*transaction.Transaction,
	relevant func(fallback *transaction.Transaction) bool) []*payload.P2PNotaryRequest {
	landed := make(map[util.Uint256]struct{}, len(txs))
	for _, tx := range txs {
		landed[tx.Hash()] = struct{}{}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.balances)
	clear(p.fees)
	clear(p.conflicts)
	var dropped []*payload.P2PNotaryRequest
	kept := p.list[:0]
	for _, it := range p.list {
		_, fbIn := landed[it.hash]
		_, mainIn := landed[it.main]
		ok := !fbIn && !mainIn && it.tx.ValidUntilBlock > height &&
			(relevant == nil || relevant(it.tx)) && p.fundsCover(it)
		if !ok {
			delete(p.byHash, it.hash)
			dropped = append(dropped, it.req)
			continue
		}
		kept = append(kept, it)
		p.addFee(it)
		for _, h := range conflictsOf(it.tx) {
			p.conflicts[h] = append(p.conflicts[h], it.hash)
		}
	}
	clear(p.list[len(kept):])
	p.list = kept
	return dropped
}

// fundsCover reports whether it's payer can pay it on top of the fees
// recounted so far.
func (p *Pool) fundsCover(it *item) bool {
	bal, err := p.balance(it.payer)
	if err != nil {
		return false
	}
	return bal.Cmp(new(big.Int).Add(it.fee, p.pooledFee(it.payer))) >= 0
}
