package native

import (
	"path/filepath"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/stretchr/testify/require"
)

// TestNEOOnPaymentPriceAsNeoGo: NeoToken.onNEP17Payment (candidate
// registration by GAS payment, Echidna) costs 1<<15 × the exec fee factor
// as in the reference Go node, whose application logs carry that GAS
// (testdata/neogo-diff of pkg/core/chain, the registration of round 7 of
// scripts/neogo-diffchain.sh); the C# attribute declares no CPU fee.
func TestNEOOnPaymentPriceAsNeoGo(t *testing.T) {
	c, err := config.LoadFile(filepath.Join("..", "chain", "testdata", "neogo-diff", "staggered", "protocol.yml"), "")
	require.NoError(t, err)
	g := governanceForTest(t, c.ProtocolConfiguration)
	found := 0
	for _, m := range g.NEO.md.methods {
		if m.Name == "onNEP17Payment" {
			found++
			require.EqualValues(t, 1<<15, m.CPUFee)
		}
	}
	require.Equal(t, 1, found)
}
