// Package interop is the execution environment of NeoVM scripts on the
// chain: the Context that owns a VM, and every System.* syscall of the
// reference with its id, price and required call flags.
//
// # Using a Context (chain, natives, verification)
//
//	ic := interop.NewContext(interop.Config{Trigger: ..., Container: tx,
//	        Block: b, Network: magic, AddressVersion: 0x35,
//	        HardforkEnabled: cfg.Enabled, ExecFeeFactor: pico,
//	        StoragePrice: p, GasLimit: tx.SystemFee, Natives: n,
//	        Policy: pol, OracleRequestSigners: f, OnLog: l}, d.Private())
//	ic.LoadScript(tx.Script, callflag.All, -1, 0)   // or LoadContract
//	err := ic.Run()
//	exec := ic.Execution()                          // state.Execution
//
// NewContext wires the VM: SyscallHandler (table lookup by id, hardfork
// activation, call flags, fixed price × ExecFeeFactor, handler), CALLT
// (method tokens of the executing contract), the opcode hardfork checker,
// fee factor and gas limit.
//
// # Per-context state and DAO layers
//
// Every loaded script carries a ContextState (StateOf): call flags, the
// executing contract (nil for dynamic scripts), the calling context, the
// native caller, the dynamic-call mark. A script loaded by another one with
// WriteStates gets its own private DAO layer (ic.DAO() always returns the
// current layer); when it returns normally the layer is committed into the
// caller's and its notifications stay, when an exception unwinds it both
// are dropped — the reference's per-context snapshot semantics. A dynamic
// call (System.Contract.Call, System.Runtime.LoadScript) that returns
// nothing leaves Null on the caller's stack; one that returns several
// values FAULTs (the VM leaves the results on the callee's stack, so the
// unload hook counts them there). LoadContract runs a contract's
// _initialize first, in a vm.Context.Clone of the called method's context
// so both share the static fields.
//
// # For the native framework
//
// Implement NativeContract and Natives; System.Contract.CallNative
// dispatches to NativeContract.Invoke of the executing native, NativeOnPersist
// and NativePostPersist run OnPersist/PostPersist of every active native.
// Natives use ic.DAO(), ic.VM(), ic.IsHardforkEnabled, ic.CheckWitness,
// ic.SendNotification, ic.AddFee, ic.GetContract, ic.LoadContract and
// ic.CallFromNative (a contract call whose continuation runs when the
// callee returns, e.g. onNEP17Payment). Policy supplies the blocked-contract
// check and the Faun fee whitelist.
//
// # Dynamic prices
//
// GetRandom (2^4, 2^13 from Aspidochelone), CreateStandardAccount and
// CreateMultisigAccount (2^8, CheckSigPrice per key from Aspidochelone),
// CheckMultisig (CheckSigPrice per key), Storage.Put (StoragePrice per
// byte, see PutFeeSize) and BurnGas charge on top of the table price.
//
// # Hardforks
//
// Basilisk: Notify checks the event against the manifest. Domovoi: the
// permission check uses the executing context's contract state and
// GetNotifications copies states. Echidna: at most 512 notifications per
// Application run. Faun: System.Storage.Local.* and the Policy fee
// whitelist. Aspidochelone: GetRandom and account-creation prices.
// Gorgon: CheckSig/CheckMultisig FAULT on a signature that is not 64
// bytes (false before); a public key that does not decode FAULTs always.
// Opcode semantics (vm.SetHardforkChecker, Gorgon) follow the persisting
// block, or without one Config.OpcodeHeight (the reference's jump-table
// choice), while syscalls without a block see every configured hardfork.
//
// # FAULT texts
//
// A failing syscall FAULTs the VM with the reference Go node's wording:
// "System.Contract.Call failed: method not found: nosuch/0" for an error
// its handler returns, and the bare text for what it raises as a panic
// (an argument of the wrong type, the error of a native method): see
// Bare, Fault and faults.go. Errors keep their sentinels (ErrInvalidArgument,
// ErrContractNotFound, ...) for errors.Is.
package interop
