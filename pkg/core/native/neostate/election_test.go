package neostate

import (
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

func testKeys(t *testing.T, n int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		pk, err := keys.NewPrivateKey()
		require.NoError(t, err)
		out[i] = pk.PublicKey().Bytes()
	}
	return out
}

func cand(k []byte, votes int64) KeyWithVotes {
	c := KeyWithVotes{Key: k}
	c.Votes.SetInt64(votes)
	return c
}

func TestElectCommittee(t *testing.T) {
	sb := testKeys(t, 4)
	cs := testKeys(t, 5)
	candidates := Committee{cand(cs[0], 10), cand(cs[1], 50), cand(cs[2], 50), cand(cs[3], 5), cand(sb[2], 7)}
	quorum := big.NewInt(NEOTotalSupply / EffectiveVoterTurnoutDivisor)

	// Below the turnout: standby keys, with votes only for candidates.
	low := new(big.Int).Sub(quorum, big.NewInt(1))
	c := ElectCommittee(candidates, low, sb, 4)
	require.Equal(t, sb, c.Keys())
	require.Zero(t, c[0].Votes.Sign())
	require.Equal(t, int64(7), c[2].Votes.Int64())

	// Too few candidates: standby.
	c = ElectCommittee(candidates[:3], quorum, sb, 4)
	require.Equal(t, sb, c.Keys())

	// Elected: by votes descending, ties by key.
	c = ElectCommittee(candidates, quorum, sb, 4)
	first, second := cs[1], cs[2]
	if CompareKeys(first, second) > 0 {
		first, second = second, first
	}
	require.Equal(t, [][]byte{first, second, cs[0], sb[2]}, c.Keys())
	require.Equal(t, int64(50), c[0].Votes.Int64())

	nv := NextValidators(c, 3)
	require.Len(t, nv, 3)
	for i := 1; i < len(nv); i++ {
		require.Negative(t, CompareKeys(nv[i-1], nv[i]))
	}
}

func TestCompareKeysSameX(t *testing.T) {
	pk, err := keys.NewPrivateKey()
	require.NoError(t, err)
	a := pk.PublicKey().Bytes()
	b := append([]byte{a[0] ^ 1}, a[1:]...) // the negated point
	ka, err := keys.NewPublicKeyFromBytes(a)
	require.NoError(t, err)
	kb, err := keys.NewPublicKeyFromBytes(b)
	require.NoError(t, err)
	require.Equal(t, ka.Cmp(kb), CompareKeys(a, b))
	require.Equal(t, 0, CompareKeys(a, a))
}
