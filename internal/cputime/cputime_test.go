package cputime

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestProcessGrowsWithWork(t *testing.T) {
	before := Process()
	require.Positive(t, before)
	x := uint64(1)
	for Process() == before { // spin until the kernel accounts a tick
		for i := range 1_000_000 {
			x = x*6364136223846793005 + uint64(i)
		}
	}
	require.NotZero(t, x)
	require.Greater(t, Process(), before)
}
