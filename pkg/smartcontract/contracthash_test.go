package smartcontract_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
	"github.com/n3d-io/n3d/pkg/util"
)

type nameAndChecksum struct {
	NEF struct {
		Checksum uint32 `json:"checksum"`
	} `json:"nef"`
	Manifest struct {
		Name string `json:"name"`
	} `json:"manifest"`
}

func TestNativeContractHashConformance(t *testing.T) {
	var n int
	for _, c := range refdata.Contracts(t) {
		if !c.Native() {
			continue
		}
		var st nameAndChecksum
		require.NoError(t, json.Unmarshal(c.Manifest, &st.Manifest))
		want, err := util.Uint160DecodeStringBE(c.Hash)
		require.NoError(t, err)
		require.Equal(t, want, smartcontract.CreateNativeContractHash(st.Manifest.Name), st.Manifest.Name)
		n++
	}
	require.NotZero(t, n)
}

// TestDeployedContractHashConformance recomputes the hash of every contract
// deployed on the reference chains from the deploying transaction's sender
// and the NEF checksum and name the node reports, and checks it against the
// Deploy notification and the node's contract state.
func TestDeployedContractHashConformance(t *testing.T) {
	states := make(map[util.Uint160]refdata.Contract)
	for _, c := range refdata.Contracts(t) {
		h, err := util.Uint160DecodeStringBE(c.Hash)
		require.NoError(t, err)
		states[h] = c
	}
	var n int
	for _, chain := range []string{"testblocks", "chain50x2"} {
		for _, d := range refdata.Deploys(t, chain) {
			c, ok := states[d.Hash]
			require.True(t, ok, "no contract state for %s", d.Hash)
			require.Zero(t, c.UpdateCounter, "the checksum of an updated contract is not the deployed one")
			var st nameAndChecksum
			require.NoError(t, json.Unmarshal(c.NEF, &st.NEF))
			require.NoError(t, json.Unmarshal(c.Manifest, &st.Manifest))
			got := smartcontract.CreateContractHash(d.Sender, st.NEF.Checksum, st.Manifest.Name)
			require.Equal(t, d.Hash, got, "%s %s", chain, st.Manifest.Name)
			n++
		}
	}
	require.Equal(t, 7, n, "six deploys on testblocks, one on chain50x2")
}
