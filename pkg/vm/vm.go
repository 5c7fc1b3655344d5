package vm

import (
	"fmt"
	"math"
	"runtime"

	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// SyscallHandler executes SYSCALL id. An error FAULTs the VM; use VM.Throw
// for an exception the script may catch.
type SyscallHandler func(v *VM, id uint32) error

// CallTHandler executes CALLT token.
type CallTHandler func(v *VM, token uint16) error

// FeeFactor converts datoshi to the picoGAS units the VM counts in.
const FeeFactor = 10000

// VM is a NeoVM instance. It is not safe for concurrent use.
type VM struct {
	invTree  *InvocationTree // nil: not collected
	istack   []*Context
	entry    *Context
	rstack   *Stack // &rs
	rc       stackitem.RefCounter
	state    State
	jumping  bool
	uncaught stackitem.Item // nil: no pending exception
	faultErr error
	// cur is the context whose instruction is executing; its ip is that
	// instruction's until the step ends (handlers move it last), which
	// the fault text reports.
	cur    *Context
	limits Limits

	feeFactor   int64 // picoGAS per opcode price unit
	feeConsumed int64 // picoGAS
	feeLimit    int64 // picoGAS, < 0: unlimited

	preGorgon bool

	rs       Stack       // the result stack, allocated with the VM
	rsIn     [2]elem     // its first entries
	istackIn [4]*Context // first invocation frames, allocated with the VM

	// SyscallHandler runs SYSCALL; nil makes every SYSCALL FAULT.
	SyscallHandler SyscallHandler
	// CallTHandler runs CALLT; nil makes every CALLT FAULT.
	CallTHandler CallTHandler
	// Host is an opaque value for the handlers (the interop layer keeps its
	// Context here, so that its handlers can be plain functions and
	// creating a VM allocates no closures).
	Host any
	// OnContextUnloaded, if set, runs after a context left the invocation
	// stack (on RET, after its results were copied to the caller, or while
	// an exception unwinds through it). An error FAULTs the VM with that
	// error as the fault exception (reference ApplicationEngine
	// ContextUnloaded throwing).
	OnContextUnloaded func(v *VM, ctx *Context) error
}

// New returns a VM in the BREAK state with the default limits, the latest
// (all hardforks enabled) semantics, no fee and no gas limit.
func New() *VM {
	v := &VM{state: BreakState, limits: DefaultLimits, feeLimit: -1}
	v.rs = Stack{e: v.rsIn[:0], rc: &v.rc}
	v.rstack = &v.rs
	v.istack = v.istackIn[:0]
	return v
}

// Reset returns v to the state New leaves a VM in, keeping its limits and
// its handlers (SyscallHandler, CallTHandler, Host, OnContextUnloaded), so
// that a VM reused for the next run allocates nothing. The fee factor, GAS
// limit and hardfork semantics are reset as well: set them again.
func (v *VM) Reset() {
	*v = VM{state: BreakState, limits: v.limits, feeLimit: -1,
		SyscallHandler: v.SyscallHandler, CallTHandler: v.CallTHandler,
		Host: v.Host, OnContextUnloaded: v.OnContextUnloaded}
	v.rs = Stack{e: v.rsIn[:0], rc: &v.rc}
	v.rstack = &v.rs
	v.istack = v.istackIn[:0]
}

// NewWithLimits returns New with custom limits.
func NewWithLimits(l Limits) *VM {
	v := New()
	v.limits = l
	return v
}

// SetHardforkChecker selects the opcode semantics of the hardforks that
// f reports as enabled (pre-Gorgon SHL/SHR, HASKEY, PICKITEM, SETITEM,
// REMOVE; nothing else differs, see the package doc). Call it before
// execution.
func (v *VM) SetHardforkChecker(f func(protocol.Hardfork) bool) {
	v.preGorgon = !f(protocol.HFGorgon)
}

// SetExecFeeFactor sets the opcode fee factor in datoshi (the Policy
// ExecFeeFactor before Faun).
func (v *VM) SetExecFeeFactor(f int64) { v.feeFactor = f * FeeFactor }

// SetExecPicoFeeFactor sets the opcode fee factor in picoGAS (Faun+).
func (v *VM) SetExecPicoFeeFactor(f int64) { v.feeFactor = f }

// ExecFeeFactor is the fee factor in picoGAS.
func (v *VM) ExecFeeFactor() int64 { return v.feeFactor }

// SetGasLimit sets the GAS limit in datoshi; a negative limit disables it.
func (v *VM) SetGasLimit(datoshi int64) {
	switch {
	case datoshi < 0:
		v.feeLimit = -1
	case datoshi > math.MaxInt64/FeeFactor:
		v.feeLimit = math.MaxInt64
	default:
		v.feeLimit = datoshi * FeeFactor
	}
}

// GasLimit is the GAS limit in datoshi (-1: none).
func (v *VM) GasLimit() int64 {
	if v.feeLimit < 0 {
		return -1
	}
	return v.feeLimit / FeeFactor
}

// GasConsumed is the GAS spent in datoshi, rounded up.
func (v *VM) GasConsumed() int64 { return (v.feeConsumed + FeeFactor - 1) / FeeFactor }

// GasLeft is the GAS left in datoshi (-1 without a limit).
func (v *VM) GasLeft() int64 {
	if v.feeLimit < 0 {
		return -1
	}
	return (v.feeLimit - v.feeConsumed) / FeeFactor
}

// AddPicoGas charges pico picoGAS; it fails once the limit is passed.
// A fee-exempt current context is not charged.
func (v *VM) AddPicoGas(pico int64) error {
	if c := v.Context(); c != nil && c.sh.feeExempt {
		return nil
	}
	if pico < 0 || v.feeConsumed > math.MaxInt64-pico {
		v.feeConsumed = math.MaxInt64
	} else {
		v.feeConsumed += pico
	}
	if v.feeLimit >= 0 && v.feeConsumed > v.feeLimit {
		return outOfGas
	}
	return nil
}

// AddGas charges datoshi GAS.
func (v *VM) AddGas(datoshi int64) error {
	if datoshi > math.MaxInt64/FeeFactor {
		return v.AddPicoGas(math.MaxInt64)
	}
	return v.AddPicoGas(datoshi * FeeFactor)
}

// State is the current state.
func (v *VM) State() State { return v.state }

// SetState sets the state (debuggers use BREAK/NONE).
func (v *VM) SetState(s State) { v.state = s }

// Limits returns the limits in force.
func (v *VM) Limits() Limits { return v.limits }

// References is the reference counter value (stack items counted with
// the reference semantics).
func (v *VM) References() int { return v.rc.Count() }

// RefCounter is the counter interop code must keep in step when it
// changes compound items that are on a stack.
func (v *VM) RefCounter() *stackitem.RefCounter { return &v.rc }

// FaultException is the error that FAULTed the VM: a *FaultError when
// an instruction failed.
func (v *VM) FaultException() error { return v.faultErr }

// UncaughtException is the exception being thrown (nil if none).
func (v *VM) UncaughtException() stackitem.Item { return v.uncaught }

// Context is the current (top) context, nil when none is loaded.
func (v *VM) Context() *Context {
	if len(v.istack) == 0 {
		return nil
	}
	return v.istack[len(v.istack)-1]
}

// EntryContext is the first context loaded.
func (v *VM) EntryContext() *Context { return v.entry }

// CallingContext is the context below the current one, or nil.
func (v *VM) CallingContext() *Context {
	if len(v.istack) < 2 {
		return nil
	}
	return v.istack[len(v.istack)-2]
}

// InvocationStack returns the contexts, top (current) first.
func (v *VM) InvocationStack() []*Context {
	out := make([]*Context, len(v.istack))
	for i, c := range v.istack {
		out[len(out)-1-i] = c
	}
	return out
}

// Istack returns the number of contexts.
func (v *VM) InvocationDepth() int { return len(v.istack) }

// Estack is the current context's evaluation stack, or the result stack
// when no context is loaded.
func (v *VM) Estack() *Stack {
	if c := v.Context(); c != nil {
		return c.sh.estack
	}
	return v.rstack
}

// ResultStack holds the values left by the entry context's RET.
func (v *VM) ResultStack() *Stack { return v.rstack }

// LoadScript loads script as a new context that may return any number of
// values.
func (v *VM) LoadScript(script []byte) (*Context, error) {
	return v.LoadScriptWithRetCount(script, -1, 0)
}

// LoadScriptWithRetCount loads script with a new evaluation stack, the
// given return value count (-1: any) and initial position.
func (v *VM) LoadScriptWithRetCount(script []byte, rvcount, ip int) (*Context, error) {
	if rvcount < -1 || rvcount > math.MaxUint16 {
		return nil, fmt.Errorf("%w: return count %d", ErrOutOfRange, rvcount)
	}
	if ip < 0 || ip > len(script) {
		return nil, fmt.Errorf("%w: position %d/%d", ErrJump, ip, len(script))
	}
	f := &frame{}
	f.script = stackitem.MakeScript(script)
	f.es = Stack{e: f.elems[:0], rc: &v.rc}
	f.sh = shared{script: &f.script, estack: &f.es}
	f.ctx = Context{sh: &f.sh, ip: ip, rvcount: rvcount}
	return &f.ctx, v.LoadContext(&f.ctx)
}

// frame is what loading a script allocates, in one piece: the context,
// its shared state, evaluation stack (with room for its first items) and
// script instance.
type frame struct {
	ctx    Context
	sh     shared
	es     Stack
	script stackitem.Script
	elems  [8]elem
}

// LoadContext pushes ctx onto the invocation stack. It fails when the
// stack is full or ctx's position is outside its script.
func (v *VM) LoadContext(ctx *Context) error {
	if n := len(ctx.sh.script.Bytes()); ctx.ip < 0 || ctx.ip > n {
		return fmt.Errorf("%w: position %d/%d", ErrJump, ctx.ip, n)
	}
	if len(v.istack) >= v.limits.MaxInvocationStackSize {
		return fmt.Errorf("%w: %d", ErrInvocationOverflow, len(v.istack))
	}
	if v.invTree != nil && ctx.sh.tree == nil {
		v.addTreeNode(ctx)
	}
	v.istack = append(v.istack, ctx)
	if v.entry == nil {
		v.entry = ctx
	}
	return nil
}

// Run executes until HALT or FAULT and returns the FAULT error.
func (v *VM) Run() error {
	if v.state == BreakState {
		v.state = NoneState
	}
	v.loop(-1)
	if v.state == FaultState {
		return v.faultErr
	}
	return nil
}

// ExecuteNext executes one instruction (reference ExecuteNext); with an
// empty invocation stack it sets HALT.
func (v *VM) ExecuteNext() {
	v.loop(1)
}

// loop executes up to n instructions (n < 0: until HALT/FAULT).
func (v *VM) loop(n int) {
	defer v.recoverFault()
	for ; n != 0 && v.state != HaltState && v.state != FaultState; n-- {
		v.step()
	}
}

func (v *VM) recoverFault() {
	r := recover()
	if r == nil {
		return
	}
	var err error
	switch x := r.(type) {
	case vmPanic:
		err = x.err
	case runtime.Error:
		err = faultf(ErrInternal, "%v", x)
	default:
		err = faultf(ErrInternal, "%v", x)
	}
	v.state = FaultState
	v.faultErr = v.faultAt(err)
}

// faultAt wraps err with the instruction being executed.
func (v *VM) faultAt(err error) *FaultError {
	fe := &FaultError{Op: opcode.RET, Err: err}
	if c := v.cur; c != nil {
		fe.IP = c.ip
		if script := c.sh.script.Bytes(); c.ip < len(script) {
			fe.Op = opcode.Opcode(script[c.ip])
		}
	}
	return fe
}

// step is one reference ExecuteNext without the fault handling.
func (v *VM) step() {
	if len(v.istack) == 0 {
		v.state = HaltState
		return
	}
	ctx := v.istack[len(v.istack)-1]
	script := ctx.sh.script.Bytes()
	op, arg, size := opcode.RET, []byte(nil), 0
	v.cur = ctx
	if ctx.ip < len(script) {
		op, arg, size = v.decode(script, ctx.ip)
	}
	if v.feeFactor != 0 && !ctx.sh.feeExempt {
		v.feeConsumed += v.feeFactor * opcodePrice[op] // both bounded: no overflow
		if v.feeLimit >= 0 && v.feeConsumed > v.feeLimit {
			v.fail(outOfGas)
		}
	}
	handlers[op](v, ctx, op, arg)
	if v.rc.Count() > v.limits.MaxStackSize {
		v.fail(faultf(ErrStackOverflow, "stack is too big: %d vs %d", v.rc.Count(), v.limits.MaxStackSize))
	}
	if !v.jumping {
		ctx.ip += size
	}
	v.jumping = false
}

// decode reads the instruction at ip (reference Instruction constructor);
// operands of fixed size are sliced inline, the rest goes through
// decodeInstruction.
func (v *VM) decode(script []byte, ip int) (opcode.Opcode, []byte, int) {
	op := opcode.Opcode(script[ip])
	if info := opInfo[op]; info.valid && info.prefix == 0 {
		if end := ip + 1 + int(info.size); end <= len(script) {
			return op, script[ip+1 : end], 1 + int(info.size)
		}
	}
	op, arg, size, err := decodeInstruction(script, ip)
	v.check(err)
	return op, arg, size
}

// opInfo caches validity and operand layout per opcode byte.
var opInfo [256]struct {
	valid        bool
	size, prefix uint8
}

func init() {
	for i := range opInfo {
		op := opcode.Opcode(i)
		size, prefix := opcode.OperandSize(op)
		opInfo[i].valid = op.IsValid()
		opInfo[i].size, opInfo[i].prefix = uint8(size), uint8(prefix)
	}
}
