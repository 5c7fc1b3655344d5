// Package memlimit keeps the process's soft memory limit (the runtime's
// debug.SetMemoryLimit) near a chosen multiple of the node's settled live
// heap, so that a transient peak (a block of tens of thousands of
// transactions, a burst of RPC answers) makes the garbage collector run
// more often instead of doubling the heap and the resident memory with it.
//
// Data flow: the runtime ends a collection → a cleanup armed on a
// throw-away object runs in the runtime's cleanup goroutine → Tuner reads
// the live heap and the runtime's non-heap memory (runtime/metrics) →
// Policy.next folds the live heap into a peak that fades over a minute and
// returns the limit → debug.SetMemoryLimit; the next throw-away object is
// armed. No goroutine of ours runs: Stop disarms the chain and puts back
// the limit found at Start.
//
// The limit is max(peak × (1 + Percent/100), Floor) plus the non-heap
// memory, and GOGC stays at its value. With GOGC alone the heap goal
// jumps to twice the live heap at every peak and the resident memory
// stays near the highest goal (freed pages go back to the system slowly);
// under the limit the heap may grow Percent over the recent peak, so a
// lower Percent trades collector CPU for memory at the peaks only, and
// the limit never falls below the live heap (no collection back to back).
// cmd/n3d starts one tuner for `n3d node` from the configuration's Memory
// section, unless GOMEMLIMIT or GOGC is set in the environment.
package memlimit
