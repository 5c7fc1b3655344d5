package interop

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"unicode/utf8"

	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

func platform(ic *Context) error {
	ic.push(stackitem.ByteString(Platform))
	return nil
}

func getNetwork(ic *Context) error {
	ic.push(stackitem.NewInt(int64(ic.cfg.Network)))
	return nil
}

func getAddressVersion(ic *Context) error {
	ic.push(stackitem.NewInt(int64(ic.cfg.AddressVersion)))
	return nil
}

func getTrigger(ic *Context) error {
	ic.push(stackitem.NewInt(int64(ic.cfg.Trigger)))
	return nil
}

func getTime(ic *Context) error {
	if ic.cfg.Block == nil {
		return Fault(ErrNotAllowed, "no persisting block")
	}
	ic.push(stackitem.NewBigInteger(new(big.Int).SetUint64(ic.cfg.Block.Timestamp)))
	return nil
}

func getScriptContainer(ic *Context) error {
	if ic.tx == nil {
		return Fault(ErrNotAllowed, "unknown script container")
	}
	ic.push(state.TransactionToStackItem(ic.tx))
	return nil
}

// CurrentScriptHash is the hash of the executing script.
func (ic *Context) CurrentScriptHash() util.Uint160 { return ic.vm.Context().ScriptHash() }

// CallingScriptHash is the native caller of the current context, or the
// hash of the context that loaded it (ok=false for the entry context).
func (ic *Context) CallingScriptHash() (util.Uint160, bool) {
	return callingHash(StateOf(ic.vm.Context()))
}

func callingHash(st *ContextState) (util.Uint160, bool) {
	if st.HasNativeCaller {
		return st.NativeCaller, true
	}
	if st.Calling == nil {
		return util.Uint160{}, false
	}
	return st.Calling.ScriptHash(), true
}

func getExecutingScriptHash(ic *Context) error {
	ic.pushHash(ic.CurrentScriptHash())
	return nil
}

func getCallingScriptHash(ic *Context) error {
	if h, ok := ic.CallingScriptHash(); ok {
		ic.pushHash(h)
	} else {
		ic.push(stackitem.Null{})
	}
	return nil
}

func getEntryScriptHash(ic *Context) error {
	ic.pushHash(ic.vm.EntryContext().ScriptHash())
	return nil
}

func getInvocationCounter(ic *Context) error {
	h := ic.CurrentScriptHash()
	n, ok := ic.invocations.get(h)
	if !ok {
		n = 1
		ic.invocations.set(h, n)
	}
	ic.push(stackitem.NewInt(int64(n)))
	return nil
}

func getRandom(ic *Context) error {
	var buf [NonceDataLen]byte
	price := int64(1 << 4)
	if ic.IsHardforkEnabled(protocol.HFAspidochelone) {
		buf = murmur128(ic.nonce[:], ic.cfg.Network+ic.randomTimes)
		ic.randomTimes++
		price = 1 << 13
	} else {
		ic.nonce = murmur128(ic.nonce[:], ic.cfg.Network)
		buf = ic.nonce
	}
	if err := ic.chargeExec(price); err != nil {
		return err
	}
	le := buf[:]
	be := make([]byte, len(le))
	for i := range le {
		be[len(le)-1-i] = le[i]
	}
	ic.push(stackitem.NewBigInteger(new(big.Int).SetBytes(be)))
	return nil
}

func runtimeLog(ic *Context) error {
	s, err := ic.popString()
	if err != nil {
		return err
	}
	b := []byte(s)
	if len(b) > MaxNotificationSize {
		return Faultf(ErrInvalidArgument, "message length shouldn't exceed %d", MaxNotificationSize)
	}
	if ic.cfg.OnLog != nil {
		ic.cfg.OnLog(LogEvent{Container: ic.cfg.Container, ScriptHash: ic.CurrentScriptHash(), Message: string(b)})
	}
	return nil
}

func runtimeNotify(ic *Context) error {
	name, err := ic.popString()
	if err != nil {
		return err
	}
	args, err := ic.popArray()
	if err != nil {
		return err
	}
	if len(name) > MaxEventName {
		return Faultf(ErrInvalidArgument, "event name must be less than %d", MaxEventName)
	}
	c := ic.current().Contract
	if c == nil {
		return Fault(ErrNotAllowed, "notifications are not allowed in dynamic scripts")
	}
	if ic.IsHardforkEnabled(protocol.HFBasilisk) {
		if err := checkEvent(c, string(name), args); err != nil {
			return err
		}
	}
	if _, err := stackitem.SerializedSize(args, MaxNotificationSize, ic.vm.Limits().MaxStackSize); err != nil {
		if errors.Is(err, stackitem.ErrTooLarge) {
			return vm.Fault(ErrInvalidArgument, fmt.Sprintf("notification size shouldn't exceed %d", MaxNotificationSize), err)
		}
		return vm.Fault(ErrInvalidArgument, "bad notification: "+err.Error(), err)
	}
	return ic.SendNotification(ic.CurrentScriptHash(), string(name), args)
}

// checkEvent validates a notification against the contract's manifest.
func checkEvent(c *state.Contract, name string, args *stackitem.Array) error {
	ev := c.Manifest.ABI.GetEvent(name)
	if ev == nil {
		return Faultf(ErrNotAllowed, "notification %s does not exist", name)
	}
	if len(ev.Parameters) != args.Len() {
		return Faultf(ErrInvalidArgument, "notification %s is invalid: mismatch between the number of parameters and items: %d vs %d", name, len(ev.Parameters), args.Len())
	}
	for i, p := range ev.Parameters {
		if !checkItemType(args.At(i), p.Type) {
			return Faultf(ErrInvalidArgument, "notification %s is invalid: parameter %d type mismatch: %s (manifest) vs %s (notification)", name, i, p.Type, args.At(i).Type())
		}
	}
	return nil
}

// checkItemType is the reference CheckItemType.
func checkItemType(it stackitem.Item, t smartcontract.ParamType) bool {
	at := it.Type()
	if at == stackitem.PointerT {
		return false
	}
	isAny := at == stackitem.AnyT
	isBytes := at == stackitem.ByteArrayT || at == stackitem.BufferT
	sized := func(n int) bool {
		if isAny {
			return true
		}
		b, _ := it.Bytes()
		return isBytes && len(b) == n
	}
	switch t {
	case smartcontract.AnyType:
		return true
	case smartcontract.BoolType:
		return at == stackitem.BooleanT
	case smartcontract.IntegerType:
		return at == stackitem.IntegerT
	case smartcontract.ByteArrayType:
		return isAny || isBytes
	case smartcontract.StringType:
		b, _ := it.Bytes()
		return isBytes && utf8.Valid(b)
	case smartcontract.Hash160Type:
		return sized(util.Uint160Size)
	case smartcontract.Hash256Type:
		return sized(util.Uint256Size)
	case smartcontract.PublicKeyType:
		return sized(33)
	case smartcontract.SignatureType:
		return sized(64)
	case smartcontract.ArrayType:
		return isAny || at == stackitem.ArrayT || at == stackitem.StructT
	case smartcontract.MapType:
		return isAny || at == stackitem.MapT
	case smartcontract.InteropInterfaceType:
		return isAny || at == stackitem.InteropT
	}
	return false
}

// SendNotification records a notification of contract h (the reference
// SendNotification; natives call it for their events). The state is deep
// copied as immutable.
func (ic *Context) SendNotification(h util.Uint160, name string, args *stackitem.Array) error {
	if ic.IsHardforkEnabled(protocol.HFEchidna) && ic.cfg.Trigger == triggerApplication &&
		len(ic.notifications) >= MaxNotificationCount {
		return Faultf(ErrNotAllowed, "notification count shouldn't exceed %d", MaxNotificationCount)
	}
	cp, _ := stackitem.DeepCopy(args, true).(*stackitem.Array) // a copy of an array is an array
	ic.notifications = append(ic.notifications, state.NotificationEvent{ScriptHash: h, Name: name, Item: cp})
	ic.current().notificationCount++
	return nil
}

// SendOwnNotification is SendNotification for the arguments of a
// notification a native contract built for it alone (it keeps no reference
// to items): when they hold no compound and no Buffer they are taken as they
// are, without the deep copy (a read-only array of the same items, what the
// copy would be).
func (ic *Context) SendOwnNotification(h util.Uint160, name string, items []stackitem.Item) error {
	arr, ok := stackitem.NewImmutableArray(items)
	if !ok {
		return ic.SendNotification(h, name, stackitem.NewArray(items))
	}
	if ic.IsHardforkEnabled(protocol.HFEchidna) && ic.cfg.Trigger == triggerApplication &&
		len(ic.notifications) >= MaxNotificationCount {
		return Faultf(ErrNotAllowed, "notification count shouldn't exceed %d", MaxNotificationCount)
	}
	ic.notifications = append(ic.notifications, state.NotificationEvent{ScriptHash: h, Name: name, Item: arr})
	ic.current().notificationCount++
	return nil
}

func getNotifications(ic *Context) error {
	h, filter, err := ic.popNullableHash160()
	if err != nil {
		return err
	}
	domovoi := ic.IsHardforkEnabled(protocol.HFDomovoi)
	var out []stackitem.Item
	for i := range ic.notifications {
		n := &ic.notifications[i]
		if filter && n.ScriptHash != h {
			continue
		}
		var st stackitem.Item = n.Item
		if domovoi {
			st = stackitem.DeepCopy(n.Item, true)
		}
		out = append(out, stackitem.NewArray([]stackitem.Item{
			stackitem.ByteString(n.ScriptHash.BytesLE()), stackitem.ByteString(n.Name), st,
		}))
		if len(out) > ic.vm.Limits().MaxStackSize {
			return Fault(ErrNotAllowed, "too many notifications")
		}
	}
	ic.push(stackitem.NewArray(out))
	return nil
}

func gasLeft(ic *Context) error {
	ic.push(stackitem.NewInt(ic.vm.GasLeft()))
	return nil
}

func burnGas(ic *Context) error {
	it, err := ic.pop()
	if err != nil {
		return err
	}
	n, err := itemInt(it, math.MinInt64, math.MaxInt64)
	if err != nil {
		if isRangeError(err) {
			return Fault(ErrInvalidArgument, "invalid GAS value")
		}
		return err
	}
	if n <= 0 {
		return Fault(ErrInvalidArgument, "GAS must be positive")
	}
	if n > math.MaxInt64/vm.FeeFactor {
		return vm.Fault(vm.ErrOutOfGas, vm.GasLimitText, nil)
	}
	return ic.AddFee(n)
}

func currentSigners(ic *Context) error {
	if ic.tx == nil {
		ic.push(stackitem.Null{})
		return nil
	}
	items := make([]stackitem.Item, len(ic.tx.Signers))
	for i := range ic.tx.Signers {
		items[i] = state.SignerToStackItem(&ic.tx.Signers[i])
	}
	ic.push(stackitem.NewArray(items))
	return nil
}

func loadScript(ic *Context) error {
	script, err := ic.popBytes()
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
	// The reference loads new Script(script, strictMode: true).
	if err := vm.ValidateScript(script); err != nil {
		return vm.Fault(ErrInvalidArgument, "invalid script: "+err.Error(), err)
	}
	cur := ic.vm.Context()
	st := ic.newState()
	st.CallFlags = flags & StateOf(cur).CallFlags & callflag.ReadOnly
	st.Calling, st.IsDynamicCall = cur, true
	ctx, err := ic.load(script, -1, 0, st, util.Uint160{}, false)
	if err != nil {
		return err
	}
	pushArgs(ctx, args.Items())
	return nil
}

// pushArgs pushes args so that the first one ends on top.
func pushArgs(ctx *vm.Context, args []stackitem.Item) {
	for i := len(args) - 1; i >= 0; i-- {
		ctx.Estack().Push(args[i])
	}
}
