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
	hb, err := ic.popBytes()
	if err != nil {
		return err
	}
	h, err := util.Uint160DecodeBytesLE(hb)
	if err != nil {
		return vm.Fault(ErrInvalidArgument, "invalid contract hash", err)
	}
	method, err := ic.popString()
	if err != nil {
		return err
	}
	f, err := ic.popInt(math.MinInt64, math.MaxInt64)
	if err != nil {
		return err
	}
	flags := callflag.CallFlag(f)
	if f < 0 || f > int64(callflag.All) || !flags.IsValid() {
		return Fault(ErrInvalidArgument, "call flags out of range")
	}
	args, err := ic.popArray()
	if err != nil {
		return err
	}
	c, err := ic.findContract(h, "called contract")
	if err != nil {
		return err
	}
	if strings.HasPrefix(method, "_") {
		return Fault(ErrNotAllowed, "invalid method name (starts with '_')")
	}
	md := c.Manifest.ABI.GetMethod(method, args.Len())
	if md == nil {
		return Faultf(ErrContractNotFound, "method not found: %s/%d", method, args.Len())
	}
	ctx, err := ic.callInternal(c, md, flags, md.ReturnType != smartcontract.VoidType, args.Items())
	if err != nil {
		return err
	}
	StateOf(ctx).IsDynamicCall = true
	return nil
}

// findContract returns contract h; what names it in the error.
func (ic *Context) findContract(h util.Uint160, what string) (*state.Contract, error) {
	c, err := ic.dao.GetContract(h)
	if err != nil {
		if isNotFound(err) {
			return nil, vm.Fault(ErrContractNotFound, what+" "+h.StringBE()+" not found: key not found", err)
		}
		return nil, err
	}
	return c, nil
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
			return nil, Faultf(ErrNotAllowed, "contract %s is blocked", c.Hash.StringBE())
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
		return nil, Faultf(ErrInvalidArgument, "invalid argument count: %d (expected %d)", len(args), len(md.Parameters))
	}
	if hasReturn != (md.ReturnType != smartcontract.VoidType) {
		return nil, Faultf(ErrInvalidArgument, "method '%s' return type mismatch: got %s, expected to be void: %t", md.Name, md.ReturnType, !hasReturn)
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
		return Fault(ErrNotAllowed, "disallowed method call")
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
		return vm.Fault(err, fmt.Sprintf("%s executing whitelisted contract %s/%s/%d", err, c.Hash.StringBE(), md.Name, len(md.Parameters)), nil)
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
	c, err := ic.findContract(h, "contract")
	if err != nil {
		return err
	}
	md := c.Manifest.ABI.GetMethod(method, len(args))
	if md == nil {
		return Faultf(ErrContractNotFound, "method '%s' not found", method)
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
	if !ic.current().CallFlags.Has(callflag.ReadStates | callflag.AllowCall) {
		return Fault(ErrMissingFlags, "invalid call flags")
	}
	c := ic.current().Contract
	if c == nil {
		// The reference dereferences the missing NEF of a dynamic script.
		return Fault(ErrInvalidArgument, "runtime error: invalid memory address or nil pointer dereference")
	}
	if int(token) >= len(c.NEF.Tokens) {
		return Faultf(ErrInvalidArgument, "token id %d is out of %d range", token, len(c.NEF.Tokens)-1)
	}
	t := &c.NEF.Tokens[token]
	es := ic.vm.Estack()
	if int(t.ParamCount) > es.Len() {
		return Fault(ErrInvalidArgument, "stack is too small")
	}
	args := make([]stackitem.Item, t.ParamCount)
	for i := range args {
		args[i], _ = es.Pop() // length checked
	}
	callee, err := ic.findContract(t.Hash, "token contract")
	if err != nil {
		return err
	}
	md := callee.Manifest.ABI.GetMethod(t.Method, len(args))
	if md == nil {
		return Faultf(ErrContractNotFound, "token method not found: %s/%d", t.Method, len(args))
	}
	if t.HasReturn != (md.ReturnType != smartcontract.VoidType) {
		return Faultf(ErrInvalidArgument, "token %s/%d return value (%t) doesn't match the actual method return value", t.Method, len(args), t.HasReturn)
	}
	_, err = ic.callInternal(callee, md, t.CallFlag, t.HasReturn, args)
	return err
}

func contractCallNative(ic *Context) error {
	v, err := ic.popInt(math.MinInt64, math.MaxInt64)
	if err != nil {
		return err
	}
	if v != 0 {
		return Faultf(ErrNotAllowed, "native contract of version %d is not active", v)
	}
	var n NativeContract
	if ic.cfg.Natives != nil {
		n = ic.cfg.Natives.ByHash(ic.CurrentScriptHash())
	}
	if n == nil {
		return Faultf(ErrNotAllowed, "native contract %s (version %d) not found", ic.CurrentScriptHash().StringBE(), v)
	}
	return n.Invoke(ic, byte(v))
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
	mi, err := ic.pop()
	if err != nil {
		return err
	}
	m, err := itemInt(mi, math.MinInt64, math.MaxInt64)
	if err != nil || m < 0 || m > math.MaxInt32 {
		if err != nil && !isRangeError(err) {
			return err
		}
		return Fault(ErrInvalidArgument, "m must be positive and fit int32")
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
		return vm.Fault(ErrInvalidArgument, multisigText(int(m), len(pubs)), err)
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
