// Package dao is typed access to the node's key-value store: contract
// storage, contract states, and the ledger records (blocks, transactions,
// execution results, chain pointers) in neo-go's key layout.
//
// # Layering
//
// A DAO wraps a storage.Store, usually the chain's per-block
// storage.MemCachedStore. Private returns a DAO over a fresh storage.Snapshot
// of it: the chain runs each transaction, and the interop layer each contract
// call that may be rolled back, in a private DAO, then calls Persist (commit
// into the parent) or Discard. Privates nest. PrivateReusing makes a
// private DAO out of a finished one (its snapshot and the memory of its
// maps): the chain's executor uses one for all the transactions of a block,
// the interop layer reuses its finished calls' layers. A DAO is not safe for
// concurrent use; privates of one parent must be used one at a time.
//
// # Key layout (see docs/storage-format.md)
//
//	contract storage   STStorage(0x70) ‖ int32 LE contract id ‖ key
//	                   (the MPT key is the same without the first byte)
//	contract state     storage of ContractManagement (id -1):
//	                   8 ‖ hash (20 bytes LE)  → serialized state.Contract
//	                   12 ‖ int32 BE id        → hash (20 bytes LE)
//	block              DataExecutable(0x01) ‖ hash (wire order) →
//	                   ExecBlock ‖ trimmed block ‖ AppExecResult*
//	                   (a header alone is stored as a trimmed block without
//	                   transactions)
//	transaction        DataExecutable ‖ hash (wire order) →
//	                   ExecTransaction ‖ u32 LE height ‖ tx ‖ AppExecResult
//	conflict stub      DataExecutable ‖ conflicting hash (wire order) [‖ signer (wire order)]
//	                   → ExecTransaction ‖ u32 LE height
//	current block      SYSCurrentBlock  → hash (LE) ‖ u32 LE height
//	current header     SYSCurrentHeader → hash (byte-reversed) ‖ u32 LE height
//	header hash batch  IXHeaderHashList ‖ u32 BE first height → var array
//	                   of hashes (LE)
//
// # Caches
//
// Decoded contract states are cached by hash together with the stored bytes
// they came from; a lookup still reads the bytes through the store (cheap in
// the memory layers) and reuses the decoded value only if they are equal, so
// the cache can never serve a state another layer has changed. The cache is
// shared by a DAO and its privates and is safe for concurrent use. Cached
// contracts are shared: callers must not modify them.
package dao
