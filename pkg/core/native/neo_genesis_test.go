package native

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// referenceStorage reads storage/<name>.json as id → base64 key → value.
func referenceStorage(t *testing.T, chain, name string) map[int32]map[string][]byte {
	raw, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", chain, "storage"), name+".json"))
	require.NoError(t, err)
	var f struct {
		Contracts map[string][]struct {
			Key   string `json:"key"`
			Value string `json:"value"`
		} `json:"contracts"`
	}
	require.NoError(t, json.Unmarshal(raw, &f))
	out := map[int32]map[string][]byte{}
	for name, items := range f.Contracts {
		id, err := strconv.ParseInt(strings.SplitN(name, ":", 2)[0], 10, 32)
		require.NoError(t, err)
		m := map[string][]byte{}
		for _, it := range items {
			v, err := base64.StdEncoding.DecodeString(it.Value)
			require.NoError(t, err)
			m[it.Key] = v
		}
		out[int32(id)] = m
	}
	return out
}

// The genesis initialisation and block-0 hooks of the governance natives
// write exactly the storage the reference has at height 0.
func TestGovernanceGenesisStorage(t *testing.T) {
	for _, chain := range conformance.Chains(t) {
		t.Run(chain, func(t *testing.T) {
			pc := chainConfig(t, chain)
			g := governanceForTest(t, pc)
			d := dao.New(storage.NewMemoryStore())
			ic := interop.NewContext(interop.Config{
				Trigger:         trigger.OnPersist,
				Block:           &block.Block{},
				HardforkEnabled: pc.Enabled,
				GasLimit:        -1,
			}, d)
			_, err := ic.LoadScript([]byte{byte(opcode.RET)}, callflag.All, 0, 0)
			require.NoError(t, err)
			contracts := []Contract{g.NEO, g.GAS, g.Designate, g.Oracle, g.Notary, g.Treasury}
			for _, c := range contracts {
				if c.Metadata().ActiveIn == protocol.HFDefault {
					require.NoError(t, c.Initialize(ic, protocol.HFDefault))
				}
			}
			// The reference's genesis state is after the block's OnPersist
			// and PostPersist too (the committee reward of block 0).
			for _, c := range contracts {
				if c.Metadata().ActiveIn == protocol.HFDefault {
					require.NoError(t, c.OnPersist(ic))
				}
			}
			for _, c := range contracts {
				if c.Metadata().ActiveIn == protocol.HFDefault {
					require.NoError(t, c.PostPersist(ic))
				}
			}
			ref := referenceStorage(t, chain, "genesis")
			for _, c := range contracts {
				md := c.Metadata()
				got := map[string][]byte{}
				require.NoError(t, d.SeekStorage(md.ID, storage.SeekRange{}, func(k, v []byte) bool {
					got[base64.StdEncoding.EncodeToString(k)] = append([]byte{}, v...)
					return true
				}))
				want := ref[md.ID]
				if want == nil {
					want = map[string][]byte{}
				}
				require.Equal(t, want, got, md.Name)
			}
		})
	}
}
