package memlimit

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/prometheus/client_golang/prometheus"
)

// Config is what a Tuner needs besides its Policy.
type Config struct {
	// Now is the clock the live-heap average is timed with (time.Now if
	// nil).
	Now func() time.Time
	// Registerer gets the tuner's gauges (none if nil).
	Registerer prometheus.Registerer
	// SetLimit sets the soft limit and returns the previous one
	// (debug.SetMemoryLimit if nil; a negative value only reads it).
	SetLimit func(int64) int64
	// OnUpdate, if set, is called with each limit set (tests).
	OnUpdate func(limit int64)
}

// Tuner sets the soft memory limit after every garbage collection.
type Tuner struct {
	policy Policy
	cfg    Config

	limitGauge, peakGauge prometheus.Gauge

	mu      sync.Mutex
	pk      peak
	stopped bool
	initial int64            // the limit found at Start, put back by Stop
	samples []metrics.Sample // one per sampleNames entry
}

// The runtime metrics a collection's end reads: the live heap and what
// the runtime maps besides the heap's objects (stacks, metadata), which
// the soft limit counts too.
var sampleNames = []string{
	"/gc/heap/live:bytes",
	"/memory/classes/total:bytes",
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/heap/free:bytes",
	"/memory/classes/heap/released:bytes",
}

// Start arms a tuner: from the next collection on, the soft limit follows
// the policy. The returned error is a metrics registration failure (the
// tuner runs anyway).
func Start(p Policy, cfg Config) (*Tuner, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.SetLimit == nil {
		cfg.SetLimit = debug.SetMemoryLimit
	}
	set := promutil.NewSet(cfg.Registerer, "memory")
	t := &Tuner{policy: p, cfg: cfg,
		limitGauge: set.Gauge("soft_limit_bytes", "Soft memory limit set after the last garbage collection."),
		peakGauge:  set.Gauge("live_heap_peak_bytes", "Recent peak of the live heap (fading over a minute) the soft limit follows."),
		initial:    cfg.SetLimit(-1),
	}
	t.samples = make([]metrics.Sample, len(sampleNames))
	for i, n := range sampleNames {
		t.samples[i].Name = n
	}
	t.arm()
	return t, set.Err()
}

// canary is the throw-away object whose collection signals the end of a
// garbage collection; 32 bytes keeps it out of the tiny allocator, whose
// blocks may outlive their objects.
type canary struct{ _ [32]byte }

func (t *Tuner) arm() {
	runtime.AddCleanup(new(canary), func(t *Tuner) { t.collected() }, t)
}

// collected runs in the runtime's cleanup goroutine after a collection.
func (t *Tuner) collected() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	metrics.Read(t.samples)
	var v [6]uint64
	for i, s := range t.samples {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	live, total := v[0], v[1]
	heap := v[2] + v[3] + v[4] + v[5]
	var nonHeap uint64
	if total > heap {
		nonHeap = total - heap
	}
	limit := t.policy.next(&t.pk, live, t.cfg.Now()) + nonHeap
	if limit > math.MaxInt64 {
		limit = math.MaxInt64
	}
	t.cfg.SetLimit(int64(limit))
	t.limitGauge.Set(float64(limit))
	t.peakGauge.Set(t.pk.value)
	if t.cfg.OnUpdate != nil {
		t.cfg.OnUpdate(int64(limit))
	}
	t.arm()
}

// Stop disarms the tuner and puts back the limit found at Start. The
// cleanup armed last may still run once; it does nothing.
func (t *Tuner) Stop() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	t.stopped = true
	t.cfg.SetLimit(t.initial)
}

// debugSetMemoryLimit is the runtime's setter, named for the tests.
var debugSetMemoryLimit = debug.SetMemoryLimit
