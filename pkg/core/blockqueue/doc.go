// Package blockqueue orders blocks that arrive out of order (from several
// peers, duplicated, ahead of the chain) and feeds them to the ledger one at
// a time, in height order.
//
// Data flow: any number of goroutines call Put; the block lands in a ring
// slot chosen by its index (blocks already on chain, too far ahead or
// already queued are dropped at once). One goroutine, Run, owns the feeding:
// woken by Put, it hands the block following the ledger's height to
// Ledger.AddBlock, repeatedly, until the next one is missing, then sleeps.
// Run returns when its context is cancelled, after the block in progress
// (if any) has been added; the ledger is never called after Run returned.
package blockqueue
