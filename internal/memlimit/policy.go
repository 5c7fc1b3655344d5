package memlimit

import (
	"math"
	"time"
)

// Policy says how the limit follows the live heap.
type Policy struct {
	// Percent is how far the heap may grow over the recent peak of the
	// live heap between collections (Go's GOGC is the same figure over
	// the current live heap).
	Percent int
	// Window is the time constant with which a past peak of the live heap
	// fades: a peak one Window old counts for 1/e of its height above the
	// current live heap.
	Window time.Duration
	// Floor is the least heap limit, so that a small node does not collect
	// for every few kilobytes.
	Floor uint64
}

// Default policy values, for a node under load: the one-minute window
// spans many blocks, so the limit stays at the height the largest recent
// block took the live heap to instead of rising and falling with each
// block (the resident memory follows the highest heap goal anyway: the
// runtime returns freed pages slowly).
const (
	DefaultWindow = time.Minute
	DefaultFloor  = 32 << 20
)

// NewPolicy returns the default policy with the given Percent.
func NewPolicy(percent int) Policy {
	return Policy{Percent: percent, Window: DefaultWindow, Floor: DefaultFloor}
}

// peak is the fading peak of the live heap.
type peak struct {
	value float64
	at    time.Time
	set   bool
}

// next folds live (the heap marked live by the collection that just ended,
// observed at now) into pk and returns the heap limit, without the
// runtime's non-heap memory.
func (p Policy) next(pk *peak, live uint64, now time.Time) uint64 {
	l := float64(live)
	switch {
	case !pk.set:
		pk.value, pk.at, pk.set = l, now, true
	case now.After(pk.at):
		faded := l
		if p.Window > 0 && pk.value > l {
			faded = l + (pk.value-l)*math.Exp(-float64(now.Sub(pk.at))/float64(p.Window))
		}
		pk.value, pk.at = faded, now
	}
	if l > pk.value {
		pk.value = l
	}
	limit := math.Max(pk.value*(1+float64(p.Percent)/100), float64(p.Floor))
	if limit >= math.MaxInt64/2 {
		return math.MaxInt64 / 2
	}
	return uint64(limit)
}
