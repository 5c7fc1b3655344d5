package protocol

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestHardforkNames(t *testing.T) {
	all := Hardforks()
	require.Equal(t, HFAspidochelone, all[0])
	for i, hf := range all {
		got, err := HardforkFromString(hf.String())
		require.NoError(t, err)
		require.Equal(t, hf, got)
		if i > 0 {
			require.Greater(t, hf, all[i-1], "activation order")
		}
	}
	got, err := HardforkFromString("HF_Echidna")
	require.NoError(t, err)
	require.Equal(t, HFEchidna, got)
	_, err = HardforkFromString("Zebra")
	require.Error(t, err)
	require.Equal(t, HFGorgon, StableHardforks()[len(StableHardforks())-1])
	require.Contains(t, Hardfork(200).String(), "200")
}

func TestMagic(t *testing.T) {
	require.Equal(t, Magic(860833102), MainNet)
	require.Equal(t, Magic(894710606), TestNet)
	require.Equal(t, "mainnet", MainNet.String())
	require.Equal(t, "net7", Magic(7).String())
}
