package main

import (
	"runtime/debug"

	"github.com/n3d-io/n3d/internal/memlimit"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"
)

// startMemoryLimit applies the configuration's Memory section to the
// process (docs/configuration.md, Memory) and returns what undoes it.
// GOMEMLIMIT or GOGC in the environment is the operator's own choice of
// the runtime's settings: the section is then left alone.
func startMemoryLimit(m config.Memory, getenv func(string) string, reg prometheus.Registerer,
	log *zap.Logger) (undo func()) {
	for _, v := range []string{"GOMEMLIMIT", "GOGC"} {
		if getenv(v) != "" {
			log.Info("memory: the environment sets the runtime's limits, the Memory section is not applied",
				zap.String("variable", v), zap.String("value", getenv(v)))
			return func() {}
		}
	}
	switch m.Mode() {
	case config.MemoryOff:
		log.Info("memory: Go runtime defaults (Memory.SoftLimit off)")
		return func() {}
	case config.MemoryAuto:
		percent := m.HeapPercent
		if percent == 0 {
			percent = config.DefaultMemoryHeapPercent
		}
		t, err := memlimit.Start(memlimit.NewPolicy(percent), memlimit.Config{Registerer: reg})
		if err != nil {
			log.Warn("memory: soft limit metrics not registered", zap.Error(err))
		}
		log.Info("memory: soft limit follows the live heap", zap.Int("heapPercent", percent))
		return t.Stop
	}
	n, _ := m.FixedLimit() // validated with the configuration
	old := debug.SetMemoryLimit(n)
	log.Info("memory: fixed soft limit", zap.Int64("bytes", n))
	return func() { debug.SetMemoryLimit(old) }
}
