package native

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/protocol"
)

func chainConfig(t *testing.T, chain string) config.ProtocolConfiguration {
	cfg, err := config.LoadFile(filepath.Join(conformance.Dir(t, "chains", chain), "protocol.yml"), "")
	require.NoError(t, err)
	return cfg.ProtocolConfiguration
}

func governanceForTest(t *testing.T, pc config.ProtocolConfiguration) *Governance {
	g, err := NewGovernance(&pc, NewCore(&pc))
	require.NoError(t, err)
	return g
}

// updateCounter is the number of the contract's update hardforks enabled
// at height (its activation excluded).
func updateCounter(md *ContractMD, pc *config.ProtocolConfiguration, height uint32) int {
	n := 0
	for _, hf := range protocol.Hardforks() {
		if pc.Enabled(hf, height) && md.IsUpdateHardfork(hf) && hf > md.ActiveIn {
			n++
		}
	}
	return n
}

func latestAt(pc *config.ProtocolConfiguration, height uint32) protocol.Hardfork {
	latest := protocol.HFDefault
	for _, hf := range protocol.Hardforks() {
		if !pc.Enabled(hf, height) {
			break
		}
		latest = hf
	}
	return latest
}

// Every governance native's contract state (id, hash, NEF, manifest,
// update counter) at the tip equals getnativecontracts of the reference.
func TestGovernanceContractsMatchReference(t *testing.T) {
	for _, chain := range conformance.Chains(t) {
		t.Run(chain, func(t *testing.T) {
			dir := conformance.Dir(t, "chains", chain)
			pc := chainConfig(t, chain)
			raw, err := os.ReadFile(filepath.Join(dir, "contracts.json"))
			require.NoError(t, err)
			var ref struct {
				Native []json.RawMessage `json:"native"`
			}
			require.NoError(t, json.Unmarshal(raw, &ref))
			byName := map[string]json.RawMessage{}
			for _, c := range ref.Native {
				var h struct {
					Manifest struct {
						Name string `json:"name"`
					} `json:"manifest"`
				}
				require.NoError(t, json.Unmarshal(c, &h))
				byName[h.Manifest.Name] = c
			}
			var sum struct {
				Height uint32 `json:"height"`
			}
			raw, err = os.ReadFile(filepath.Join(dir, "summary.json"))
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &sum))

			g := governanceForTest(t, pc)
			for _, c := range []Contract{g.NEO, g.GAS, g.Designate, g.Oracle, g.Notary, g.Treasury} {
				md := c.Metadata()
				want, ok := byName[md.Name]
				active := md.ActiveIn == protocol.HFDefault || pc.Enabled(md.ActiveIn, sum.Height)
				require.Equal(t, active, ok, md.Name)
				if !ok {
					continue
				}
				snap := md.Snapshot(latestAt(&pc, sum.Height))
				require.NotNil(t, snap, md.Name)
				got, err := json.Marshal(snap.ContractState(md, uint16(updateCounter(md, &pc, sum.Height))))
				require.NoError(t, err)
				require.JSONEq(t, string(want), string(got), md.Name)
			}
		})
	}
}
