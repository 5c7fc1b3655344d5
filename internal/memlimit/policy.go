package memlimit

import (
	"math"
	"time"
)

// Policy says how the limit follows the live heap.
type Policy struct {
	// Percent is how far the heap may grow over the averaged live heap
	// between collections (Go's GOGC is the same figure over the current
	// live heap).
	Percent int
	// MinPercent is the least room over the current live heap: when the
	// live heap rises above the average the collector still has this
	// much, so it never runs back to back.
	MinPercent int
	// Window is the time constant of the live-heap average.
	Window time.Duration
	// Floor is the least heap limit, so that a small node does not collect
	// for every few kilobytes.
	Floor uint64
}

// Default policy values, for a node under load: the 60 s window spans
// many blocks, so the average is the node's settled live set and a single
// large block is a peak.
const (
	DefaultMinPercent = 25
	DefaultWindow     = time.Minute
	DefaultFloor      = 32 << 20
)

// NewPolicy returns the default policy with the given Percent.
func NewPolicy(percent int) Policy {
	return Policy{Percent: percent, MinPercent: DefaultMinPercent, Window: DefaultWindow, Floor: DefaultFloor}
}

// average is the time-weighted average of the live heap.
type average struct {
	value float64
	at    time.Time
	set   bool
}

// next folds live (the heap marked live by the collection that just ended,
// observed at now) into avg and returns the heap limit, without the
// runtime's non-heap memory.
func (p Policy) next(avg *average, live uint64, now time.Time) uint64 {
	l := float64(live)
	switch {
	case !avg.set:
		avg.value, avg.at, avg.set = l, now, true
	case now.After(avg.at):
		w := 1.0
		if p.Window > 0 {
			w = 1 - math.Exp(-float64(now.Sub(avg.at))/float64(p.Window))
		}
		avg.value += (l - avg.value) * w
		avg.at = now
	}
	limit := avg.value * (1 + float64(p.Percent)/100)
	limit = math.Max(limit, l*(1+float64(p.MinPercent)/100))
	limit = math.Max(limit, float64(p.Floor))
	if limit >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return uint64(limit)
}
