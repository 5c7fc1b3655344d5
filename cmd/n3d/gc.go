package main

import (
	"os"
	"runtime/debug"
)

// defaultGCPercent is the garbage collector's goal n3d runs with when the
// operator has not chosen one (GOGC): the heap may grow by this percentage
// of the live heap before a collection, against Go's default of 100. Much
// of a node's live heap is long-lived (LevelDB's memtables, the signature
// cache, the transaction filter, the pool) while the garbage comes from RPC
// requests and block processing; at 100 the long-lived part is doubled in
// the peak too. Restoring a 200,000-transaction neo-bench chain (4 MiB
// memtables) peaked at 106-109 MiB with 100 and 86-90 MiB with 50 (neo-go:
// 97-101); with the smaller memtable it cost ~15% of the restore's CPU,
// still 3.2-3.5 times less than neo-go's (docs/benchmarks-tps.md,
// "Memory"). GOGC=100 gives Go's default back.
const defaultGCPercent = 50

// applyGCDefaults sets defaultGCPercent unless the GOGC environment
// variable is set (then the Go runtime has applied it already); GOMEMLIMIT
// is left to the runtime as well. It returns the percentage in effect when
// it set one, or -1 when GOGC decides.
func applyGCDefaults(getenv func(string) string, setGCPercent func(int) int) int {
	if getenv("GOGC") != "" {
		return -1
	}
	setGCPercent(defaultGCPercent)
	return defaultGCPercent
}

// setProcessGCDefaults applies the defaults to this process (main only: a
// program embedding pkg/node keeps its own GC settings).
func setProcessGCDefaults() {
	applyGCDefaults(os.Getenv, debug.SetGCPercent)
}
