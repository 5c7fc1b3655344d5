// Package notarypool is the pool of P2P notary requests of a node on a
// network with P2PSigExtensions, with the reference's (neo-go's) rules: a
// request is keyed by its fallback transaction's hash; requests are
// ordered like transactions (HighPriority, then fee per byte, then network
// fee, of the fallback); a full pool evicts its least prioritized request
// for a better one and refuses one that is not better (ErrOOM); the fees of
// a payer's pooled fallbacks (the Notary deposit of the fallback's second
// signer, as the Notary contract is its sender) must not exceed its
// deposit; Conflicts attributes replace pooled fallbacks as in the
// mempool. After each block, requests whose fallback or main transaction
// landed, that expired, or that the chain no longer finds relevant are
// dropped, and fee sums are recomputed against fresh balances.
//
// The chain-dependent verification of a request (its payload witness, the
// fallback's sender, the deposit's lock, the fallback's own verification)
// happens before Add, in the caller.
package notarypool
