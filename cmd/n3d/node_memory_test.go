package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
)

func TestStartMemoryLimitFixed(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	undo := startMemoryLimit(config.Memory{SoftLimit: "300MiB"}, func(string) string { return "" },
		prometheus.NewRegistry(), zap.NewNop())
	require.Equal(t, int64(300<<20), debug.SetMemoryLimit(-1))
	undo()
	require.Equal(t, before, debug.SetMemoryLimit(-1))
}

func TestStartMemoryLimitEnvironmentWins(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	for _, v := range []string{"GOMEMLIMIT", "GOGC"} {
		undo := startMemoryLimit(config.Memory{SoftLimit: "300MiB"}, func(k string) string {
			if k == v {
				return "50"
			}
			return ""
		}, prometheus.NewRegistry(), zap.NewNop())
		require.Equal(t, before, debug.SetMemoryLimit(-1), v)
		undo()
	}
}

func TestStartMemoryLimitOffAndAuto(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	require.Equal(t, int64(math.MaxInt64), before, "a test process starts without a limit")
	undo := startMemoryLimit(config.Memory{SoftLimit: "off"}, func(string) string { return "" },
		prometheus.NewRegistry(), zap.NewNop())
	require.Equal(t, before, debug.SetMemoryLimit(-1))
	undo()
	// auto sets a limit from the next collection on; undo puts back none.
	undo = startMemoryLimit(config.Memory{}, func(string) string { return "" }, prometheus.NewRegistry(), zap.NewNop())
	require.Eventually(t, func() bool {
		runtime.GC()
		return debug.SetMemoryLimit(-1) != before
	}, 10*time.Second, 10*time.Millisecond)
	undo()
	require.Equal(t, before, debug.SetMemoryLimit(-1))
}
