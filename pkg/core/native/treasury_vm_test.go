package native_test

import (
	"testing"

	"github.com/n3d-io/n3d/internal/nativetest"
	"github.com/n3d-io/n3d/pkg/protocol"
	"github.com/stretchr/testify/require"
)

// Expected behaviour: the reference Treasury (neo
// src/Neo/SmartContract/Native/Treasury.cs), active from Faun.

func TestTreasury(t *testing.T) {
	th := nativetest.TreasuryHash
	c := nativetest.New(t, nativetest.Options{Hardforks: nativetest.Hardfork(protocol.HFFaun, 3)})
	bft := c.ValidatorsAddress()
	// Before Faun it does not exist.
	c.Call(nil, nativetest.CallScript(t, th, "verify")).Faults(t, "")
	_, err := c.DAO.GetContract(th)
	require.Error(t, err)
	c.AddBlocks(3) // 3: deployed in Faun's OnPersist
	cs, err := c.DAO.GetContract(th)
	require.NoError(t, err)
	require.Equal(t, int32(-11), cs.ID)
	require.Equal(t, []string{"NEP-26", "NEP-27", "NEP-30"}, cs.Manifest.SupportedStandards)

	// It accepts NEP-17 payments.
	mustBool(t, c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, gasH, "transfer", bft, th, 5, "memo")), true)
	require.Equal(t, int64(5), balance(t, c, gasH, th))
	mustBool(t, c.Invoke(nativetest.CalledByEntry(bft), nativetest.CallScript(t, neoH, "transfer", bft, th, 5, nil)), true)
	require.Equal(t, int64(5), balance(t, c, neoH, th))
	// verify: the committee's witness.
	require.False(t, nativetest.Bool(t, c.Call(nativetest.CalledByEntry(acc(1)), nativetest.CallScript(t, th, "verify")).Halt(t)))
	require.True(t, nativetest.Bool(t, c.Call(nativetest.CalledByEntry(c.CommitteeAddress()), nativetest.CallScript(t, th, "verify")).Halt(t)))
	// onNEP11Payment accepts anything too.
	c.Call(nil, nativetest.CallScript(t, th, "onNEP11Payment", acc(1), 1, []byte{1}, nil)).Halt(t)
}
