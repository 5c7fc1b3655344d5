package native

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

// TestGenesisRolesConfig: Genesis.Roles becomes the designations the
// RoleManagement contract makes at deployment (the chain test
// TestGenesisRolesMatchNeoGo checks the result against neo-go).
func TestGenesisRolesConfig(t *testing.T) {
	pc := chainConfig(t, "testblocks")
	g := governanceForTest(t, pc)
	require.Empty(t, g.Designate.genesis)

	k1, err := keys.NewPrivateKey()
	require.NoError(t, err)
	k2, err := keys.NewPrivateKey()
	require.NoError(t, err)
	pc.Genesis.Roles = map[string][]string{
		"P2PNotary": {k1.PublicKey().String()},
		"Oracle":    {k2.PublicKey().String(), k1.PublicKey().String()},
	}
	g = governanceForTest(t, pc)
	require.Equal(t, map[Role][][]byte{
		RoleP2PNotary: {k1.PublicKey().Bytes()},
		RoleOracle:    {k2.PublicKey().Bytes(), k1.PublicKey().Bytes()}, // sorted when designated
	}, g.Designate.genesis)

	pc.Genesis.Roles = map[string][]string{"Janitor": {k1.PublicKey().String()}}
	_, err = NewGovernance(&pc, NewCore(&pc))
	require.ErrorIs(t, err, ErrInvalidArgument)
	pc.Genesis.Roles = map[string][]string{"Oracle": {"02"}}
	_, err = NewGovernance(&pc, NewCore(&pc))
	require.ErrorIs(t, err, ErrInvalidArgument)
}
