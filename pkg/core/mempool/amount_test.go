package mempool

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestAmountMatchesBig checks the 128-bit sums against big.Int.
func TestAmountMatchesBig(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var a amount
	ref := new(big.Int)
	var added []int64
	for range 10000 {
		v := r.Int64N(math.MaxInt64)
		a = a.add(v)
		ref.Add(ref, big.NewInt(v))
		added = append(added, v)
		require.Equal(t, ref.String(), a.String())
	}
	require.Equal(t, a, amountOf(ref))
	b := amountOf(big.NewInt(12345))
	require.Equal(t, 1, a.cmp(b))
	require.Equal(t, -1, b.cmp(a))
	require.Zero(t, a.cmp(amountOf(ref)))
	sum := a.plus(b)
	require.Equal(t, new(big.Int).Add(ref, big.NewInt(12345)).String(), sum.String())
	for _, v := range added {
		a = a.sub(v)
	}
	require.True(t, a.isZero())

	require.Equal(t, amount{}, amountOf(big.NewInt(-5)))
	huge := new(big.Int).Lsh(big.NewInt(1), 200)
	maxA := amountOf(huge)
	require.Equal(t, amount{hi: math.MaxUint64, lo: math.MaxUint64}, maxA)
	require.Equal(t, maxA, maxA.plus(b)) // saturates
}
