// Package blockqueue orders blocks that arrive out of order (from several
// peers, duplicated, ahead of the chain) and feeds them to the ledger one at
// a time, in height order.
//
// Data flow: any number of goroutines call Put; the block lands in a ring
// slot chosen by its index (blocks already on chain, too far ahead or
// already queued are dropped at once). One goroutine, Run, owns the feeding:
// woken by Put, it hands the block following the ledger's height to
// Ledger.AddBlock, repeatedly, until the next one is missing, then sleeps.
// A queued block the ledger got another way meanwhile (consensus, another
// peer's copy that came while the first was being added) is dropped as
// soon as the ledger's height passes it (Put and Run sweep the slots of
// the heights reached), so the ring holds only blocks still to be added.
// Run returns when its context is cancelled, after the block in progress
// (if any) has been added; the ledger is never called after Run returned.
package blockqueue
