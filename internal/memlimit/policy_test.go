package memlimit

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const mib = 1 << 20

func TestPolicyFirstCollection(t *testing.T) {
	p := Policy{Percent: 50, MinPercent: 25, Window: time.Minute, Floor: 32 * mib}
	var avg average
	now := time.Unix(1000, 0)
	// The first collection is the average: the limit is Percent over it.
	require.EqualValues(t, 150*mib, p.next(&avg, 100*mib, now))
	require.EqualValues(t, 100*mib, avg.value)
}

func TestPolicyFloor(t *testing.T) {
	p := Policy{Percent: 50, MinPercent: 25, Window: time.Minute, Floor: 32 * mib}
	var avg average
	require.EqualValues(t, 32*mib, p.next(&avg, 4*mib, time.Unix(0, 0)))
}

func TestPolicyAverageFollowsWithWindow(t *testing.T) {
	p := Policy{Percent: 50, MinPercent: 25, Window: time.Minute}
	var avg average
	t0 := time.Unix(1000, 0)
	p.next(&avg, 100*mib, t0)
	// One window later the average has moved 1-1/e of the way.
	p.next(&avg, 200*mib, t0.Add(time.Minute))
	want := 100*mib + 100*mib*(1-math.Exp(-1))
	require.InDelta(t, want, avg.value, 1)
	// The same instant again (or a clock that went back) does not move it.
	p.next(&avg, 10*mib, t0.Add(time.Minute))
	p.next(&avg, 10*mib, t0)
	require.InDelta(t, want, avg.value, 1)
}

func TestPolicyPeakGetsMinPercent(t *testing.T) {
	p := Policy{Percent: 50, MinPercent: 25, Window: time.Minute}
	var avg average
	t0 := time.Unix(1000, 0)
	for i := range 100 { // a settled live heap of 100 MiB
		p.next(&avg, 100*mib, t0.Add(time.Duration(i)*time.Second))
	}
	// A block doubles the live heap for a moment: the limit is 25% over
	// it, not 50% over the average (which would be below the live heap)
	// nor twice it (what GOGC=100 alone would allow).
	got := p.next(&avg, 200*mib, t0.Add(100*time.Second))
	require.EqualValues(t, 250*mib, got)
	// A small rise stays under the average's room.
	got = p.next(&avg, 105*mib, t0.Add(101*time.Second))
	require.InDelta(t, avg.value*1.5, float64(got), 1)
	require.Greater(t, float64(got), 105*mib*1.25)
}

func TestPolicyHuge(t *testing.T) {
	p := Policy{Percent: 100, MinPercent: 100}
	var avg average
	require.EqualValues(t, uint64(math.MaxInt64/2), p.next(&avg, math.MaxUint64/2, time.Unix(0, 0)))
}
