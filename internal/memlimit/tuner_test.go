package memlimit

import (
	"math"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"
)

// fakeLimit records the limits a tuner sets instead of changing the test
// process's own.
type fakeLimit struct {
	mu  sync.Mutex
	cur int64
	set []int64
}

func (f *fakeLimit) SetLimit(v int64) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	old := f.cur
	if v >= 0 {
		f.cur = v
		f.set = append(f.set, v)
	}
	return old
}

// collectUntil runs collections until ch receives or the deadline passes.
func collectUntil(t *testing.T, ch <-chan int64) int64 {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC()
		select {
		case v := <-ch:
			return v
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatal("no limit set after collections")
	return 0
}

func TestTunerSetsLimitAfterCollection(t *testing.T) {
	fake := &fakeLimit{cur: math.MaxInt64}
	updates := make(chan int64, 16)
	reg := prometheus.NewRegistry()
	tu, err := Start(NewPolicy(50), Config{SetLimit: fake.SetLimit, Registerer: reg,
		OnUpdate: func(v int64) {
			select {
			case updates <- v:
			default:
			}
		}})
	require.NoError(t, err)
	got := collectUntil(t, updates)

	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	// At least the floor, and above the heap in use right now (the live
	// heap of a test process is far below the floor).
	require.GreaterOrEqual(t, got, int64(DefaultFloor))
	require.Greater(t, got, int64(ms.HeapAlloc))
	require.Equal(t, float64(got), gaugeValue(t, tu.limitGauge))
	require.Positive(t, gaugeValue(t, tu.peakGauge))

	tu.Stop()
	fake.mu.Lock()
	require.Equal(t, int64(math.MaxInt64), fake.cur, "Stop puts back the limit found at Start")
	n := len(fake.set)
	fake.mu.Unlock()
	for range 3 {
		runtime.GC()
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	require.Len(t, fake.set, n, "no limit set after Stop")
	tu.Stop() // idempotent
}

func TestTunerRealLimitRestored(t *testing.T) {
	// With the runtime's own setter: a limit is set, and Stop puts back
	// the process's (no limit in a test process).
	before := readLimit()
	updates := make(chan int64, 16)
	tu, err := Start(NewPolicy(50), Config{OnUpdate: func(v int64) {
		select {
		case updates <- v:
		default:
		}
	}})
	require.NoError(t, err)
	got := collectUntil(t, updates)
	require.Equal(t, got, readLimit())
	tu.Stop()
	require.Equal(t, before, readLimit())
}

func readLimit() int64 { return debugSetMemoryLimit(-1) }

func gaugeValue(t *testing.T, g prometheus.Gauge) float64 {
	t.Helper()
	var m dto.Metric
	require.NoError(t, g.Write(&m))
	return m.GetGauge().GetValue()
}
