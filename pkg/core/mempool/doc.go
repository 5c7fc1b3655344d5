// Package mempool is the memory pool: the verified transactions waiting
// for a block, ordered by priority, bounded by the protocol's MemPoolSize,
// with the reference's (C# MemoryPool, TransactionVerificationContext)
// rules for fees, Conflicts attributes and oracle responses.
//
// Data flow:
//
//	chain.VerifyTx(tx) at height h ──▶ Pool.Add(tx, h)
//	    ErrStale if the chain is no longer at h (verify again)
//	    ErrDup | ErrConflict | ErrInsufficientFunds | ErrOracleResponse | ErrOOM
//	    else: replaced (Conflicts) txs out, tx in, lowest one out when over
//	    capacity (only for a strictly higher priority, the hash aside:
//	    item.cmpPriority); events to subscribers
//	consensus / RPC ──▶ GetVerifiedTransactions, Top(n) (priority order),
//	                    TryGet, Contains, Count
//	chain added a block ──▶ UpdateForBlock(block txs, isStillValid):
//	    included and conflicting txs out, every other one re-checked in
//	    parallel, fee context rebuilt from the new balances
//
// Priority (item.cmp) is the reference's PoolItem order: HighPriority
// attribute, then NetworkFee/Size, then NetworkFee, then the smaller hash.
// The pool keeps its items in a chunked sorted list (order.go), so Add,
// eviction and removal cost O(log n) searches plus a bounded move, and the
// ordered listing is a walk.
//
// Fees: a sender's pooled transactions' system and network fees, plus a
// new one's, must not exceed its GAS balance (read through Ledger once per
// height); the fees of the transactions a new one replaces through
// Conflicts are deducted first, as the reference does. At most one pooled
// transaction answers a given oracle request.
//
// Conflicts (reference CheckConflicts): a new transaction replaces the
// pooled transactions it names and those naming it; it must share a
// signer with every one it names, and its network fee must exceed the sum
// of the network fees of those it names and of those naming it that its
// sender signs (when that sum is not zero).
//
// Events (Subscribe) are delivered in the pool's order without ever
// blocking it: a subscriber whose channel is full is dropped. Metrics:
// n3d_mempool_transactions (gauge) and n3d_mempool_removed_total{reason}.
//
// Saved pool (persist.go, persist_flush.go, persist_follow.go): a
// Journal records every accepted transaction in a file (Stage on the
// accept path, or Follow on the pool's events; Flush writes all staged
// records in one write, shared by concurrent callers), forgets those that
// leave the pool and compacts the file to the pool's contents once they
// dominate it, and at the next start returns the saved transactions;
// Reload verifies and pools them again, returning those to announce. The
// pool itself keeps no file.
//
// Locking: one RWMutex guards the indexes; Add, Remove and the rebuild
// step of UpdateForBlock hold it for writing, readers for reading; the
// isStillValid checks of UpdateForBlock run without it. subMu (the
// subscriptions) is taken after mu.
package mempool
