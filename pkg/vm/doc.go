// Package vm is the NeoVM interpreter of n3d, byte-for-byte compatible with
// the reference neo-project/neo-vm.
//
// # Data flow
//
// A host (the interop layer, a test, a tool) creates a VM with New, sets
// the injected behaviour — SyscallHandler, CallTHandler, OnContextUnloaded,
// SetHardforkChecker, SetExecFeeFactor/SetGasLimit — loads one or more
// scripts (LoadScript, LoadScriptWithRetCount) and calls Run. Each loaded
// script is a Context with its own evaluation stack; CALL/CALL_L/CALLA push
// frames (Context.Clone) that share the caller's stack, static fields and
// host data (Context.Data); a host may load such a clone itself, as the
// interop layer does to run a contract's _initialize. RET copies the
// results to the caller's stack when the stacks differ (checking the
// return count) and leaves them on the callee's, then OnContextUnloaded
// runs; its error FAULTs the VM. Run decodes and executes one instruction at a time
// through a table of opcode handlers, charges the reference opcode price ×
// exec fee factor, and stops in HALT (values on ResultStack) or FAULT
// (FaultException explains why). ExecuteNext, StepInto, StepOut and
// StepOver follow the reference debugger.
//
// # Script checks
//
// Loading a script does not validate it (the reference's lenient Script):
// a bad instruction FAULTs when reached. ValidateScript is the
// reference's strict mode (every instruction decodes, jump/call/try/PUSHA
// targets start instructions, type operands are defined), used by
// System.Runtime.LoadScript and for witness, transaction and contract
// scripts; NewScriptChecker gives the per-offset check that
// manifest.ABI.Check takes (CheckInstruction), strict or lenient.
//
// # Faithfulness
//
// Stack references are counted with the reference semantics
// (stackitem.RefCounter); the count enforces MaxStackSize. Only THROW, the
// out-of-range PICKITEM/SETITEM cases and VM.Throw raise catchable
// exceptions; every other error FAULTs, as in the reference. Behaviour that
// changed with a hardfork (SHL/SHR by zero, HASKEY bounds and the int32
// index casts of PICKITEM/SETITEM/REMOVE before Gorgon) is selected per VM
// with SetHardforkChecker; New uses the latest behaviour. These are all
// the opcode overrides of the reference (ApplicationEngine's NotGorgon and
// NotEchidna jump tables); the pre-Echidna SUBSTR differs only by an
// unchecked int32 overflow of index+count that FAULTs either way, so it
// has no switch.
//
// # FAULT texts
//
// The error of a FAULT (Run's result, FaultException) is a *FaultError:
// the offset and opcode of the failing instruction and the cause, which
// errors.Is matches against this package's sentinels (ErrAbort,
// ErrOutOfGas, ...). Its text is what the reference Go node (neo-go)
// reports, since it ends up in application logs and invocation results:
// "at instruction 0 (ABORT): ABORT", `at instruction 6 (THROW): unhandled
// exception: "boom"`. Syscall and CALLT handlers word their own failures
// (Fault builds an error with a sentinel and a text). The text is built
// only on FAULT; the step loop just records the instruction's offset and
// opcode.
//
// # Performance
//
// Integers that fit in int64 are kept inline in stack and slot entries,
// so arithmetic, comparisons, jumps and stack shuffles on them do not
// allocate; big.Int is used beyond int64. Handlers signal a FAULT by
// panicking with an internal value that the execution loop recovers.
package vm
