package mempool

import (
	"fmt"
	"math"

	"github.com/n3d-io/n3d/pkg/util"
)

// feeContext is the reference's TransactionVerificationContext for the
// pooled transactions: the fees each sender's pooled transactions commit
// to and the oracle requests they answer. Sender balances are read from
// the ledger once per height and cached.
type feeContext struct {
	fees     map[util.Uint160]amount
	oracle   map[uint64]util.Uint256
	balances map[util.Uint160]amount
	height   uint32 // height the cached balances were read at
}

func newFeeContext() feeContext {
	return feeContext{
		fees:     make(map[util.Uint160]amount),
		oracle:   make(map[uint64]util.Uint256),
		balances: make(map[util.Uint160]amount),
	}
}

// reset forgets the pooled fees and oracle responses (not the balances).
func (f *feeContext) reset() {
	clear(f.fees)
	clear(f.oracle)
}

// add records a pooled item.
func (f *feeContext) add(it *item) {
	f.fees[it.sender] = f.fees[it.sender].add(it.fee)
	if it.oracle {
		f.oracle[it.oracleID] = it.hash
	}
}

// remove forgets a pooled item.
func (f *feeContext) remove(it *item) {
	if s, ok := f.fees[it.sender]; ok {
		if s = s.sub(it.fee); s.isZero() {
			delete(f.fees, it.sender)
		} else {
			f.fees[it.sender] = s
		}
	}
	if it.oracle && f.oracle[it.oracleID] == it.hash {
		delete(f.oracle, it.oracleID)
	}
}

// balance returns acc's GAS at height h, from the cache when it was read
// at h.
func (f *feeContext) balance(l Ledger, h uint32, acc util.Uint160) (amount, error) {
	if h != f.height {
		clear(f.balances)
		f.height = h
	}
	if b, ok := f.balances[acc]; ok {
		return b, nil
	}
	bb, err := l.GASBalance(acc)
	if err != nil {
		return amount{}, fmt.Errorf("mempool: GAS balance of %s: %w", acc.String(), err)
	}
	b := amountOf(bb)
	f.balances[acc] = b
	return b, nil
}

// checkFundsLocked is TransactionVerificationContext.CheckTransaction: the
// sender's GAS covers the new transaction's fees plus those of its pooled
// transactions, less those of the victims (the pooled transactions the
// new one replaces) it also sends; and no pooled transaction answers the
// same oracle request. Balances are those at height (REQUIRES: mu).
func (p *Pool) checkFundsLocked(it *item, victims []*item, height uint32) error {
	bal, err := p.fees.balance(p.cfg.Ledger, height, it.sender)
	if err != nil {
		return err
	}
	// balance + replaced >= fee + pooled, kept non-negative on both sides
	// (a victim named twice is deducted twice, as by the reference).
	need := p.fees.fees[it.sender].add(it.fee)
	var freed amount
	for _, v := range victims {
		if v.sender == it.sender {
			freed = freed.add(v.fee)
		}
	}
	if bal.plus(freed).cmp(need) < 0 {
		return fmt.Errorf("%w: %s has %s GAS, needs %s (%s freed)", ErrInsufficientFunds,
			it.sender.String(), bal, need, freed)
	}
	if it.oracle {
		if other, ok := p.fees.oracle[it.oracleID]; ok {
			return fmt.Errorf("%w: request %d, by %s", ErrOracleResponse, it.oracleID, other.String())
		}
	}
	return nil
}

// checkConflictsLocked is the reference's CheckConflicts: the pooled
// transactions naming it in Conflicts, and those it names, are its
// victims; each one it names must share a signer with it; it must pay
// more network fee than the victims it is accountable for (those it names,
// and those naming it that its sender signs). Like the reference, a victim
// both naming and named, or named twice, counts as often. (REQUIRES: mu)
func (p *Pool) checkConflictsLocked(it *item) ([]*item, error) {
	var (
		victims []*item
		feeSum  int64
	)
	for _, v := range p.conflicts[it.hash] {
		if v.hasSigner(it.sender) {
			feeSum = addSat(feeSum, v.netFee)
		}
		victims = append(victims, v)
	}
	for _, h := range it.conflicts {
		v, ok := p.byHash[h]
		if !ok {
			continue
		}
		if !it.sharesSigner(v) {
			return nil, fmt.Errorf("%w: no common signer with %s", ErrConflict, h.String())
		}
		feeSum = addSat(feeSum, v.netFee)
		victims = append(victims, v)
	}
	if feeSum != 0 && feeSum >= it.netFee {
		return nil, fmt.Errorf("%w: network fee %d does not exceed the replaced ones' %d", ErrConflict, it.netFee, feeSum)
	}
	return victims, nil
}

// addSat adds two non-negative fees, saturating at MaxInt64.
func addSat(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
