package manifest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
)

// TestManifestJSONConformance parses every manifest the reference node
// reported and writes it back: the same JSON value, and a text that parses
// to the same manifest.
func TestManifestJSONConformance(t *testing.T) {
	for _, c := range refdata.Contracts(t) {
		m, err := Parse(c.Manifest)
		require.NoError(t, err, c.Hash)
		out, err := json.Marshal(m)
		require.NoError(t, err)
		refdata.RequireSameJSON(t, c.Manifest, out, c.Hash)
		m2, err := Parse(out)
		require.NoError(t, err)
		require.Equal(t, m, m2)
		h, err := util.Uint160DecodeStringBE(c.Hash)
		require.NoError(t, err)
		require.NoError(t, m.IsValid(h))
	}
}

// TestManifestDeployedJSON parses the manifest bytes of every deploying
// transaction (written by the compiler, not by the node) and compares them
// with the state the node reports.
func TestManifestDeployedJSON(t *testing.T) {
	states := make(map[string]refdata.Contract)
	for _, c := range refdata.Contracts(t) {
		states[c.Hash] = c
	}
	for _, chain := range conformance.Chains(t) {
		for _, d := range refdata.Deploys(t, chain) {
			m, err := Parse(d.Manifest)
			require.NoError(t, err, d.TxHash)
			require.NoError(t, m.ABI.CheckUnique())
			require.NoError(t, m.IsValid(d.Hash))
			out, err := json.Marshal(m)
			require.NoError(t, err)
			refdata.RequireSameJSON(t, states[d.Hash.String()].Manifest, out, d.TxHash)
		}
	}
}

type storageEntry struct {
	Key   []byte `json:"key"`
	Value []byte `json:"value"`
}

// storedContracts returns the ContractManagement records (prefix 8) of a
// storage dump of a conformance chain.
func storedContracts(t *testing.T, chain, file string) [][]byte {
	data, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", chain, "storage"), file))
	require.NoError(t, err)
	var dump struct {
		Contracts map[string][]storageEntry `json:"contracts"`
	}
	require.NoError(t, json.Unmarshal(data, &dump))
	var out [][]byte
	for name, entries := range dump.Contracts {
		if !bytes.HasPrefix([]byte(name), []byte("-1:")) {
			continue
		}
		for _, e := range entries {
			if len(e.Key) == 21 && e.Key[0] == 8 {
				out = append(out, e.Value)
			}
		}
	}
	require.NotEmpty(t, out)
	return out
}

// TestManifestStackItemConformance checks the stored form byte for byte:
// for every contract state in the reference's storage, the manifest read
// back from it re-serializes to the same bytes, and equals the manifest of
// the node's JSON answer at the tip.
func TestManifestStackItemConformance(t *testing.T) {
	states := make(map[string]refdata.Contract)
	for _, c := range refdata.Contracts(t) {
		states[c.Chain+c.Hash] = c
	}
	var n int
	for _, chain := range conformance.Chains(t) {
		for _, file := range []string{"genesis.json", "final.json"} {
			for _, v := range storedContracts(t, chain, file) {
				it, err := stackitem.Deserialize(v)
				require.NoError(t, err)
				cs := it.(*stackitem.Array).Items()
				stored, err := stackitem.Serialize(cs[4])
				require.NoError(t, err)

				m, err := FromStackItem(cs[4])
				require.NoError(t, err)
				again, err := stackitem.Serialize(m.ToStackItem())
				require.NoError(t, err)
				require.Equal(t, stored, again)

				nefBytes, err := cs[3].Bytes()
				require.NoError(t, err)
				f, err := nef.FileFromBytes(nefBytes)
				require.NoError(t, err)

				hb, err := cs[2].Bytes()
				require.NoError(t, err)
				h, err := util.Uint160DecodeBytesLE(hb)
				require.NoError(t, err)
				if file != "final.json" {
					continue
				}
				c, ok := states[chain+h.String()]
				require.True(t, ok, h.String())
				fromJSON, err := Parse(c.Manifest)
				require.NoError(t, err)
				require.Equal(t, fromJSON, m, h.String())
				fromJSONItem, err := stackitem.Serialize(fromJSON.ToStackItem())
				require.NoError(t, err)
				require.Equal(t, stored, fromJSONItem)

				var nf nef.File
				require.NoError(t, json.Unmarshal(c.NEF, &nf))
				require.Equal(t, &nf, f)
				n++
			}
		}
	}
	t.Logf("%d stored contract states at the tips", n)
	require.NotZero(t, n)
}

func TestMarshalKeyOrder(t *testing.T) {
	m := DefaultManifest("Test")
	m.ABI.Methods = append(m.ABI.Methods, Method{Name: "main", Parameters: []Parameter{}, ReturnType: 0x11})
	out, err := json.Marshal(m)
	require.NoError(t, err)
	// The reference's key order (ContractManifest.ToJson and the ABI types).
	require.Equal(t, `{"name":"Test","groups":[],"features":{},"supportedstandards":[],`+
		`"abi":{"methods":[{"name":"main","parameters":[],"returntype":"Integer","offset":0,"safe":false}],"events":[]},`+
		`"permissions":[{"contract":"*","methods":"*"}],"trusts":[],"extra":null}`, string(out))
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
