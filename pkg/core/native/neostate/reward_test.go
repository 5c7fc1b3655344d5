package neostate

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"
)

func records(pairs ...int64) GASRecords {
	var g GASRecords
	for i := 0; i < len(pairs); i += 2 {
		var r GASRecord
		r.Index = uint32(pairs[i])
		r.GASPerBlock.SetInt64(pairs[i+1])
		g = append(g, r)
	}
	return g
}

func TestHolderRewardSegments(t *testing.T) {
	// 5 GAS from 0, 1 GAS from 10, 3 GAS from 20.
	g := records(0, 5*GASFactor, 10, 1*GASFactor, 20, 3*GASFactor)
	bal := big.NewInt(1000)
	cases := []struct {
		start, end uint32
		gas        int64 // Σ gasPerBlock over start..end-1
	}{
		{0, 1, 5 * GASFactor},
		{0, 10, 50 * GASFactor},
		{5, 15, 5*5*GASFactor + 5*GASFactor},
		{9, 21, 5*GASFactor + 10*GASFactor + 3*GASFactor},
		{20, 25, 15 * GASFactor},
		{25, 30, 15 * GASFactor},
	}
	for _, c := range cases {
		// balance × Σ × 10% / total supply, truncated.
		want := new(big.Int).Mul(bal, big.NewInt(c.gas))
		want.Mul(want, big.NewInt(10))
		want.Quo(want, big.NewInt(100))
		want.Quo(want, big.NewInt(NEOTotalSupply))
		require.Equal(t, want, g.HolderReward(bal, c.start, c.end), "%d..%d", c.start, c.end)
	}
	require.Zero(t, g.HolderReward(bal, 7, 7).Sign())
	require.Zero(t, g.HolderReward(bal, 8, 7).Sign())
	require.Zero(t, g.HolderReward(new(big.Int), 0, 100).Sign())
	require.Zero(t, g.HolderReward(big.NewInt(-5), 0, 100).Sign())
}

func TestHolderRewardTruncates(t *testing.T) {
	g := records(0, 5*GASFactor)
	// 1 NEO for one block: 1 × 5e8 × 10 / 100 / 1e8 = 0.5 → 0.
	require.Zero(t, g.HolderReward(big.NewInt(1), 0, 1).Sign())
	// 3 NEO for one block: 1.5 datoshi → 1.
	require.Equal(t, int64(1), g.HolderReward(big.NewInt(3), 0, 1).Int64())
	// The whole supply for one block gets the holders' 10%.
	require.Equal(t, int64(GASFactor/2), g.HolderReward(big.NewInt(NEOTotalSupply), 0, 1).Int64())
}

func TestGASRecordsAt(t *testing.T) {
	g := records(0, 5, 10, 7)
	require.Equal(t, int64(5), g.At(9).Int64())
	require.Equal(t, int64(7), g.At(10).Int64())
	require.Equal(t, int64(7), g.At(1000).Int64())
	require.Nil(t, records(3, 1).At(2))
}

func TestVoterAndCommitteeRewards(t *testing.T) {
	gpb := big.NewInt(5 * GASFactor)
	require.Equal(t, int64(GASFactor/2), CommitteeReward(gpb).Int64())

	// 21 members, 7 validators: 5e8 × 80 × 1e8 × 21 / 28 / 100.
	per := VoterRewardPerMember(gpb, 21, 7)
	require.Equal(t, "30000000000000000", per.String())
	votes := big.NewInt(3)
	require.Equal(t, "20000000000000000", GASPerVoteIncrement(per, 0, 7, votes).String())
	require.Equal(t, "10000000000000000", GASPerVoteIncrement(per, 7, 7, votes).String())
	require.Nil(t, GASPerVoteIncrement(per, 0, 7, new(big.Int)))

	// 2 NEO voting while GAS per vote grew by 1.5e8: 3 datoshi.
	r := VoterReward(big.NewInt(2), big.NewInt(250_000_000), big.NewInt(100_000_000))
	require.Equal(t, int64(3), r.Int64())
	// Truncation toward zero.
	require.Equal(t, int64(0), VoterReward(big.NewInt(1), big.NewInt(99_999_999), new(big.Int)).Int64())
}
