// Package cputime reads the CPU time the process has used, the figure the
// benchmarks and the simulator report per operation (wall time on a shared
// machine says more about the other jobs than about the code).
package cputime

import (
	"syscall"
	"time"
)

// Process is the user and system CPU time the process has used so far
// (0 if the system cannot say).
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
