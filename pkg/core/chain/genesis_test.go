package chain

import (
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/stretchr/testify/require"
)

func TestGenesisMatchesReference(t *testing.T) {
	for _, name := range conformance.Chains(t) {
		t.Run(name, func(t *testing.T) {
			cfg := loadProtocol(t, name)
			ref := refBlocks(t, name)[0]
			require.EqualValues(t, 0, ref.Index)
			g, err := GenesisBlock(&cfg.ProtocolConfiguration)
			require.NoError(t, err)
			require.Equal(t, ref.Hash, g.Hash().String())
			raw, err := g.Bytes()
			require.NoError(t, err)
			require.Equal(t, ref.Raw, raw)
			require.Equal(t, len(ref.Raw), g.Size())
		})
	}
}

func TestGenesisTransaction(t *testing.T) {
	cfg := loadProtocol(t, "testblocks")
	p := cfg.ProtocolConfiguration
	plain, err := GenesisBlock(&p)
	require.NoError(t, err)
	p.Genesis.Transaction = &config.GenesisTransaction{Script: []byte{0x11}, SystemFee: 100}
	g, err := GenesisBlock(&p)
	require.NoError(t, err)
	require.Len(t, g.Transactions, 1)
	tx := g.Transactions[0]
	// 4 validators (3 of 4) and 6 committee members (4 of 6) differ: two signers.
	require.Len(t, tx.Signers, 2)
	require.Equal(t, plain.NextConsensus, tx.Signers[0].Account)
	committee, err := StandbyCommittee(&p)
	require.NoError(t, err)
	ch, err := CommitteeAddress(committee)
	require.NoError(t, err)
	require.Equal(t, ch, tx.Signers[1].Account)
	require.Equal(t, g.ComputeMerkleRoot(), g.MerkleRoot)
	require.NotEqual(t, plain.Hash(), g.Hash())

	// One validator who is the whole committee: a single signer.
	p.StandbyCommittee = p.StandbyCommittee[:1]
	p.ValidatorsCount = 1
	g, err = GenesisBlock(&p)
	require.NoError(t, err)
	require.Len(t, g.Transactions[0].Signers, 1)
	require.Len(t, g.Transactions[0].Witnesses, 1)
}

func TestGenesisBadConfig(t *testing.T) {
	cfg := loadProtocol(t, "testblocks")
	p := cfg.ProtocolConfiguration
	p.StandbyCommittee = append([]string{"02bad"}, p.StandbyCommittee[1:]...)
	_, err := GenesisBlock(&p)
	require.Error(t, err)
}
