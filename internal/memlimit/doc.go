// Package memlimit keeps the process's soft memory limit (the runtime's
// debug.SetMemoryLimit) near a chosen multiple of the node's settled live
// heap, so that a transient peak (a block of tens of thousands of
// transactions, a burst of RPC answers) makes the garbage collector run
// more often instead of doubling the heap and the resident memory with it.
//
// Data flow: the runtime ends a collection → a cleanup armed on a
// throw-away object runs in the runtime's cleanup goroutine → Tuner reads
// the live heap and the runtime's non-heap memory (runtime/metrics) →
// Policy.next folds the live heap into a time-weighted average and returns
// the limit → debug.SetMemoryLimit; the next throw-away object is armed.
// No goroutine of ours runs: Stop disarms the chain and puts back the
// limit found at Start.
//
// The limit is max(average × (1 + Percent/100), live × (1 + MinPercent/100),
// Floor) plus the non-heap memory, and GOGC stays at its value: while the
// live heap is below the average the runtime's own goal (twice the live
// heap by default) may be the lower one and wins. cmd/n3d starts one tuner
// for `n3d node` from the configuration's Memory section, unless GOMEMLIMIT
// or GOGC is set in the environment.
package memlimit
