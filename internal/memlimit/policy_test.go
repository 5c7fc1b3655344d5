package memlimit

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const mib = 1 << 20

func TestPolicyFirstCollection(t *testing.T) {
	p := Policy{Percent: 50, Window: time.Minute, Floor: 32 * mib}
	var pk peak
	// The first collection is the peak: the limit is Percent over it.
	require.EqualValues(t, 150*mib, p.next(&pk, 100*mib, time.Unix(1000, 0)))
}

func TestPolicyFloor(t *testing.T) {
	p := Policy{Percent: 50, Window: time.Minute, Floor: 32 * mib}
	var pk peak
	require.EqualValues(t, 32*mib, p.next(&pk, 4*mib, time.Unix(0, 0)))
}

func TestPolicyRiseIsTakenAtOnce(t *testing.T) {
	p := Policy{Percent: 50, Window: time.Minute}
	var pk peak
	t0 := time.Unix(1000, 0)
	p.next(&pk, 100*mib, t0)
	// A block doubles the live heap: the limit is Percent over it at once,
	// never below the live heap.
	require.EqualValues(t, 300*mib, p.next(&pk, 200*mib, t0.Add(time.Second)))
}

func TestPolicyPeakFadesWithWindow(t *testing.T) {
	p := Policy{Percent: 50, Window: time.Minute}
	var pk peak
	t0 := time.Unix(1000, 0)
	p.next(&pk, 200*mib, t0)
	// One window later, back at 100 MiB, the peak has faded to 1/e of its
	// height above the live heap.
	got := p.next(&pk, 100*mib, t0.Add(time.Minute))
	want := (100*mib + 100*mib*math.Exp(-1)) * 1.5
	require.InDelta(t, want, float64(got), 2)
	// The same instant again, or a clock that went back, does not fade it.
	require.InDelta(t, want, float64(p.next(&pk, 100*mib, t0.Add(time.Minute))), 2)
	require.InDelta(t, want, float64(p.next(&pk, 100*mib, t0)), 2)
	// Long after, the limit is Percent over the live heap.
	require.InDelta(t, 150*mib, float64(p.next(&pk, 100*mib, t0.Add(time.Hour))), 2)
}

func TestPolicyHuge(t *testing.T) {
	p := Policy{Percent: 100}
	var pk peak
	require.EqualValues(t, uint64(math.MaxInt64/2), p.next(&pk, math.MaxUint64/2, time.Unix(0, 0)))
}
