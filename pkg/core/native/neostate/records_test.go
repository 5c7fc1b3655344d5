package neostate

import (
	"math/big"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// Storage ids and prefixes as the reference lays them out.
const (
	neoID      int32 = -5
	gasID      int32 = -6
	roleID     int32 = -8
	oracleID   int32 = -9
	notaryID   int32 = -10
	pAccount         = 20
	pCandidate       = 33
	pCommittee       = 14
	pRequest         = 7
	pIDList          = 6
	pDeposit         = 1
)

// roundTrip decodes v as the record its key names and checks the encoding
// gives back the same bytes; it reports whether the key is a record.
func roundTrip(t *testing.T, id int32, key, v []byte) bool {
	t.Helper()
	if len(key) == 0 {
		return false
	}
	var enc []byte
	switch {
	case id == neoID && key[0] == pAccount:
		r, err := NEOBalanceFromBytes(v)
		require.NoError(t, err)
		enc = r.Bytes()
	case id == neoID && key[0] == pCandidate:
		r, err := CandidateFromBytes(v)
		require.NoError(t, err)
		enc = r.Bytes()
	case id == neoID && key[0] == pCommittee:
		r, err := CommitteeFromBytes(v)
		require.NoError(t, err)
		enc = r.Bytes()
	case id == gasID && key[0] == pAccount:
		r, err := NEP17BalanceFromBytes(v)
		require.NoError(t, err)
		enc = r.Bytes()
	case id == roleID:
		r, err := NodeListFromBytes(v)
		require.NoError(t, err)
		enc = r.Bytes()
	case id == oracleID && key[0] == pRequest:
		r, err := OracleRequestFromBytes(v)
		require.NoError(t, err)
		enc = r.Bytes()
	case id == oracleID && key[0] == pIDList:
		r, err := IDListFromBytes(v)
		require.NoError(t, err)
		enc = r.Bytes()
	case id == notaryID && key[0] == pDeposit:
		r, err := DepositFromBytes(v)
		require.NoError(t, err)
		enc = r.Bytes()
	default:
		return false
	}
	require.Equal(t, v, enc, "id %d key %x", id, key)
	return true
}

func splitKey(k string) (int32, []byte) {
	b := []byte(k)
	return int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24), b[4:]
}

// Every record the reference stored at genesis, at the tip and in every
// block's diff decodes and encodes back to the same bytes.
func TestRecordsRoundTripReference(t *testing.T) {
	for _, chain := range conformance.Chains(t) {
		t.Run(chain, func(t *testing.T) {
			n := 0
			for _, name := range []string{"genesis", "final"} {
				for k, v := range loadStorage(t, chain, name) {
					id, key := splitKey(k)
					if roundTrip(t, id, key, v) {
						n++
					}
				}
			}
			for _, d := range loadDiffs(t, chain) {
				for _, e := range d.Storage {
					if e.State == "Deleted" {
						continue
					}
					id, key := splitKey(string(mustB64(t, e.Key)))
					if roundTrip(t, id, key, mustB64(t, e.Value)) {
						n++
					}
				}
			}
			require.Greater(t, n, 10)
		})
	}
}

func standby(t *testing.T, chain string) (config.ProtocolConfiguration, [][]byte) {
	cfg, err := config.LoadFile(filepath.Join(conformance.Dir(t, "chains", chain), "protocol.yml"), "")
	require.NoError(t, err)
	pc := cfg.ProtocolConfiguration
	ks, err := keys.NewPublicKeysFromStrings(pc.StandbyCommittee)
	require.NoError(t, err)
	out := make([][]byte, len(ks))
	for i, k := range ks {
		out[i] = k.Bytes()
	}
	return pc, out
}

// With no votes the genesis committee is the standby committee in config
// order, as stored by the reference.
func TestGenesisCommitteeIsStandby(t *testing.T) {
	for _, chain := range conformance.Chains(t) {
		t.Run(chain, func(t *testing.T) {
			pc, sb := standby(t, chain)
			st := loadStorage(t, chain, "genesis")
			v, ok := st.get(neoID, []byte{pCommittee})
			require.True(t, ok)
			c := ElectCommittee(nil, new(big.Int), sb, pc.CommitteeSize(0))
			require.Equal(t, v, c.Bytes())
			// getnextblockvalidators of governance.json: the first
			// ValidatorsCount members, sorted.
			want := []string{}
			for _, k := range NextValidators(c, int(pc.ValidatorsCount)) {
				want = append(want, keyHex(k))
			}
			require.Equal(t, governanceValidators(t, chain), want)
		})
	}
}
