package interop

import (
	"fmt"
	"math"
	"strings"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func contractCall(ic *Context) error {
	h, err := ic.popHash160()
	if err != nil {
		return err
	}
	method, err := ic.popString()
	if err != nil {
		return err
	}
	f, err := ic.popByte()
	if err != nil {
		return err
	}
	args, err := ic.popArray()
	if err != nil {
		return err
	}
	if strings.HasPrefix(method, "_") {
		return fmt.Errorf("%w: method %q starts with '_'", ErrNotAllowed, method)
	}
	flags := callflag.CallFlag(f)
	if !flags.IsValid() {
		return fmt.Errorf("%w: call flags %d", ErrInvalidArgument, f)
	}
	c, md, err := ic.findMethod(h, method, args.Len())
	if err != nil {
		return err
	}
	ctx, err := ic.callInternal(c, md, flags, md.ReturnType != smartcontract.VoidType, args.Items())
	if err != nil {
		return err
	}
	StateOf(ctx).IsDynamicCall = true
	return nil
}

func (ic *Context) findMethod(h util.Uint160, method string, nargs int) (*state.Contract, *manifest.Method, error) {
	c, err := ic.dao.GetContract(h)
	if err != nil {
		if isNotFound(err) {
			return nil, nil, fmt.Errorf("%w: contract %s", ErrContractNotFound, h)
		}
		return nil, nil, err
	}
	md := c.Manifest.ABI.GetMethod(method, nargs)
	if md == nil {
		return nil, nil, fmt.Errorf("%w: method %q/%d of %s", ErrContractNotFound, method, nargs, h)
	}
	return c, md, nil
}

// callInternal is the reference CallContractInternal: Policy block check,
// safe-method flag reduction or the caller's permission check, invocation
// counter, argument and return checks, loading, fee whitelist (Faun+) and
// arguments.
func (ic *Context) callInternal(c *state.Contract, md *manifest.Method, flags callflag.CallFlag, hasReturn bool, args []stackitem.Item) (*vm.Context, error) {
	if p := ic.cfg.Policy; p != nil {
		blocked, err := p.IsBlocked(ic.dao, c.Hash)
		if err != nil {
			return nil, err
		}
		if blocked {
			return nil, fmt.Errorf("%w: contract %s is blocked", ErrNotAllowed, c.Hash)
		}
	}
	cur := ic.vm.Context()
	st := StateOf(cur)
	if md.Safe {
		flags &^= callflag.WriteStates | callflag.AllowNotify
	} else if err := ic.checkPermission(st, c, md); err != nil {
		return nil, err
	}
	ic.invocations.add(c.Hash)
	if len(args) != len(md.Parameters) {
		return nil, fmt.Errorf("%w: method %q takes %d arguments, got %d", ErrInvalidArgument, md.Name, len(md.Parameters), len(args))
	}
	if hasReturn != (md.ReturnType != smartcontract.VoidType) {
		return nil, fmt.Errorf("%w: return value type of %q does not match", ErrInvalidArgument, md.Name)
	}
	ctx, err := ic.LoadContract(c, md, flags&st.CallFlags)
	if err != nil {
		return nil, err
	}
	StateOf(ctx).Calling = cur
	if err := ic.whitelist(ctx, c, md); err != nil {
		return nil, err
	}
	pushArgs(ctx, args)
	return ctx, nil
}

func (ic *Context) checkPermission(st *ContextState, c *state.Contract, md *manifest.Method) error {
	exec := st.Contract
	if !ic.IsHardforkEnabled(protocol.HFDomovoi) {
		var err error
		exec, err = ic.dao.GetContract(ic.CurrentScriptHash())
		if err != nil && !isNotFound(err) {
			return err
		}
	}
	if exec != nil && !exec.CanCall(c, md.Name) {
		return fmt.Errorf("%w: %s may not call %q of %s", ErrNotAllowed, ic.CurrentScriptHash(), md.Name, c.Hash)
	}
	return nil
}

func (ic *Context) whitelist(ctx *vm.Context, c *state.Contract, md *manifest.Method) error {
	p := ic.cfg.Policy
	if p == nil || !ic.IsHardforkEnabled(protocol.HFFaun) {
		return nil
	}
	fee, ok, err := p.WhitelistedFee(ic.dao, c.Hash, md)
	if err != nil || !ok {
		return err
	}
	if err := ic.AddFee(fee); err != nil {
		return err
	}
	ctx.SetFeeExempt(true)
	return nil
}

// CallFromNative calls method of contract h on behalf of native contract
// caller with all call flags (the reference CallFromNativeContractAsync).
// The call runs after the current syscall returns; then, if set, runs when
// the callee returned normally (its result, if hasReturn, is on the
// caller's stack). An exception escaping the callee FAULTs the VM.
func (ic *Context) CallFromNative(caller, h util.Uint160, method string, args []stackitem.Item, hasReturn bool, then func(ic *Context) error) error {
	c, md, err := ic.findMethod(h, method, len(args))
	if err != nil {
		return err
	}
	ctx, err := ic.callInternal(c, md, callflag.All, hasReturn, args)
	if err != nil {
		return err
	}
	st := StateOf(ctx)
	st.NativeCaller, st.HasNativeCaller = caller, true
	st.onUnloaded = func(ic *Context) error {
		if then == nil {
			return nil
		}
		return then(ic)
	}
	return nil
}

// callT is the VM's CallTHandler (reference OnCallT).
func (ic *Context) callT(_ *vm.VM, token uint16) error {
	if err := ic.checkFlags(callflag.ReadStates | callflag.AllowCall); err != nil {
		return err
	}
	c := ic.current().Contract
	if c == nil || int(token) >= len(c.NEF.Tokens) {
		return fmt.Errorf("%w: method token %d", ErrInvalidArgument, token)
	}
	t := &c.NEF.Tokens[token]
	es := ic.vm.Estack()
	if int(t.ParamCount) > es.Len() {
		return fmt.Errorf("%w: method token %d needs %d arguments", ErrInvalidArgument, token, t.ParamCount)
	}
	args := make([]stackitem.Item, t.ParamCount)
	for i := range args {
		args[i], _ = es.Pop() // length checked
	}
	callee, md, err := ic.findMethod(t.Hash, t.Method, len(args))
	if err != nil {
		return err
	}
	_, err = ic.callInternal(callee, md, t.CallFlag, t.HasReturn, args)
	return err
}

func contractCallNative(ic *Context) error {
	v, err := ic.popByte()
	if err != nil {
		return err
	}
	var n NativeContract
	if ic.cfg.Natives != nil {
		n = ic.cfg.Natives.ByHash(ic.CurrentScriptHash())
	}
	if n == nil {
		return fmt.Errorf("%w: System.Contract.CallNative outside a native contract", ErrNotAllowed)
	}
	return n.Invoke(ic, v)
}

func getCallFlags(ic *Context) error {
	ic.push(stackitem.NewInt(int64(ic.current().CallFlags)))
	return nil
}

func createStandardAccount(ic *Context) error {
	k, err := ic.popPublicKey()
	if err != nil {
		return err
	}
	price := int64(1 << 8)
	if ic.IsHardforkEnabled(protocol.HFAspidochelone) {
		price = CheckSigPrice
	}
	if err := ic.chargeExec(price); err != nil {
		return err
	}
	ic.pushHash(k.ScriptHash())
	return nil
}

func createMultisigAccount(ic *Context) error {
	m, err := ic.popInt(math.MinInt32, math.MaxInt32)
	if err != nil {
		return err
	}
	raw, err := ic.popBytesArray()
	if err != nil {
		return err
	}
	pubs := make(keys.PublicKeys, len(raw))
	for i, b := range raw {
		if pubs[i], err = decodeKey(b); err != nil {
			return err
		}
	}
	price := int64(1 << 8)
	if ic.IsHardforkEnabled(protocol.HFAspidochelone) {
		price = CheckSigPrice * int64(len(pubs))
	}
	if err := ic.chargeExec(price); err != nil {
		return err
	}
	script, err := scripts.MultiSigContract(int(m), pubs)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalidArgument, err)
	}
	ic.pushHash(hash.Hash160(script))
	return nil
}

func nativeOnPersist(ic *Context) error   { return ic.persistNatives(trigger.OnPersist) }
func nativePostPersist(ic *Context) error { return ic.persistNatives(trigger.PostPersist) }

func (ic *Context) persistNatives(t trigger.Type) error {
	if ic.cfg.Trigger != t {
		return fmt.Errorf("%w: %s hook under trigger %s", ErrNotAllowed, t, ic.cfg.Trigger)
	}
	if ic.cfg.Block == nil || ic.cfg.Natives == nil {
		return fmt.Errorf("%w: no block or natives", ErrNotAllowed)
	}
	for _, n := range ic.cfg.Natives.List() {
		if !n.IsActive(ic, ic.cfg.Block.Index) {
			continue
		}
		var err error
		if t == trigger.OnPersist {
			err = n.OnPersist(ic)
		} else {
			err = n.PostPersist(ic)
		}
		if err != nil {
			return fmt.Errorf("native %s: %w", n.Hash(), err)
		}
	}
	return nil
}
