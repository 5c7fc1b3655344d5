// Package state holds the records the chain persists and reports about
// contract execution, in the reference's binary, stack-item and JSON forms:
//
//   - Contract: a deployed contract (id, update counter, hash, NEF,
//     manifest). ContractManagement stores it as the binary-serialized
//     stack item [id, updatecounter, hash, nef bytes, manifest struct]
//     (Bytes / ContractFromBytes); getcontractstate prints MarshalJSON.
//     CanCall applies the caller's manifest permissions.
//   - NotificationEvent: one System.Runtime.Notify (contract, event name,
//     state array), with the getapplicationlog JSON.
//   - Execution / AppExecResult: the outcome of one script run (trigger, VM
//     state, GAS consumed, result stack, notifications, fault text) with
//     the getapplicationlog JSON and a bounded binary form for the
//     DataExecutable records of pkg/core/dao.
//   - Stack-item forms of transactions, signers, witness rules and
//     conditions (the reference's IInteroperable ToStackItem), used by
//     System.Runtime.GetScriptContainer, CurrentSigners and the Ledger
//     contract.
//
// Subpackage itemjson is the RPC JSON form of stack items.
//
// Data flow: the interop layer builds NotificationEvents and Executions while
// running scripts; the chain wraps them into AppExecResults and hands them to
// the DAO, which encodes them with EncodeBinary; RPC reads them back with
// DecodeBinary and prints MarshalJSON. Contracts travel the same way between
// ContractManagement storage (Bytes) and the interop layer.
package state
