package interop

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/state"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// Execution limits and prices of the reference engine.
const (
	// MaxNotificationCount bounds the notifications of an Application run
	// from Echidna on.
	MaxNotificationCount = 512
	// MaxNotificationSize bounds a serialized notification state and a log
	// message.
	MaxNotificationSize = 1024
	// MaxEventName bounds an event name in bytes.
	MaxEventName = 32
	// MaxStorageKeySize and MaxStorageValueSize bound Storage.Put.
	MaxStorageKeySize   = 64
	MaxStorageValueSize = math.MaxUint16
	// CheckSigPrice is the fixed price of one signature check (datoshi
	// before the exec fee factor).
	CheckSigPrice = 1 << 15
	// NonceDataLen is the size of the GetRandom seed.
	NonceDataLen = 16
	// Platform is what System.Runtime.Platform returns.
	Platform = "NEO"
)

// Errors.
var (
	// ErrMissingFlags is returned when the current context lacks the call
	// flags a syscall or call requires.
	ErrMissingFlags = errors.New("interop: missing call flags")
	// ErrUnknownSyscall is returned for an id that is not (yet) a syscall.
	ErrUnknownSyscall = errors.New("interop: syscall not found")
	// ErrInvalidArgument is returned for a syscall argument of the wrong type
	// or out of range.
	ErrInvalidArgument = errors.New("interop: invalid argument")
	// ErrNotAllowed is returned for an operation the current context may not
	// perform.
	ErrNotAllowed = errors.New("interop: operation not allowed")
	// ErrContractNotFound is returned for a call to a missing contract or
	// method.
	ErrContractNotFound = errors.New("interop: contract or method not found")
)

// Container is what a script runs for: *transaction.Transaction or
// *block.Block.
type Container interface {
	Hash() util.Uint256
}

// NativeContract is a native contract as the interop layer sees it; the
// native framework (pkg/core/native) implements it.
type NativeContract interface {
	// Hash is the contract's script hash.
	Hash() util.Uint160
	// IsActive reports whether the contract exists at block height.
	IsActive(ic *Context, height uint32) bool
	// Invoke runs the method whose System.Contract.CallNative the current
	// context executes (at ic.VM().Context().IP(); version is the pushed
	// version byte). It pops its arguments and pushes its result, or
	// defers that to a CallFromNative continuation. It must check itself
	// that the contract is active at the Ledger's current height.
	Invoke(ic *Context, version byte) error
	// OnPersist and PostPersist run the block hooks.
	OnPersist(ic *Context) error
	PostPersist(ic *Context) error
}

// Natives is the set of native contracts.
type Natives interface {
	// ByHash returns the native contract with hash h, or nil.
	ByHash(h util.Uint160) NativeContract
	// List returns every native contract in the reference's order.
	List() []NativeContract
}

// Policy answers the Policy contract's questions about calls.
type Policy interface {
	// IsBlocked reports whether contract h is blocked.
	IsBlocked(d *dao.DAO, h util.Uint160) (bool, error)
	// WhitelistedFee returns the fixed fee (datoshi) of a whitelisted
	// method (Faun+), ok=false when the method is not whitelisted.
	WhitelistedFee(d *dao.DAO, h util.Uint160, m *manifest.Method) (fee int64, ok bool, err error)
}

// LogEvent is one System.Runtime.Log call.
type LogEvent struct {
	Container  Container
	ScriptHash util.Uint160
	Message    string
}

// Config is everything a Context needs besides its DAO. Zero values of the
// optional fields disable what they provide.
type Config struct {
	Trigger   trigger.Type
	Container Container    // nil for test invocations without container
	Block     *block.Block // the persisting block; nil: none
	Network   uint32
	// AddressVersion is what GetAddressVersion returns (0x35 on N3).
	AddressVersion byte
	// HardforkEnabled reports whether hf is active at height; required.
	HardforkEnabled func(hf protocol.Hardfork, height uint32) bool
	// OpcodeHeight, used only when Block is nil, is the Ledger's current
	// height: the reference picks the opcode semantics (its jump table)
	// by the persisting block's index or else by the current height,
	// while syscalls without a block see every configured hardfork as
	// enabled. Nil: opcodes follow the syscall rule too.
	OpcodeHeight *uint32
	// ExecFeeFactor is the opcode and syscall price multiplier in picoGAS
	// (the Policy value × vm.FeeFactor before Faun).
	ExecFeeFactor int64
	// StoragePrice is the price of one stored byte in datoshi.
	StoragePrice int64
	// GasLimit is the GAS available in datoshi; negative: unlimited.
	GasLimit int64
	Natives  Natives // optional
	Policy   Policy  // optional
	// OracleRequestSigners returns the signers of the request transaction
	// an OracleResponse attribute answers (CheckWitness uses them).
	OracleRequestSigners func(d *dao.DAO, id uint64) ([]transaction.Signer, error)
	// SigCache, if set, answers CheckSig/CheckMultisig for signatures
	// that verified before (e.g. in the mempool); shared, concurrent-safe.
	SigCache *keys.SigCache
	// OnLog receives System.Runtime.Log messages (optional).
	OnLog func(LogEvent)
	// VMLimits overrides the VM limits (zero value: vm.DefaultLimits).
	VMLimits vm.Limits
}

// Context is the state of one script execution: the VM, the DAO layer the
// current contract sees, notifications, invocation counters and the random
// seed. It is not safe for concurrent use.
type Context struct {
	cfg           Config
	vm            *vm.VM
	dao           *dao.DAO
	tx            *transaction.Transaction
	notifications []state.NotificationEvent
	invocations   counters
	states        [2]ContextState // the first loaded contexts' states
	statesUsed    int
	spares        []*dao.DAO // finished contexts' layers (spareLayer)
	nonce         [NonceDataLen]byte
	randomTimes   uint32
	// faultStack, when set, is the evaluation stack the reference Go node
	// reports for a FAULT raised while a context was being unloaded (it
	// still sees the unloaded context's stack then).
	faultStack []stackitem.Item
}

// NewContext returns a Context over d (typically the transaction's private
// DAO) with a fresh VM configured from cfg.
func NewContext(cfg Config, d *dao.DAO) *Context {
	ic := &Context{}
	if cfg.VMLimits == (vm.Limits{}) {
		ic.vm = vm.New()
	} else {
		ic.vm = vm.NewWithLimits(cfg.VMLimits)
	}
	ic.vm.Host = ic
	ic.vm.SyscallHandler = hostSyscall
	ic.vm.CallTHandler = hostCallT
	ic.vm.OnContextUnloaded = hostContextUnloaded
	ic.setup(cfg, d)
	return ic
}

// Reuse returns a Context as NewContext(cfg, d) makes it, reusing ic and
// its VM when ic is not nil: ic's run must be over and its results taken
// (Execution), and nothing may use ic any more. A different VMLimits
// gets a new Context.
func (ic *Context) Reuse(cfg Config, d *dao.DAO) *Context {
	if ic == nil || cfg.VMLimits != ic.cfg.VMLimits {
		return NewContext(cfg, d)
	}
	v, spares := ic.vm, ic.spares
	*ic = Context{vm: v, spares: spares}
	v.Reset()
	ic.setup(cfg, d)
	return ic
}

// setup configures a new or reset Context and its VM from cfg.
func (ic *Context) setup(cfg Config, d *dao.DAO) {
	ic.cfg, ic.dao = cfg, d
	ic.tx, _ = cfg.Container.(*transaction.Transaction)
	if ic.tx != nil {
		h := ic.tx.Hash()
		copy(ic.nonce[:], h[:NonceDataLen])
	}
	if cfg.Block != nil {
		n := binary.LittleEndian.Uint64(ic.nonce[:]) ^ cfg.Block.Nonce
		binary.LittleEndian.PutUint64(ic.nonce[:], n)
	}
	ic.vm.SetHardforkChecker(ic.opcodeHardforkEnabled)
	ic.vm.SetExecPicoFeeFactor(cfg.ExecFeeFactor)
	ic.vm.SetGasLimit(cfg.GasLimit)
}

// The VM hooks: plain functions finding the Context in VM.Host.
func hostSyscall(v *vm.VM, id uint32) error { return v.Host.(*Context).syscall(v, id) }
func hostCallT(v *vm.VM, tok uint16) error  { return v.Host.(*Context).callT(v, tok) }
func hostContextUnloaded(v *vm.VM, ctx *vm.Context) error {
	return v.Host.(*Context).contextUnloaded(v, ctx)
}

// VM returns the VM.
func (ic *Context) VM() *vm.VM { return ic.vm }

// DAO returns the DAO layer of the current context: storage reads and writes
// of syscalls and natives go there.
func (ic *Context) DAO() *dao.DAO { return ic.dao }

// Trigger returns the trigger.
func (ic *Context) Trigger() trigger.Type { return ic.cfg.Trigger }

// Container returns the script container (nil if none).
func (ic *Context) Container() Container { return ic.cfg.Container }

// Tx returns the container transaction, or nil.
func (ic *Context) Tx() *transaction.Transaction { return ic.tx }

// Block returns the persisting block, or nil.
func (ic *Context) Block() *block.Block { return ic.cfg.Block }

// Network returns the network magic.
func (ic *Context) Network() uint32 { return ic.cfg.Network }

// Natives returns the native contract set (nil if none).
func (ic *Context) Natives() Natives { return ic.cfg.Natives }

// ExecFeeFactor returns the price multiplier in picoGAS.
func (ic *Context) ExecFeeFactor() int64 { return ic.cfg.ExecFeeFactor }

// StoragePrice returns the price of a stored byte in datoshi.
func (ic *Context) StoragePrice() int64 { return ic.cfg.StoragePrice }

// IsHardforkEnabled reports whether hf is active for the persisting block;
// without a block, whether hf is configured at all (the reference rule).
func (ic *Context) IsHardforkEnabled(hf protocol.Hardfork) bool {
	if hf == protocol.HFDefault {
		return true
	}
	if ic.cfg.HardforkEnabled == nil {
		return false
	}
	if ic.cfg.Block == nil {
		return ic.cfg.HardforkEnabled(hf, math.MaxUint32)
	}
	return ic.cfg.HardforkEnabled(hf, ic.cfg.Block.Index)
}

// opcodeHardforkEnabled is the rule of the reference ApplicationEngine.Create
// for choosing the jump table.
func (ic *Context) opcodeHardforkEnabled(hf protocol.Hardfork) bool {
	if ic.cfg.Block == nil && ic.cfg.OpcodeHeight != nil && ic.cfg.HardforkEnabled != nil {
		return hf == protocol.HFDefault || ic.cfg.HardforkEnabled(hf, *ic.cfg.OpcodeHeight)
	}
	return ic.IsHardforkEnabled(hf)
}

// Notifications returns the notifications sent so far (not to be modified).
func (ic *Context) Notifications() []state.NotificationEvent { return ic.notifications }

// AddFee charges datoshi GAS (scaled to picoGAS).
func (ic *Context) AddFee(datoshi int64) error { return ic.vm.AddPicoGas(datoshi * vm.FeeFactor) }

// chargeExec charges price × the exec fee factor.
func (ic *Context) chargeExec(price int64) error {
	return ic.vm.AddPicoGas(price * ic.cfg.ExecFeeFactor)
}

// Run executes the loaded scripts until HALT or FAULT and returns the fault.
func (ic *Context) Run() error { return ic.vm.Run() }

// Execution returns the result of the run in the application log form.
func (ic *Context) Execution() state.Execution {
	e := state.Execution{
		Trigger:     ic.cfg.Trigger,
		VMState:     ic.vm.State(),
		GasConsumed: ic.vm.GasConsumed(),
	}
	e.Stack = ic.vm.ResultStack().Items()
	if e.VMState == vm.FaultState {
		// The reference Go node reports the evaluation stack of the
		// context that faulted (C# neo reports its empty result stack);
		// application logs follow neo-go.
		e.Stack = ic.vm.Estack().Items()
		if ic.faultStack != nil {
			e.Stack = ic.faultStack
		}
		if f := ic.vm.FaultException(); f != nil {
			e.FaultException = f.Error()
		}
	}
	// A FAULT keeps the notifications sent so far (those of contexts
	// unloaded by a caught exception are already gone), as in neo and
	// neo-go; their consumers (token tracking, RPC) skip FAULTed runs.
	e.Events = ic.notifications
	return e
}

// GetContract returns the state of contract h as the current context sees
// it.
func (ic *Context) GetContract(h util.Uint160) (*state.Contract, error) {
	return ic.dao.GetContract(h)
}

func (ic *Context) pushBytes(b []byte) { ic.vm.Estack().Push(stackitem.ByteString(b)) }
