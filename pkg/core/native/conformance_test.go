package native

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/dao"
	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/trigger"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/stretchr/testify/require"
)

// refChain is the reference data of one conformance chain.
type refChain struct {
	name   string
	cfg    config.ProtocolConfiguration
	tip    uint32
	native map[int32]json.RawMessage // getcontractstate of the natives at the tip
	// storage[which][id] maps hex keys to hex values ("genesis", "final").
	storage map[string]map[int32]map[string]string
}

func loadChain(t *testing.T, name string) *refChain {
	t.Helper()
	dir := conformance.Dir(t, "chains", name)
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	rc := &refChain{name: name, cfg: cfg.ProtocolConfiguration, native: map[int32]json.RawMessage{},
		storage: map[string]map[int32]map[string]string{}}

	var contracts struct {
		Native []json.RawMessage `json:"native"`
	}
	readJSON(t, filepath.Join(dir, "contracts.json"), &contracts)
	for _, raw := range contracts.Native {
		var head struct {
			ID int32 `json:"id"`
		}
		require.NoError(t, json.Unmarshal(raw, &head))
		rc.native[head.ID] = raw
	}
	for _, which := range []string{"genesis", "final"} {
		var st struct {
			Height    uint32 `json:"height"`
			Contracts map[string][]struct {
				Key   string `json:"key"`
				Value string `json:"value"`
			} `json:"contracts"`
		}
		readJSON(t, filepath.Join(dir, "storage", which+".json"), &st)
		if which == "final" {
			rc.tip = st.Height
		}
		m := map[int32]map[string]string{}
		for k, entries := range st.Contracts {
			var id int32
			_, err := fmt.Sscanf(strings.SplitN(k, ":", 2)[0], "%d", &id)
			require.NoError(t, err)
			m[id] = map[string]string{}
			for _, e := range entries {
				kb, err := base64.StdEncoding.DecodeString(e.Key)
				require.NoError(t, err)
				vb, err := base64.StdEncoding.DecodeString(e.Value)
				require.NoError(t, err)
				m[id][hex.EncodeToString(kb)] = hex.EncodeToString(vb)
			}
		}
		rc.storage[which] = m
	}
	return rc
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v))
}

func jsonEqual(t *testing.T, want, got []byte, msg string) {
	t.Helper()
	var w, g any
	require.NoError(t, json.Unmarshal(want, &w))
	require.NoError(t, json.Unmarshal(got, &g))
	require.Equal(t, w, g, msg)
}

// persistHooks runs ContractManagement's OnPersist for blocks 0..tip over
// a fresh DAO, the way the chain deploys and updates natives.
func persistHooks(t *testing.T, rc *refChain, reg *Registry, upTo uint32) *dao.DAO {
	t.Helper()
	d := dao.New(storage.NewMemoryStore())
	for i := uint32(0); i <= upTo; i++ {
		runOnPersist(t, rc, reg, d, i)
	}
	return d
}

// runOnPersist runs the OnPersist script (System.Contract.NativeOnPersist)
// of block index over d.
func runOnPersist(t *testing.T, rc *refChain, reg *Registry, d *dao.DAO, index uint32) {
	t.Helper()
	script, err := emit.NewBuilder().Syscall("System.Contract.NativeOnPersist").Script()
	require.NoError(t, err)
	ic := interop.NewContext(interop.Config{
		Trigger:         trigger.OnPersist,
		Block:           &block.Block{Header: block.Header{Index: index}},
		HardforkEnabled: rc.cfg.Enabled,
		Natives:         reg,
		GasLimit:        -1,
	}, d)
	_, err = ic.LoadScript(script, callflag.All, -1, 0)
	require.NoError(t, err)
	require.NoError(t, ic.Run(), "block %d", index)
}

// contractStorage returns contract id's storage in d as hex maps.
func contractStorage(t *testing.T, d *dao.DAO, id int32) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, d.SeekStorage(id, storage.SeekRange{}, func(k, v []byte) bool {
		out[hex.EncodeToString(k)] = hex.EncodeToString(v)
		return true
	}))
	return out
}

// TestNativeStatesAtTip compares NEF, manifest, id, hash and update
// counter of the core natives with getcontractstate at the tip, and the
// hashes and ids of all natives the reference lists.
func TestNativeStatesAtTip(t *testing.T) {
	for _, name := range []string{"testblocks", "chain50x2"} {
		t.Run(name, func(t *testing.T) {
			rc := loadChain(t, name)
			core := NewCore(&rc.cfg)
			reg := NewRegistry(&rc.cfg, core.Contracts()...)
			d := persistHooks(t, rc, reg, rc.tip)
			for _, c := range core.Contracts() {
				md := c.Metadata()
				raw, ok := rc.native[md.ID]
				require.True(t, ok, md.Name)
				got, err := d.GetContract(md.Hash)
				require.NoError(t, err, md.Name)
				b, err := got.MarshalJSON()
				require.NoError(t, err)
				jsonEqual(t, raw, b, md.Name)
			}
			names := map[int32]string{ManagementID: ManagementName, StdLibID: StdLibName, CryptoLibID: CryptoLibName,
				LedgerID: LedgerName, NeoID: NeoName, GasID: GasName, PolicyID: PolicyName, DesignateID: DesignateName,
				OracleID: OracleName, NotaryID: NotaryName}
			for id, raw := range rc.native {
				var head struct {
					Hash     string `json:"hash"`
					Manifest struct {
						Name string `json:"name"`
					} `json:"manifest"`
				}
				require.NoError(t, json.Unmarshal(raw, &head))
				require.Equal(t, names[id], head.Manifest.Name, "id %d", id)
				require.Equal(t, head.Hash, smartcontract.CreateNativeContractHash(head.Manifest.Name).String())
			}
		})
	}
}

// TestNativeGenesisAndFinalStorage reproduces the storage of the core
// natives at genesis and at the tip (after the hardfork updates): their
// contract states and id records in ContractManagement, its counters,
// and Policy's values (Genesis.* written at Echidna).
func TestNativeGenesisAndFinalStorage(t *testing.T) {
	for _, name := range []string{"testblocks", "chain50x2"} {
		t.Run(name, func(t *testing.T) {
			rc := loadChain(t, name)
			for which, height := range map[string]uint32{"genesis": 0, "final": rc.tip} {
				core := NewCore(&rc.cfg)
				reg := NewRegistry(&rc.cfg, core.Contracts()...)
				d := persistHooks(t, rc, reg, height)
				ref := rc.storage[which]
				got := contractStorage(t, d, ManagementID)
				for _, c := range core.Contracts() {
					md := c.Metadata()
					k := "08" + hex.EncodeToString(md.Hash[:])
					require.Equal(t, ref[ManagementID][k], got[k], "%s %s state", which, md.Name)
					idk := make([]byte, 5)
					idk[0] = mgmtPrefixContractHash
					binary.BigEndian.PutUint32(idk[1:], uint32(md.ID))
					require.Equal(t, ref[ManagementID][hex.EncodeToString(idk)], got[hex.EncodeToString(idk)], "%s %s id", which, md.Name)
				}
				require.Equal(t, ref[ManagementID]["14"], got["14"], which)
				if which == "genesis" { // later deployments move the counter
					require.Equal(t, ref[ManagementID]["0f"], got["0f"], which)
				}
				for _, id := range []int32{StdLibID, CryptoLibID, LedgerID, PolicyID} {
					want := ref[id]
					if want == nil {
						want = map[string]string{}
					}
					require.Equal(t, want, contractStorage(t, d, id), "%s storage of %d", which, id)
				}
			}
		})
	}
}

// TestNativeMetadataHardforkRanges checks the snapshots themselves: every
// hardfork has one from the contract's activation on, method offsets are
// 7 bytes apart, and the update hardforks are the ones whose manifests
// differ.
func TestNativeMetadataHardforkRanges(t *testing.T) {
	var cfg config.ProtocolConfiguration
	core := NewCore(&cfg)
	for _, c := range core.Contracts() {
		md := c.Metadata()
		prev := md.Snapshot(protocol.HFDefault)
		require.NotNil(t, prev)
		for _, hf := range protocol.Hardforks() {
			s := md.Snapshot(hf)
			require.NotNil(t, s)
			for i, m := range s.Methods {
				require.Equal(t, i*methodStubSize, m.Offset)
				got, ok := s.MethodByIP(m.Offset + syscallOffsetInStub)
				require.True(t, ok)
				require.Same(t, m.Method, got.Method)
			}
			a, _ := prev.Manifest.MarshalJSON()
			b, _ := s.Manifest.MarshalJSON()
			require.Equal(t, md.IsUpdateHardfork(hf), string(a) != string(b) || s != prev, "%s at %s", md.Name, hf)
			prev = s
		}
	}
}

// TestNativeStorageDiffPerBlock follows storagediff.jsonl block by block:
// the keys of the core natives' states, id records and storage that the
// reference changed in each block are exactly those the hooks change, with
// the same values (so an update lands in the right block).
func TestNativeStorageDiffPerBlock(t *testing.T) {
	for _, name := range []string{"testblocks", "chain50x2"} {
		t.Run(name, func(t *testing.T) {
			rc := loadChain(t, name)
			core := NewCore(&rc.cfg)
			reg := NewRegistry(&rc.cfg, core.Contracts()...)
			tracked := func(id int32, key string) bool {
				switch id {
				case StdLibID, CryptoLibID, LedgerID, PolicyID:
					return true
				case ManagementID:
					for _, c := range core.Contracts() {
						md := c.Metadata()
						idk := make([]byte, 4)
						binary.BigEndian.PutUint32(idk, uint32(md.ID))
						if key == "08"+hex.EncodeToString(md.Hash[:]) || key == "0c"+hex.EncodeToString(idk) {
							return true
						}
					}
				}
				return false
			}
			snapshot := func(d *dao.DAO) map[string]string {
				out := map[string]string{}
				for _, id := range []int32{ManagementID, StdLibID, CryptoLibID, LedgerID, PolicyID} {
					for k, v := range contractStorage(t, d, id) {
						if tracked(id, k) {
							out[fmt.Sprintf("%d:%s", id, k)] = v
						}
					}
				}
				return out
			}
			diffs := readDiffs(t, rc.name)
			d := dao.New(storage.NewMemoryStore())
			prev := map[string]string{}
			for i := uint32(0); i <= rc.tip; i++ {
				runOnPersist(t, rc, reg, d, i)
				cur := snapshot(d)
				got := map[string]string{}
				for k, v := range cur {
					if prev[k] != v {
						got[k] = v
					}
				}
				for k := range prev {
					if _, ok := cur[k]; !ok {
						got[k] = "deleted"
					}
				}
				want := map[string]string{}
				for _, e := range diffs[i] {
					if tracked(e.id, e.key) {
						want[fmt.Sprintf("%d:%s", e.id, e.key)] = e.value
					}
				}
				if i == 0 { // genesis: compare the full state instead
					want = got
				}
				require.Equal(t, want, got, "block %d", i)
				prev = cur
			}
		})
	}
}

type diffEntry struct {
	id         int32
	key, value string
}

func readDiffs(t *testing.T, chain string) map[uint32][]diffEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", chain), "storagediff.jsonl"))
	require.NoError(t, err)
	out := map[uint32][]diffEntry{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var rec struct {
			Block   uint32 `json:"block"`
			Storage []struct {
				Key   string `json:"key"`
				State string `json:"state"`
				Value string `json:"value"`
			} `json:"storage"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &rec))
		for _, s := range rec.Storage {
			kb, err := base64.StdEncoding.DecodeString(s.Key)
			require.NoError(t, err)
			e := diffEntry{id: int32(binary.LittleEndian.Uint32(kb)), key: hex.EncodeToString(kb[4:]), value: "deleted"}
			if s.State != "Deleted" {
				vb, err := base64.StdEncoding.DecodeString(s.Value)
				require.NoError(t, err)
				e.value = hex.EncodeToString(vb)
			}
			out[rec.Block] = append(out[rec.Block], e)
		}
	}
	return out
}
