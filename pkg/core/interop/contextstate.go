package interop

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// ContextState is what the interop layer keeps per loaded script (the
// reference ExecutionContextState). It is attached to the vm.Context with
// SetData and shared with the frames CALL creates.
type ContextState struct {
	// CallFlags are the rights of the context.
	CallFlags callflag.CallFlag
	// Contract is the executing contract; nil for dynamic scripts.
	Contract *state.Contract
	// Calling is the context that loaded this one (nil for the entry).
	Calling *vm.Context
	// NativeCaller is the native contract that called this context through
	// CallFromNative (zero when HasNativeCaller is false).
	NativeCaller    util.Uint160
	HasNativeCaller bool
	// IsDynamicCall is set for System.Contract.Call and
	// System.Runtime.LoadScript contexts (one return value, Null if none).
	IsDynamicCall bool

	notificationCount int
	layer             *dao.DAO // this context's private DAO, nil: shares the parent's
	parentDAO         *dao.DAO
	onUnloaded        func(ic *Context) error // CallFromNative continuation
}

// StateOf returns the interop state of ctx (entry contexts loaded without
// state get CallFlags All, as in the reference).
func StateOf(ctx *vm.Context) *ContextState {
	if st, ok := ctx.Data().(*ContextState); ok {
		return st
	}
	st := &ContextState{CallFlags: callflag.All}
	ctx.SetData(st)
	return st
}

// newState returns a zero ContextState, from the Context's own storage
// for the first ones loaded.
func (ic *Context) newState() *ContextState {
	if ic.statesUsed < len(ic.states) {
		ic.statesUsed++
		return &ic.states[ic.statesUsed-1]
	}
	return new(ContextState)
}

// current returns the state of the current context.
func (ic *Context) current() *ContextState { return StateOf(ic.vm.Context()) }

// checkFlags is the reference ValidateCallFlags.
func (ic *Context) checkFlags(required callflag.CallFlag) error {
	if have := ic.current().CallFlags; !have.Has(required) {
		return Faultf(ErrMissingFlags, "missing call flags: %05b vs %05b", byte(have), byte(required))
	}
	return nil
}

// LoadScript loads script as a new context with flags and the given return
// count (-1: any) and position, the reference LoadScript: the entry script
// of a transaction (callflag.All), a verification script (ReadOnly) or an
// invocation script (None). The first context loaded is the entry context.
func (ic *Context) LoadScript(script []byte, flags callflag.CallFlag, rvcount, ip int) (*vm.Context, error) {
	st := ic.newState()
	st.CallFlags = flags
	return ic.load(script, rvcount, ip, st, util.Uint160{}, false)
}

// load creates the context, attaches st, gives it its own DAO layer when it
// is called by another context and may write, and records the invocation.
func (ic *Context) load(script []byte, rvcount, ip int, st *ContextState, h util.Uint160, hashSet bool) (*vm.Context, error) {
	calling := ic.vm.Context()
	ctx, err := ic.vm.LoadScriptWithRetCount(script, rvcount, ip)
	if err != nil {
		return nil, fmt.Errorf("interop: load script: %w", err)
	}
	if hashSet {
		ctx.SetScriptHash(h)
	}
	ctx.SetData(st)
	if calling != nil && st.CallFlags.Has(callflag.WriteStates) {
		st.parentDAO = ic.dao
		st.layer = ic.dao.PrivateReusing(ic.spareLayer())
		ic.dao = st.layer
	}
	sh := ctx.ScriptHash()
	if _, ok := ic.invocations.get(sh); !ok {
		ic.invocations.set(sh, 1)
	}
	return ctx, nil
}

// spareLayer returns a finished context's DAO layer for reuse, nil if
// there is none (a layer is empty once its context finished: committed
// into its parent or dropped).
func (ic *Context) spareLayer() *dao.DAO {
	n := len(ic.spares)
	if n == 0 {
		return nil
	}
	d := ic.spares[n-1]
	ic.spares = ic.spares[:n-1]
	return d
}

// methodInit is the method run before any other of a contract.
const methodInit = "_initialize"

// LoadContract loads method md of contract c with flags (the reference
// LoadContract): its return count follows the method's return type and its
// _initialize method, if any, runs first in a frame sharing its statics.
func (ic *Context) LoadContract(c *state.Contract, md *manifest.Method, flags callflag.CallFlag) (*vm.Context, error) {
	rv := 1
	if md.ReturnType == smartcontract.VoidType {
		rv = 0
	}
	st := ic.newState()
	st.CallFlags, st.Contract = flags, c
	ctx, err := ic.load(c.NEF.Script, rv, md.Offset, st, c.Hash, true)
	if err != nil {
		return nil, err
	}
	if init := c.Manifest.ABI.GetMethod(methodInit, 0); init != nil {
		if err := ic.vm.LoadContext(ctx.Clone(init.Offset)); err != nil {
			return nil, fmt.Errorf("interop: load _initialize: %w", err)
		}
	}
	return ctx, nil
}

// contextUnloaded is the reference ContextUnloaded: when a script (not a
// CALL frame of it) returns, its DAO layer is committed and its
// notification count passed up, a dynamic call gets exactly one result;
// when an exception unwinds it, its layer and notifications are dropped.
// An error FAULTs the VM.
func (ic *Context) contextUnloaded(v *vm.VM, ctx *vm.Context) error {
	cur := v.Context()
	if cur != nil && cur.ScriptRef() == ctx.ScriptRef() {
		return nil
	}
	return ic.finishContext(v, ctx, cur, StateOf(ctx))
}

// Unload hook failures (the reference's wording; the VM prefixes them
// with "context unload callback failed: ").
var (
	errNativeCallee = errors.New("unhandled exception")
	errMultiRet     = errors.New("multiple return values in a cross-contract call")
)

func (ic *Context) finishContext(v *vm.VM, ctx, cur *vm.Context, st *ContextState) error {
	ok := v.UncaughtException() == nil
	if st.layer != nil {
		ic.dao = st.parentDAO
		if ok {
			if err := st.layer.Persist(); err != nil {
				return err
			}
		} else if err := st.layer.Discard(); err != nil {
			return err
		}
		ic.spares = append(ic.spares, st.layer)
		st.layer = nil
	}
	if !ok {
		if n := st.notificationCount; n > 0 {
			ic.notifications = ic.notifications[:len(ic.notifications)-n]
		}
		if st.onUnloaded != nil {
			return errNativeCallee
		}
		return nil
	}
	if cur != nil {
		StateOf(cur).notificationCount += st.notificationCount
		if st.IsDynamicCall {
			// The VM copied the results onto the caller's stack and left
			// them on the callee's, as the reference does.
			switch n := ctx.Estack().Len(); {
			case n == 0:
				cur.Estack().Push(stackitem.Null{})
			case n > 1:
				ic.faultStack = ctx.Estack().Items()
				return errMultiRet
			}
		}
	}
	if st.onUnloaded != nil {
		return st.onUnloaded(ic)
	}
	return nil
}
