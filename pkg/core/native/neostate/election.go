package neostate

import (
	"bytes"
	"math/big"
	"slices"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// CompareKeys orders compressed secp256r1 keys as the reference orders
// ECPoints: by X, then by Y (decompressing only when the X are equal).
func CompareKeys(a, b []byte) int {
	if c := bytes.Compare(a[1:], b[1:]); c != 0 || a[0] == b[0] {
		return c
	}
	ka, errA := keys.NewPublicKeyFromBytes(a)
	kb, errB := keys.NewPublicKeyFromBytes(b)
	if errA != nil || errB != nil {
		return bytes.Compare(a, b)
	}
	return ka.Cmp(kb)
}

// SortKeys sorts compressed keys in place with CompareKeys.
func SortKeys(ks [][]byte) { slices.SortFunc(ks, CompareKeys) }

// ElectCommittee chooses the committee of size members from the registered,
// unblocked candidates (in storage order). While the voted NEO is below a
// fifth of the supply or there are fewer candidates than seats, the standby
// committee keeps its seats (with the votes of those that are candidates);
// otherwise the most voted candidates win, ties broken by key order.
// standby must hold at least size keys.
func ElectCommittee(candidates Committee, votersCount *big.Int, standby [][]byte, size int) Committee {
	turnout := new(big.Int).Mul(votersCount, big.NewInt(EffectiveVoterTurnoutDivisor))
	if turnout.Cmp(bigTotalSupply) < 0 || len(candidates) < size {
		out := make(Committee, size)
		for i := range out {
			out[i].Key = standby[i]
			for j := range candidates {
				if bytes.Equal(candidates[j].Key, standby[i]) {
					out[i].Votes.Set(&candidates[j].Votes)
					break
				}
			}
		}
		return out
	}
	sorted := slices.Clone(candidates)
	slices.SortStableFunc(sorted, func(a, b KeyWithVotes) int {
		if c := b.Votes.Cmp(&a.Votes); c != 0 {
			return c
		}
		return CompareKeys(a.Key, b.Key)
	})
	out := make(Committee, size)
	for i := range out {
		out[i].Key = sorted[i].Key
		out[i].Votes.Set(&sorted[i].Votes)
	}
	return out
}

// NextValidators returns the first count members of the committee (in
// election order) sorted by key: the next block's validators.
func NextValidators(c Committee, count int) [][]byte {
	out := c.Keys()[:min(count, len(c))]
	out = slices.Clone(out)
	SortKeys(out)
	return out
}
