package chain

import (
	"bytes"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sync"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// StateView is read-only access to the chain's state after one block: the
// latest committed state (LatestView), a past state read from the state
// trie (ViewAt), or the contract storage under a state root (ViewAtRoot).
//
// Every method is safe for concurrent use, also while blocks are added: a
// view reads through a DAO of its own (never the chain's, which only the
// block writer uses), guarded by the view's mutex, over a store that is
// itself safe for concurrent reads. The latest view reads the committed
// store as it is at each read (a block persisted meanwhile is seen by the
// later reads, as in neo-go); a past view reads an immutable trie.
// Missing records are reported with errors wrapping ErrNotFound.
type StateView struct {
	mu      sync.Mutex
	d       *dao.DAO // guarded by mu
	c       *Chain
	natives *NativeSet
	height  uint32
}

// LatestView returns a view of the latest committed state.
func (c *Chain) LatestView() *StateView {
	return &StateView{d: c.viewDAO(c.rec), c: c, natives: c.cfg.Natives, height: c.BlockHeight()}
}

// LatestViewAsOf returns a view of the latest state in which the Ledger
// contract's current block is block index: its hash when the chain has
// that block, the zero hash above the height. It is the state neo-go's
// test runs read when the persisting block they mock is index+1 (RPC
// invokecontainedscript with a header of another index).
func (c *Chain) LatestViewAsOf(index uint32) (*StateView, error) {
	h, _ := c.GetHeaderHash(index) // the zero hash above the height
	ptr := storage.NewMemoryStore()
	if err := dao.New(ptr).PutCurrentBlock(h, index); err != nil {
		return nil, err
	}
	cur, err := ptr.Get(storage.SYSCurrentBlock.Bytes())
	if err != nil {
		return nil, err
	}
	st := &currentStore{Store: c.rec, current: cur}
	return &StateView{d: c.viewDAO(st), c: c, natives: c.cfg.Natives, height: index}, nil
}

// currentStore is the chain's store, read-only, with another current
// block record.
type currentStore struct {
	storage.Store
	current []byte // the SYSCurrentBlock record
}

// Get implements storage.Store.
func (s *currentStore) Get(key []byte) ([]byte, error) {
	if bytes.Equal(key, storage.SYSCurrentBlock.Bytes()) {
		return bytes.Clone(s.current), nil
	}
	return s.Store.Get(key)
}

// Put, Delete, PutChangeSet and Close implement storage.Store: the view
// is read-only, the chain's store stays open.
func (s *currentStore) Put([]byte, []byte) error { return errReadOnly }

func (s *currentStore) Delete([]byte) error { return errReadOnly }

func (s *currentStore) PutChangeSet(map[string][]byte, map[string]struct{}) error {
	return errReadOnly
}

func (s *currentStore) Close() error { return nil }

// ViewAt returns a view of the state after block height, read from the
// state trie at that block's root: contract storage comes from the trie
// (the Ledger contract's, which is not in the trie, from the chain's
// store), the Ledger contract sees block height as the current one, and
// blocks and transactions come from the chain's store. With
// RemoveUntraceableBlocks a state older than MaxTraceableBlocks is refused
// (the trie nodes are gone); with KeepOnlyLatestState the old nodes are
// gone as well and the caller should not ask.
func (c *Chain) ViewAt(height uint32) (*StateView, error) {
	top := c.BlockHeight()
	if c.cfg.Ledger.RemoveUntraceableBlocks {
		l, err := c.LimitsAt(top)
		if err != nil {
			return nil, err
		}
		if uint64(height)+1+uint64(l.MaxTraceableBlocks) < uint64(top) {
			return nil, fmt.Errorf("state for height %d is outdated and removed from the storage", height+1)
		}
	}
	if err := c.warmPolicyFilters(); err != nil {
		return nil, err
	}
	sr, err := c.StateRoot(height)
	if err != nil {
		return nil, fmt.Errorf("failed to retrieve stateroot for height %d: %w", height+1, err)
	}
	t, err := c.openTrie(sr.Root)
	if err != nil {
		return nil, err
	}
	hash, ok := c.GetHeaderHash(height)
	if !ok {
		return nil, fmt.Errorf("no block %d", height)
	}
	hdr, err := c.GetHeader(hash)
	if err != nil {
		return nil, err
	}
	st, err := newHistoricStore(t, c.rec, hdr)
	if err != nil {
		return nil, err
	}
	return &StateView{d: c.viewDAO(st), c: c, natives: c.cfg.Natives, height: height}, nil
}

// ViewAtRoot returns a view whose contract storage is the one under state
// root (read from the trie); every other record, and the current block,
// are the chain's. It serves storage reads of a past state
// (getstoragehistoric), not test runs.
func (c *Chain) ViewAtRoot(root util.Uint256) (*StateView, error) {
	t, err := c.openTrie(root)
	if err != nil {
		return nil, err
	}
	st, err := newHistoricStore(t, c.rec, nil)
	if err != nil {
		return nil, err
	}
	return &StateView{d: c.viewDAO(st), c: c, natives: c.cfg.Natives, height: c.BlockHeight()}, nil
}

// warmPolicyFilters makes Policy load its key filters (blocked accounts,
// whitelisted methods) from the current state if nothing did yet: they
// load from the first DAO they are asked about and are shared with the
// chain, so that must never be a past state, which lacks the keys written
// since.
func (c *Chain) warmPolicyFilters() error {
	d := c.viewDAO(c.rec)
	p := c.cfg.Natives.Core.Policy
	if _, err := p.IsBlocked(d, util.Uint160{}); err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	if _, _, err := p.WhitelistedFee(d, util.Uint160{}, &manifest.Method{}); err != nil {
		return fmt.Errorf("policy: %w", err)
	}
	return nil
}

// notFound makes a missing record of the DAO a chain.ErrNotFound too
// (the text is unchanged).
func notFound(err error) error {
	if err != nil && dao.IsNotFound(err) && !errors.Is(err, ErrNotFound) {
		return &notFoundErr{err}
	}
	return err
}

type notFoundErr struct{ err error }

func (e *notFoundErr) Error() string   { return e.err.Error() }
func (e *notFoundErr) Unwrap() []error { return []error{ErrNotFound, e.err} }

// Height is the index of the block whose state the view reads (for the
// latest view, the height when it was made).
func (v *StateView) Height() uint32 { return v.height }

// GetContract returns the state of deployed contract h. The result is
// shared: do not modify it.
func (v *StateView) GetContract(h util.Uint160) (*state.Contract, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	c, err := v.d.GetContract(h)
	return c, notFound(err)
}

// GetContractHashByID returns the hash of the contract with id.
func (v *StateView) GetContractHashByID(id int32) (util.Uint160, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	h, err := v.d.GetContractHashByID(id)
	return h, notFound(err)
}

// GetStorageItem returns the value of key in the storage of contract id.
func (v *StateView) GetStorageItem(id int32, key []byte) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	b, err := v.d.GetStorageItem(id, key)
	return b, notFound(err)
}

// SeekStorage calls fn for the items of contract id under prefix in key
// order (keys without the prefix's contract part; the prefix kept) until
// fn returns false. fn must not call the view (it runs under its lock);
// the slices are valid during the call only.
func (v *StateView) SeekStorage(id int32, prefix []byte, fn func(k, val []byte) bool) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.d.SeekStorage(id, storage.SeekRange{Prefix: prefix}, fn)
}

// ContractsWithStandard lists the deployed contracts declaring standard
// std (manifest SupportedStandards), by id.
func (v *StateView) ContractsWithStandard(std string) ([]*state.Contract, error) {
	var out []*state.Contract
	v.mu.Lock()
	err := v.d.SeekStorage(dao.ManagementID, storage.SeekRange{Prefix: []byte{dao.PrefixContract}}, func(_, val []byte) bool {
		c, err := state.ContractFromBytes(val)
		if err == nil && slices.Contains(c.Manifest.SupportedStandards, std) {
			out = append(out, c)
		}
		return true
	})
	v.mu.Unlock()
	slices.SortFunc(out, func(a, b *state.Contract) int { return int(a.ID) - int(b.ID) })
	return out, err
}

// NativeContracts lists the states of the native contracts deployed in
// this state, in the reference's order. On a read failure it returns
// those read before it and the error.
func (v *StateView) NativeContracts() ([]*state.Contract, error) {
	out := []*state.Contract{}
	for _, n := range v.natives.List() {
		c, err := v.GetContract(n.Hash())
		switch {
		case err == nil:
			out = append(out, c)
		case !errors.Is(err, ErrNotFound):
			return out, err
		}
	}
	return out, nil
}

// IsNative reports whether h is the hash of a native contract of the
// network (deployed or not).
func (v *StateView) IsNative(h util.Uint160) bool { return v.natives.Registry.IsNative(h) }

// CommitteeKeys is the committee sorted by key (compressed keys).
func (v *StateView) CommitteeKeys() ([][]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.Governance.NEO.CommitteeKeys(v.d)
}

// NextBlockValidators are the validators of the next block (compressed
// keys).
func (v *StateView) NextBlockValidators() ([][]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.Governance.NEO.NextBlockValidators(v.d)
}

// Candidates are the registered, unblocked candidates in key order.
func (v *StateView) Candidates() (neostate.Committee, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.Governance.NEO.Candidates(v.d)
}

// NEOBalance is the NEO balance of account h.
func (v *StateView) NEOBalance(h util.Uint160) (*big.Int, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.Governance.NEO.BalanceOf(v.d, h)
}

// UnclaimedGAS is the GAS account h could claim at block end.
func (v *StateView) UnclaimedGAS(h util.Uint160, end uint32) (*big.Int, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.Governance.NEO.UnclaimedGAS(v.d, h, end)
}

// FeePerByte is Policy's network fee per transaction byte.
func (v *StateView) FeePerByte() (int64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.FeePerByte(v.d)
}

// AttributeFee is Policy's fee of a transaction attribute of type t.
func (v *StateView) AttributeFee(t transaction.AttrType) (int64, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.AttributeFee(v.d, t)
}

// MaxValidUntilBlockIncrement is Policy's stored value (0 before
// Echidna).
func (v *StateView) MaxValidUntilBlockIncrement() (uint32, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.MaxValidUntilBlockIncrement(v.d)
}

// IsBlocked reports whether Policy blocks account h.
func (v *StateView) IsBlocked(h util.Uint160) (bool, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.natives.IsBlocked(v.d, h)
}

// TestContext prepares a test run (never persisted) of trigger trig on a
// private layer over the view: tx is the container (nil: none), b the
// persisting block (nil: none, the fee factor is then the one of the
// view's height), gas the limit in datoshi. The context belongs to the
// caller (one goroutine, as any VM run); the view stays usable.
func (v *StateView) TestContext(trig trigger.Type, tx *transaction.Transaction, b *block.Block, gas int64) (*interop.Context, error) {
	index := v.height
	if b != nil {
		index = b.Index
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	pico, err := v.natives.Core.Policy.ExecPicoFeeFactor(v.d, index, trig)
	if err != nil {
		return nil, fmt.Errorf("exec fee factor: %w", err)
	}
	sp, err := v.natives.StoragePrice(v.d)
	if err != nil {
		return nil, fmt.Errorf("storage price: %w", err)
	}
	p := v.c.proto
	cfg := interop.Config{
		Trigger:         trig,
		Block:           b,
		Network:         uint32(p.Magic),
		AddressVersion:  address.NEO3Prefix,
		HardforkEnabled: p.Enabled,
		ExecFeeFactor:   pico,
		StoragePrice:    sp,
		GasLimit:        gas,
		Natives:         v.natives,
		Policy:          v.natives,
	}
	if tx != nil {
		cfg.Container = tx
	}
	return interop.NewContext(cfg, v.d.Private()), nil
}

// viewDAO is a DAO over st that reads records as the chain stores them
// (headers with the previous state root under StateRootInHeader).
func (c *Chain) viewDAO(st storage.Store) *dao.DAO {
	d := dao.New(st)
	d.SetStateRootInHeader(c.proto.StateRootInHeader)
	return d
}
