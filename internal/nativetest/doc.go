// Package nativetest is a small VM-driven harness for tests of the native
// contracts: it builds every native of pkg/core/native for a test
// protocol configuration, persists the genesis block over a
// storage.MemoryStore, and then runs blocks the way the chain does —
// System.Contract.NativeOnPersist, each transaction's script under the
// Application trigger in its own private DAO layer (kept only on HALT),
// System.Contract.NativePostPersist — returning VM state, result stack,
// notifications and GAS consumed of every script.
//
// # Data flow
//
//	c := nativetest.New(t, nativetest.Options{Committee: 7, Validators: 4})
//	tx := c.Tx(script, nativetest.CalledByEntry(acc)...)   // signers only
//	br := c.AddBlock(tx)                                    // block height+1
//	br.Txs[0].State, .Stack, .Events, .GasConsumed
//	res := c.Call(signers, script)   // read-only: next block, changes dropped
//
// Witnesses are not signatures: System.Runtime.CheckWitness looks at the
// transaction's signers and their scopes, so a test witnesses an account by
// listing it as a signer. Standby committee keys are deterministic
// (Keys), CommitteeAddress and ValidatorsAddress are the multisig accounts
// of the genesis committee and validators. Deploy puts a hand-written test
// contract straight into ContractManagement storage (PaymentReceiver and
// Rejecter are ready-made onNEP17Payment contracts).
//
// Transactions carry no fees unless a test sets them (GAS OnPersist burns
// SystemFee+NetworkFee from the sender); scripts run with an unlimited GAS
// limit unless Tx.SystemFee is set, in which case that is the limit, as on
// the chain.
package nativetest
