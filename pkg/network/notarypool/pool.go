package notarypool

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// DefaultCapacity is neo-go's default P2PNotaryRequestPayloadPoolSize.
const DefaultCapacity = 1000

// Errors of Add, named as the reference's mempool errors. They wrap the
// transaction mempool's sentinels of the same meaning, so that the RPC
// server answers them as it answers sendrawtransaction's (neo-go maps
// both funds errors to "insufficient funds").
var (
	ErrDup               = fmt.Errorf("notarypool: %w", mempool.ErrDup)
	ErrInsufficientFunds = fmt.Errorf("notarypool: fee above the deposit: %w", mempool.ErrInsufficientFunds)
	ErrConflict          = fmt.Errorf("notarypool: fees of all pooled requests above the deposit: %w",
		mempool.ErrInsufficientFunds)
	ErrConflictsAttribute = errors.New("notarypool: conflicts with the pool due to Conflicts attribute")
	ErrOOM                = fmt.Errorf("notarypool: %w", mempool.ErrOOM)
	ErrBadConfig          = errors.New("notarypool: bad configuration")
)

// payer is who pays a fallback's fees: its sender and, when the sender is
// the Notary contract, the deposit owner (the second signer).
type payer struct{ primary, secondary util.Uint160 }

// Config configures a Pool.
type Config struct {
	// Capacity bounds the pooled requests (P2PNotaryRequestPayloadPoolSize;
	// DefaultCapacity when 0).
	Capacity int
	// NotaryHash is the Notary native contract's hash.
	NotaryHash util.Uint160
	// Balance returns what payer can spend on fees: primary's GAS, or when
	// primary is the Notary contract, secondary's Notary deposit (the
	// reference's GetUtilityTokenBalance). Required.
	Balance func(primary, secondary util.Uint160) (*big.Int, error)
}

type item struct {
	req   *payload.P2PNotaryRequest
	tx    *transaction.Transaction // the fallback
	hash  util.Uint256             // the fallback's hash
	main  util.Uint256
	payer payer
	fee   *big.Int // SystemFee + NetworkFee
}

// Pool holds P2P notary requests. Safe for concurrent use.
type Pool struct {
	cfg Config

	mu        sync.RWMutex
	list      []*item // most prioritized first
	byHash    map[util.Uint256]*item
	conflicts map[util.Uint256][]util.Uint256 // hash named by Conflicts -> pooled fallbacks naming it
	fees      map[payer]*big.Int              // pooled fees per payer
	balances  map[payer]*big.Int              // balances read since the last block
}

// New returns an empty pool.
func New(cfg Config) (*Pool, error) {
	if cfg.Capacity == 0 {
		cfg.Capacity = DefaultCapacity
	}
	if cfg.Capacity < 0 || cfg.Balance == nil {
		return nil, fmt.Errorf("%w: capacity %d, balance func set %t", ErrBadConfig, cfg.Capacity, cfg.Balance != nil)
	}
	return &Pool{cfg: cfg, byHash: make(map[util.Uint256]*item),
		conflicts: make(map[util.Uint256][]util.Uint256), fees: make(map[payer]*big.Int),
		balances: make(map[payer]*big.Int)}, nil
}

func (p *Pool) payerOf(tx *transaction.Transaction) payer {
	s := tx.Sender()
	if s == p.cfg.NotaryHash && len(tx.Signers) > 1 {
		return payer{primary: s, secondary: tx.Signers[1].Account}
	}
	return payer{primary: s}
}

// cmp orders fallbacks as the reference's mempool item: HighPriority
// first, then fee per byte, then network fee; > 0 when a goes first.
func cmp(a, b *transaction.Transaction) int {
	ah, bh := a.HasAttribute(transaction.AttrHighPriority), b.HasAttribute(transaction.AttrHighPriority)
	switch {
	case ah && !bh:
		return 1
	case !ah && bh:
		return -1
	}
	if d := a.FeePerByte() - b.FeePerByte(); d != 0 {
		return sign(d)
	}
	return sign(a.NetworkFee - b.NetworkFee)
}

func sign(d int64) int {
	switch {
	case d > 0:
		return 1
	case d < 0:
		return -1
	}
	return 0
}

func (p *Pool) balance(py payer) (*big.Int, error) {
	if b, ok := p.balances[py]; ok {
		return b, nil
	}
	b, err := p.cfg.Balance(py.primary, py.secondary)
	if err != nil {
		return nil, fmt.Errorf("notarypool: balance of %s/%s: %w", py.primary, py.secondary, err)
	}
	p.balances[py] = b
	return b, nil
}

// Add pools a verified request. The order of the checks is the
// reference's: duplicate, Conflicts attributes and the payer's funds,
// capacity. Fallbacks the new one replaces (Conflicts) and the one evicted
// from a full pool are removed and returned.
func (p *Pool) Add(r *payload.P2PNotaryRequest) ([]*payload.P2PNotaryRequest, error) {
	fb := r.FallbackTransaction
	it := &item{req: r, tx: fb, hash: fb.Hash(), main: r.MainTransaction.Hash(), payer: p.payerOf(fb),
		fee: new(big.Int).Add(big.NewInt(fb.SystemFee), big.NewInt(fb.NetworkFee))}
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := p.byHash[it.hash]; ok {
		return nil, ErrDup
	}
	victims, err := p.checkConflicts(it)
	if err != nil {
		return nil, err
	}
	if err := p.checkFunds(it, victims); err != nil {
		return nil, err
	}
	// A full pool (after the replaced fallbacks go) takes the request
	// only when it goes before the least prioritized one.
	if len(p.list)-len(victims) >= p.cfg.Capacity && !p.beatsSomeone(it, victims) {
		return nil, fmt.Errorf("%w: %d requests", ErrOOM, len(p.list))
	}
	var removed []*payload.P2PNotaryRequest
	for _, v := range victims {
		p.remove(v)
		removed = append(removed, v.req)
	}
	if len(p.list) >= p.cfg.Capacity {
		last := p.list[len(p.list)-1]
		p.remove(last)
		removed = append(removed, last.req)
	}
	p.insert(it)
	return removed, nil
}

// beatsSomeone reports whether it goes strictly before a pooled item
// other than the victims.
func (p *Pool) beatsSomeone(it *item, victims []*item) bool {
	for i := len(p.list) - 1; i >= 0; i-- {
		if e := p.list[i]; !slices.Contains(victims, e) {
			return cmp(it.tx, e.tx) > 0
		}
	}
	return false
}

// insert puts it after the items at least as prioritized.
func (p *Pool) insert(it *item) {
	n := 0
	for n < len(p.list) && cmp(it.tx, p.list[n].tx) <= 0 {
		n++
	}
	p.list = slices.Insert(p.list, n, it)
	p.byHash[it.hash] = it
	for _, h := range conflictsOf(it.tx) {
		p.conflicts[h] = append(p.conflicts[h], it.hash)
	}
	p.addFee(it)
}

func (p *Pool) addFee(it *item) {
	s, ok := p.fees[it.payer]
	if !ok {
		s = new(big.Int)
		p.fees[it.payer] = s
	}
	s.Add(s, it.fee)
}

func (p *Pool) remove(it *item) {
	i := slices.Index(p.list, it)
	if i < 0 {
		return
	}
	p.list = slices.Delete(p.list, i, i+1)
	delete(p.byHash, it.hash)
	for _, h := range conflictsOf(it.tx) {
		l := slices.DeleteFunc(p.conflicts[h], func(x util.Uint256) bool { return x == it.hash })
		if len(l) == 0 {
			delete(p.conflicts, h)
		} else {
			p.conflicts[h] = l
		}
	}
	if s, ok := p.fees[it.payer]; ok {
		s.Sub(s, it.fee)
	}
}

func conflictsOf(tx *transaction.Transaction) []util.Uint256 {
	var hs []util.Uint256
	for _, a := range tx.GetAttributes(transaction.AttrConflicts) {
		hs = append(hs, a.Value.(*transaction.Conflicts).Hash)
	}
	return hs
}

// checkConflicts returns the pooled fallbacks the new one replaces: those
// naming it in Conflicts and those it names (which must share a signer
// with it); it must pay more network fee than those it is accountable for.
func (p *Pool) checkConflicts(it *item) ([]*item, error) {
	author := it.payer.primary
	if it.payer.primary == p.cfg.NotaryHash {
		author = it.payer.secondary
	}
	var victims []*item
	var fee int64
	for _, h := range p.conflicts[it.hash] {
		v := p.byHash[h]
		if v.tx.HasSigner(author) {
			fee += v.tx.NetworkFee
		}
		victims = append(victims, v)
	}
	for _, h := range conflictsOf(it.tx) {
		v, ok := p.byHash[h]
		if !ok {
			continue
		}
		if !slices.ContainsFunc(v.tx.Signers, func(s transaction.Signer) bool { return it.tx.HasSigner(s.Account) }) {
			return nil, fmt.Errorf("%w: not signed by a signer of conflicting %s", ErrConflictsAttribute, h)
		}
		fee += v.tx.NetworkFee
		victims = append(victims, v)
	}
	if fee != 0 && it.tx.NetworkFee <= fee {
		return nil, fmt.Errorf("%w: conflicting requests pay %d network fee, this one %d",
			ErrConflictsAttribute, fee, it.tx.NetworkFee)
	}
	return victims, nil
}

// checkFunds checks the payer can pay this fallback alone
// (ErrInsufficientFunds) and with its pooled ones, less the victims it
// also pays (ErrConflict).
func (p *Pool) checkFunds(it *item, victims []*item) error {
	bal, err := p.balance(it.payer)
	if err != nil {
		return err
	}
	if bal.Cmp(it.fee) < 0 {
		return fmt.Errorf("%w: balance %s, fee %s", ErrInsufficientFunds, bal, it.fee)
	}
	need := new(big.Int).Add(it.fee, p.pooledFee(it.payer))
	for _, v := range victims {
		if v.payer == it.payer {
			need.Sub(need, v.fee)
		}
	}
	if bal.Cmp(need) < 0 {
		return fmt.Errorf("%w: balance %s, pooled fees with this one %s", ErrConflict, bal, need)
	}
	return nil
}

func (p *Pool) pooledFee(py payer) *big.Int {
	if s, ok := p.fees[py]; ok {
		return s
	}
	return new(big.Int)
}
