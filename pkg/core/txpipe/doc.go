// Package txpipe is the ingress pipeline of transactions: what the P2P
// server and the RPC server hand over on the way to the memory pool.
//
// Data flow:
//
//	peer inv ──ShouldRequest(h)──▶ getdata only for hashes not in flight,
//	                               not pooled, not processed recently
//	peer tx  ──Submit(src, tx)──┐
//	RPC tx   ──SubmitWait(ctx, tx)─┤  dedup: Bloom filter of recently
//	                               │  processed hashes (peers only) + pool
//	                               │  + exact in-flight set (a tx sent by
//	                               │  several peers is processed once;
//	                               │  SubmitWait joins the flight)
//	                               ▼
//	        per-source queues, served round-robin (sched.go)
//	                               ▼ one dispatcher, unbuffered hand-off
//	        Workers goroutines: Pool.CanFit → Verifier.VerifyTx at height h
//	                            → Pool.Add(tx, h) (re-verify on ErrStale)
//	                               ▼
//	        batcher: Relay(hashes) in groups of ≤ MaxInvHashes (42), a
//	        full group at once, a partial one after RelayDelay
//
// Fairness: a source (a peer) has its own bounded queue (PerSource), and
// the dispatcher takes one transaction from each active source in turn,
// so a flooding peer gets one verification slot in as many as there are
// active sources and cannot delay quiet peers or the RPC server by more
// than one round.
//
// Lifecycle: Run(ctx) owns the dispatcher, the workers and the relay
// batcher; when ctx ends it stops dispatching, lets the workers finish
// the transaction in hand, relays what is pending, fails the queued
// transactions with ErrStopped and returns. Submit works before Run (the
// jobs wait) and fails with ErrStopped after it.
//
// The chain's VerifyTx must be safe for concurrent use; the workers gain
// only as far as it runs in parallel.
package txpipe
