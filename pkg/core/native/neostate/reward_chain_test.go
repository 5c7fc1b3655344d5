package neostate

import (
	"encoding/binary"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
)

const pGASPerBlock = 29

func gasRecords(t *testing.T, st chainState) GASRecords {
	ks, vs := st.seek(neoID, []byte{pGASPerBlock})
	var g GASRecords
	for i, k := range ks {
		require.Len(t, k, 4)
		var r GASRecord
		r.Index = binary.BigEndian.Uint32([]byte(k))
		n, err := itemInt(bigItem(vs[i]), "gas")
		require.NoError(t, err)
		r.GASPerBlock.Set(n)
		g = append(g, r)
	}
	return g
}

func hasMint(ms []mint, contract, trigger, to string, amount *big.Int) bool {
	for _, m := range ms {
		if m.Contract == contract && m.Trigger == trigger && m.To == to && m.Amount == amount.String() {
			return true
		}
	}
	return false
}

// Replays every block's storage changes and checks, against the
// reference's application logs, the GAS the rules of reward.go mint: the
// committee member's share in PostPersist and the holder's bonus claimed
// when a NEO balance changes.
func TestRewardsAgainstReferenceChains(t *testing.T) {
	gasHash := smartcontract.CreateNativeContractHash("GasToken").String()
	for _, chain := range conformance.Chains(t) {
		t.Run(chain, func(t *testing.T) {
			pc, _ := standby(t, chain)
			st := loadStorage(t, chain, "genesis")
			mints := loadMints(t, chain)
			var claims, committee int
			for _, d := range loadDiffs(t, chain) {
				h := d.Block
				prev := chainState{}
				for k, v := range st {
					prev[k] = v
				}
				st.apply(t, d)
				records := gasRecords(t, prev)

				// Committee reward of PostPersist, from the committee as
				// stored after the block's OnPersist.
				cv, ok := st.get(neoID, []byte{pCommittee})
				require.True(t, ok)
				c, err := CommitteeFromBytes(cv)
				require.NoError(t, err)
				member := c[int(h)%pc.CommitteeSize(h)].Key
				pk, err := keys.NewPublicKeyFromBytes(member)
				require.NoError(t, err)
				acc := pk.ScriptHash()
				reward := CommitteeReward(records.At(h))
				require.True(t, hasMint(mints[h], gasHash, "PostPersist", string(acc.BytesLE()), reward),
					"block %d: committee reward %s to %s", h, reward, acc)
				committee++

				// Holder bonus of every NEO account whose balance height
				// moved to this block.
				ks, _ := prev.seek(neoID, []byte{pAccount})
				for _, k := range ks {
					old, err := NEOBalanceFromBytes(prev[storageKey(neoID, append([]byte{pAccount}, k...))])
					require.NoError(t, err)
					nv, ok := st.get(neoID, append([]byte{pAccount}, k...))
					if ok {
						nb, err := NEOBalanceFromBytes(nv)
						require.NoError(t, err)
						if nb.BalanceHeight == old.BalanceHeight {
							continue
						}
						require.Equal(t, h, nb.BalanceHeight)
					}
					bonus := records.HolderReward(&old.Balance, old.BalanceHeight, h)
					require.Nil(t, old.VoteTo, "the reference chains have no votes")
					if bonus.Sign() > 0 {
						require.True(t, hasMint(mints[h], gasHash, "Application", k, bonus),
							"block %d: bonus %s to %x", h, bonus, k)
						claims++
					}
				}
			}
			t.Logf("%s: %d committee rewards, %d holder claims checked", chain, committee, claims)
			require.Positive(t, claims)
		})
	}
}
