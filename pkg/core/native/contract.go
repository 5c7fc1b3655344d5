package native

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Handler implements a native method. args holds the method's arguments,
// first parameter first; a nil result pushes nothing (Void methods). An
// error FAULTs the calling script.
type Handler func(ic *interop.Context, args []stackitem.Item) (stackitem.Item, error)

// Deferred is what a Handler returns when it completed the call itself
// (popped its arguments and pushed its result with completeCall), now or
// in a CallFromNative continuation.
var Deferred stackitem.Item = deferred{}

type deferred struct{ stackitem.Null }

// completeCall pops the n arguments of a native call from the stack of
// the native context ctx and pushes res unless it is nil.
func completeCall(ctx *vm.Context, n int, res stackitem.Item) error {
	est := ctx.Estack()
	for range n {
		if _, err := est.Pop(); err != nil {
			return err
		}
	}
	if res != nil {
		est.Push(res)
	}
	return nil
}

// Contract is a native contract implementation. A new native needs a
// ContractMD built with NewContractMD/AddMethod/AddEvent/Seal and these
// four methods.
type Contract interface {
	// Metadata returns the sealed description of the contract.
	Metadata() *ContractMD
	// Initialize runs in the OnPersist of the block that deploys the
	// contract (hf = its ActiveIn, HFDefault for genesis contracts) and of
	// each block where one of its update hardforks activates (hf = that
	// hardfork), after the contract state was written and before the
	// Deploy/Update notification.
	Initialize(ic *interop.Context, hf protocol.Hardfork) error
	// OnPersist and PostPersist are the block hooks; they run only while
	// the contract is active.
	OnPersist(ic *interop.Context) error
	PostPersist(ic *interop.Context) error
}

// Hardforks answers hardfork questions from the configuration.
type Hardforks interface {
	Enabled(hf protocol.Hardfork, height uint32) bool
	HardforksActivatingAt(height uint32) []protocol.Hardfork
}

// Registry is the set of native contracts of a chain in the reference's
// order. It implements interop.Natives.
type Registry struct {
	hfs     Hardforks
	policy  *Policy
	list    []interop.NativeContract
	byHash  map[util.Uint160]*entry
	entries []*entry
}

var (
	_ interop.Natives = (*Registry)(nil)
	_ interop.Policy  = (*Registry)(nil)
)

// entry adapts a Contract to interop.NativeContract.
type entry struct {
	c   Contract
	md  *ContractMD
	reg *Registry
}

var _ interop.NativeContract = (*entry)(nil)

// NewRegistry returns a registry of cs (in the reference's order).
func NewRegistry(hfs Hardforks, cs ...Contract) *Registry {
	r := &Registry{hfs: hfs, byHash: make(map[util.Uint160]*entry, len(cs))}
	for _, c := range cs {
		e := &entry{c: c, md: c.Metadata(), reg: r}
		r.entries = append(r.entries, e)
		r.list = append(r.list, e)
		r.byHash[e.md.Hash] = e
		switch c := c.(type) {
		case *Management:
			c.reg = r
		case *Policy:
			c.IsNative = r.IsNative
			r.policy = c
		}
	}
	return r
}

// ByHash implements interop.Natives.
func (r *Registry) ByHash(h util.Uint160) interop.NativeContract {
	if e, ok := r.byHash[h]; ok {
		return e
	}
	return nil
}

// List implements interop.Natives.
func (r *Registry) List() []interop.NativeContract { return r.list }

// Contracts returns the contracts in order.
func (r *Registry) Contracts() []Contract {
	out := make([]Contract, len(r.entries))
	for i, e := range r.entries {
		out[i] = e.c
	}
	return out
}

// IsNative reports whether h is the hash of a native contract (active or
// not).
func (r *Registry) IsNative(h util.Uint160) bool {
	_, ok := r.byHash[h]
	return ok
}

// IsBlocked implements interop.Policy through the registry's
// PolicyContract (nothing is blocked without one).
func (r *Registry) IsBlocked(d *dao.DAO, h util.Uint160) (bool, error) {
	if r.policy == nil {
		return false, nil
	}
	return r.policy.IsBlocked(d, h)
}

// WhitelistedFee implements interop.Policy through the registry's
// PolicyContract.
func (r *Registry) WhitelistedFee(d *dao.DAO, h util.Uint160, m *manifest.Method) (int64, bool, error) {
	if r.policy == nil {
		return 0, false, nil
	}
	return r.policy.WhitelistedFee(d, h, m)
}

// LatestHardfork returns the latest hardfork enabled at height (HFDefault
// if none).
func (r *Registry) LatestHardfork(height uint32) protocol.Hardfork {
	latest := protocol.HFDefault
	for _, hf := range protocol.Hardforks() {
		if !r.hfs.Enabled(hf, height) {
			break
		}
		latest = hf
	}
	return latest
}

// latestEnabled is LatestHardfork for the context's persisting block.
func latestEnabled(ic *interop.Context) protocol.Hardfork {
	latest := protocol.HFDefault
	for _, hf := range protocol.Hardforks() {
		if !ic.IsHardforkEnabled(hf) {
			break
		}
		latest = hf
	}
	return latest
}

// Hash implements interop.NativeContract.
func (e *entry) Hash() util.Uint160 { return e.md.Hash }

// IsActive implements interop.NativeContract.
func (e *entry) IsActive(_ *interop.Context, height uint32) bool {
	return e.isActiveAt(height)
}

func (e *entry) isActiveAt(height uint32) bool {
	return e.md.ActiveIn == protocol.HFDefault || e.reg.hfs.Enabled(e.md.ActiveIn, height)
}

// activeForBlock reports whether the contract runs its hooks for the
// persisting block.
func (e *entry) activeForBlock(ic *interop.Context) bool {
	return e.md.ActiveIn == protocol.HFDefault || ic.IsHardforkEnabled(e.md.ActiveIn)
}

// OnPersist implements interop.NativeContract.
func (e *entry) OnPersist(ic *interop.Context) error {
	if !e.activeForBlock(ic) {
		return nil
	}
	return e.c.OnPersist(ic)
}

// PostPersist implements interop.NativeContract.
func (e *entry) PostPersist(ic *interop.Context) error {
	if !e.activeForBlock(ic) {
		return nil
	}
	return e.c.PostPersist(ic)
}

// Invoke implements interop.NativeContract: the reference
// NativeContract.Invoke.
func (e *entry) Invoke(ic *interop.Context, version byte) error {
	// The errors are worded as the reference Go node's; a method's own
	// error is bare (it panics there), see interop.Bare.
	if version != 0 {
		return interop.Faultf(ErrNotActive, "native contract of version %d is not active", version)
	}
	if e.md.ActiveIn != protocol.HFDefault {
		_, h, err := ic.DAO().GetCurrentBlock()
		if err != nil || !e.isActiveAt(h) {
			return interop.Faultf(ErrNotActive, "native contract %s is active after hardfork %s", e.md.Name, e.md.ActiveIn)
		}
	}
	snap := e.md.Snapshot(latestEnabled(ic))
	if snap == nil {
		return interop.Faultf(ErrNotActive, "native contract %s is active after hardfork %s", e.md.Name, e.md.ActiveIn)
	}
	ctx := ic.VM().Context()
	m, ok := snap.MethodByIP(ctx.IP())
	if !ok {
		return interop.Fault(ErrUnknownMethod, "method not found")
	}
	if have := interop.StateOf(ctx).CallFlags; !have.Has(m.Flags) {
		return interop.Faultf(ErrMissingFlags, "missing call flags for native %d `%s` operation call: %05b vs %05b", version, m.Name, byte(have), byte(m.Flags))
	}
	if err := e.charge(ic, snap, m); err != nil {
		return vm.Fault(err, fmt.Sprintf("%s executing %s/%s/%d", err, e.md.Hash.StringBE(), m.Name, len(m.Params)), nil)
	}
	est := ctx.Estack()
	n := len(m.Params)
	if est.Len() < n {
		return interop.Bare(interop.Faultf(ErrInvalidArgument, "runtime error: index out of range [%d]", est.Len()-1-n+1))
	}
	args := make([]stackitem.Item, n)
	for i := range args {
		it, err := est.Peek(i)
		if err != nil {
			return err
		}
		args[i] = it
	}
	res, err := m.Handler(ic, args)
	if err != nil {
		return interop.Bare(err)
	}
	if res == Deferred {
		return nil
	}
	if m.Return == smartcontract.VoidType {
		res = nil
	} else if res == nil {
		res = stackitem.Null{}
	}
	return completeCall(ctx, n, res)
}

// charge adds the method's price: CPUFee × exec fee factor + StorageFee ×
// storage price, unless the committee whitelisted the method (Faun; its
// fixed fee was charged by the call).
func (e *entry) charge(ic *interop.Context, snap *Snapshot, m *BoundMethod) error {
	if p := e.reg.policy; p != nil && ic.IsHardforkEnabled(protocol.HFFaun) {
		_, ok, err := p.WhitelistedFee(ic.DAO(), e.md.Hash, &snap.Manifest.ABI.Methods[m.index])
		if err != nil || ok {
			return err
		}
	}
	return ic.VM().AddPicoGas(m.CPUFee*ic.ExecFeeFactor() + m.StorageFee*ic.StoragePrice()*vm.FeeFactor)
}
