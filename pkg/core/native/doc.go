// Package native implements Neo N3's native contracts and the framework
// they are built on.
//
// # Framework
//
// A native is a Contract: a sealed ContractMD (name, id, hash of the zero
// sender with checksum 0, activation hardfork, methods and events with
// their hardfork ranges) plus Initialize, OnPersist and PostPersist. A new
// native needs a few lines:
//
//	md := NewContractMD("Name", id, protocol.HFDefault)
//	md.AddMethod(Method{Name: "get", Return: smartcontract.IntegerType,
//	        CPUFee: 1 << 15, Flags: callflag.ReadStates, Handler: h})
//	md.AddEvent(Event{Name: "Changed", Params: ...})
//	md.Seal()
//
// Seal builds one Snapshot per hardfork: the methods active then, in the
// reference's order (ordinal name, then parameter count), each a 7-byte
// stub PUSH0; SYSCALL System.Contract.CallNative; RET in a NEF of compiler
// "neo-core-v3.0", and the manifest (safe = no flag beyond ReadOnly,
// wildcard permission). A hardfork where a method or event appears or
// disappears (or one added with AddUpdateHardfork) is an update hardfork.
//
// # Data flow
//
// Registry (interop.Natives) holds the natives in the reference's order.
// System.Contract.CallNative reaches entry.Invoke: version 0, activation
// at the current height, the snapshot of the latest enabled hardfork, the
// method by the IP after the syscall, call flags, CPUFee × exec fee factor
// + StorageFee × storage price, arguments peeked first parameter first,
// Handler, then arguments popped and the result pushed (Void: nothing). A
// handler that calls a contract (ContractManagement deploy/update and
// _deploy) returns Deferred and completes the call in its CallFromNative
// continuation. Handler errors FAULT the script.
//
// ContractManagement's OnPersist deploys every native in the block where
// it activates (genesis for most) and updates it where one of its update
// hardforks activates: state written to ContractManagement storage (prefix
// 8 and 12, through pkg/core/dao) with the snapshot of the latest enabled
// hardfork and update counter + 1, Initialize for the activation and every
// activating update hardfork, then a Deploy or Update notification.
//
// # Natives here
//
// ContractManagement (management*.go), StdLib (std*.go), CryptoLib
// (crypto.go, adapters over pkg/crypto), LedgerContract (ledger.go, reads
// the DAO's block and transaction records) and PolicyContract (policy.go;
// policy_block.go: blocked accounts, the Faun fee whitelist and
// recoverFund; values in its storage, Genesis.* written when Echidna
// activates, the exec fee factor moved to picoGAS when Faun activates —
// ExecPicoFeeFactor gives an execution's factor). NeoToken and the other
// natives are built on the same framework in this package.
//
// Policy depends on NeoToken through small interfaces declared in
// policy.go: Committee (committee witness), VoteRevoker (the Faun
// blockAccount and destroy revoke the account's vote; Policy writes the
// blocked record in the continuation, after any onNEP17Payment call the
// revocation made) and CommitteeKeys (recoverFund's almost-full committee).
//
// # Caches
//
// Contract states are cached by the DAO (decoded states checked against
// the stored bytes, so private layers and discards are safe). Policy keeps
// monotone key filters (policy_cache.go) of blocked accounts and
// whitelisted methods: a key never written by this Policy nor present
// when the filter loaded is absent from every layer, so the per-call
// IsBlocked and WhitelistedFee checks skip the storage read in the common
// case. The filters assume Policy storage changes only through this
// Policy: a DAO over another state (a historic or imported one) needs its
// own Policy or ResetCaches. Scalar Policy values are read from storage.
package native
