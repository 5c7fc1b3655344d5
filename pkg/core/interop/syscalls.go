package interop

import (
	"crypto/sha256"
	"encoding/binary"
	"slices"
	"strconv"

	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/vm"
)

// Function is one syscall: its name and id, the fixed price (multiplied by
// the exec fee factor; 0 for the syscalls that charge a dynamic price
// themselves), the call flags the current context needs and the hardfork
// that introduces it (HFDefault: always there).
type Function struct {
	ID            uint32
	Name          string
	Price         int64
	RequiredFlags callflag.CallFlag
	ActiveFrom    protocol.Hardfork
	Func          func(ic *Context) error
}

// ID returns the syscall id of name: the first four bytes of SHA-256(name),
// little-endian.
func ID(name string) uint32 {
	h := sha256.Sum256([]byte(name))
	return binary.LittleEndian.Uint32(h[:4])
}

// Syscall names.
const (
	ContractCall                  = "System.Contract.Call"
	ContractCallNative            = "System.Contract.CallNative"
	ContractCreateMultisigAccount = "System.Contract.CreateMultisigAccount"
	ContractCreateStandardAccount = "System.Contract.CreateStandardAccount"
	ContractGetCallFlags          = "System.Contract.GetCallFlags"
	ContractNativeOnPersist       = "System.Contract.NativeOnPersist"
	ContractNativePostPersist     = "System.Contract.NativePostPersist"
	CryptoCheckMultisig           = "System.Crypto.CheckMultisig"
	CryptoCheckSig                = "System.Crypto.CheckSig"
	IteratorNext                  = "System.Iterator.Next"
	IteratorValue                 = "System.Iterator.Value"
	RuntimeBurnGas                = "System.Runtime.BurnGas"
	RuntimeCheckWitness           = "System.Runtime.CheckWitness"
	RuntimeCurrentSigners         = "System.Runtime.CurrentSigners"
	RuntimeGasLeft                = "System.Runtime.GasLeft"
	RuntimeGetAddressVersion      = "System.Runtime.GetAddressVersion"
	RuntimeGetCallingScriptHash   = "System.Runtime.GetCallingScriptHash"
	RuntimeGetEntryScriptHash     = "System.Runtime.GetEntryScriptHash"
	RuntimeGetExecutingScriptHash = "System.Runtime.GetExecutingScriptHash"
	RuntimeGetInvocationCounter   = "System.Runtime.GetInvocationCounter"
	RuntimeGetNetwork             = "System.Runtime.GetNetwork"
	RuntimeGetNotifications       = "System.Runtime.GetNotifications"
	RuntimeGetRandom              = "System.Runtime.GetRandom"
	RuntimeGetScriptContainer     = "System.Runtime.GetScriptContainer"
	RuntimeGetTime                = "System.Runtime.GetTime"
	RuntimeGetTrigger             = "System.Runtime.GetTrigger"
	RuntimeLoadScript             = "System.Runtime.LoadScript"
	RuntimeLog                    = "System.Runtime.Log"
	RuntimeNotify                 = "System.Runtime.Notify"
	RuntimePlatform               = "System.Runtime.Platform"
	StorageAsReadOnly             = "System.Storage.AsReadOnly"
	StorageDelete                 = "System.Storage.Delete"
	StorageFind                   = "System.Storage.Find"
	StorageGet                    = "System.Storage.Get"
	StorageGetContext             = "System.Storage.GetContext"
	StorageGetReadOnlyContext     = "System.Storage.GetReadOnlyContext"
	StorageLocalDelete            = "System.Storage.Local.Delete"
	StorageLocalFind              = "System.Storage.Local.Find"
	StorageLocalGet               = "System.Storage.Local.Get"
	StorageLocalPut               = "System.Storage.Local.Put"
	StoragePut                    = "System.Storage.Put"
)

const (
	rs  = callflag.ReadStates
	ws  = callflag.WriteStates
	ac  = callflag.AllowCall
	an  = callflag.AllowNotify
	hfF = protocol.HFFaun
)

// functions is the syscall table, sorted by id (init).
var functions = []Function{
	{Name: ContractCall, Price: 1 << 15, RequiredFlags: rs | ac, Func: contractCall},
	{Name: ContractCallNative, Func: contractCallNative},
	{Name: ContractCreateMultisigAccount, Func: createMultisigAccount},
	{Name: ContractCreateStandardAccount, Func: createStandardAccount},
	{Name: ContractGetCallFlags, Price: 1 << 10, Func: getCallFlags},
	{Name: ContractNativeOnPersist, RequiredFlags: callflag.States, Func: nativeOnPersist},
	{Name: ContractNativePostPersist, RequiredFlags: callflag.States, Func: nativePostPersist},
	{Name: CryptoCheckMultisig, Func: checkMultisig},
	{Name: CryptoCheckSig, Price: CheckSigPrice, Func: checkSig},
	{Name: IteratorNext, Price: 1 << 15, Func: iteratorNext},
	{Name: IteratorValue, Price: 1 << 4, Func: iteratorValue},
	{Name: RuntimeBurnGas, Price: 1 << 4, Func: burnGas},
	{Name: RuntimeCheckWitness, Price: 1 << 10, Func: checkWitness},
	{Name: RuntimeCurrentSigners, Price: 1 << 4, Func: currentSigners},
	{Name: RuntimeGasLeft, Price: 1 << 4, Func: gasLeft},
	{Name: RuntimeGetAddressVersion, Price: 1 << 3, Func: getAddressVersion},
	{Name: RuntimeGetCallingScriptHash, Price: 1 << 4, Func: getCallingScriptHash},
	{Name: RuntimeGetEntryScriptHash, Price: 1 << 4, Func: getEntryScriptHash},
	{Name: RuntimeGetExecutingScriptHash, Price: 1 << 4, Func: getExecutingScriptHash},
	{Name: RuntimeGetInvocationCounter, Price: 1 << 4, Func: getInvocationCounter},
	{Name: RuntimeGetNetwork, Price: 1 << 3, Func: getNetwork},
	{Name: RuntimeGetNotifications, Price: 1 << 12, Func: getNotifications},
	{Name: RuntimeGetRandom, Func: getRandom},
	{Name: RuntimeGetScriptContainer, Price: 1 << 3, Func: getScriptContainer},
	{Name: RuntimeGetTime, Price: 1 << 3, Func: getTime},
	{Name: RuntimeGetTrigger, Price: 1 << 3, Func: getTrigger},
	{Name: RuntimeLoadScript, Price: 1 << 15, RequiredFlags: ac, Func: loadScript},
	{Name: RuntimeLog, Price: 1 << 15, RequiredFlags: an, Func: runtimeLog},
	{Name: RuntimeNotify, Price: 1 << 15, RequiredFlags: an, Func: runtimeNotify},
	{Name: RuntimePlatform, Price: 1 << 3, Func: platform},
	{Name: StorageAsReadOnly, Price: 1 << 4, RequiredFlags: rs, Func: storageAsReadOnly},
	{Name: StorageDelete, Price: 1 << 15, RequiredFlags: ws, Func: storageDelete},
	{Name: StorageFind, Price: 1 << 15, RequiredFlags: rs, Func: storageFind},
	{Name: StorageGet, Price: 1 << 15, RequiredFlags: rs, Func: storageGet},
	{Name: StorageGetContext, Price: 1 << 4, RequiredFlags: rs, Func: storageGetContext},
	{Name: StorageGetReadOnlyContext, Price: 1 << 4, RequiredFlags: rs, Func: storageGetReadOnlyContext},
	{Name: StorageLocalDelete, Price: 1 << 15, RequiredFlags: ws, ActiveFrom: hfF, Func: storageLocalDelete},
	{Name: StorageLocalFind, Price: 1 << 15, RequiredFlags: rs, ActiveFrom: hfF, Func: storageLocalFind},
	{Name: StorageLocalGet, Price: 1 << 15, RequiredFlags: rs, ActiveFrom: hfF, Func: storageLocalGet},
	{Name: StorageLocalPut, Price: 1 << 15, RequiredFlags: ws, ActiveFrom: hfF, Func: storageLocalPut},
	{Name: StoragePut, Price: 1 << 15, RequiredFlags: ws, Func: storagePut},
}

func init() {
	for i := range functions {
		functions[i].ID = ID(functions[i].Name)
	}
	slices.SortFunc(functions, func(a, b Function) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
}

// Functions returns a copy of the syscall table, sorted by id.
func Functions() []Function { return slices.Clone(functions) }

// errNoSyscall is an unknown or not yet active syscall.
var errNoSyscall = Fault(ErrUnknownSyscall, "syscall not found")

// lookup finds the syscall with id (binary search, no allocation).
func lookup(id uint32) *Function {
	lo, hi := 0, len(functions)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if functions[m].ID < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(functions) && functions[lo].ID == id {
		return &functions[lo]
	}
	return nil
}

// syscall is the VM's SyscallHandler (reference OnSysCall): hardfork
// activation, call flags, the fixed price, then the handler.
func (ic *Context) syscall(_ *vm.VM, id uint32) error {
	f := lookup(id)
	if f == nil {
		return syscallFault(strconv.FormatUint(uint64(id), 10), errNoSyscall)
	}
	if !ic.IsHardforkEnabled(f.ActiveFrom) {
		return syscallFault(faultName(f), errNoSyscall)
	}
	if err := ic.checkFlags(f.RequiredFlags); err != nil {
		return syscallFault(faultName(f), err)
	}
	if err := ic.chargeExec(f.Price); err != nil {
		return syscallFault(faultName(f), err)
	}
	if err := f.Func(ic); err != nil {
		return syscallFault(faultName(f), err)
	}
	return nil
}
