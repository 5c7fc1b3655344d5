package callflag

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
)

// TestCallFlagsConformance checks the call flag texts of every method token
// the reference node printed.
func TestCallFlagsConformance(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range refdata.Contracts(t) {
		var nef struct {
			Tokens []struct {
				CallFlags string `json:"callflags"`
			} `json:"tokens"`
		}
		require.NoError(t, json.Unmarshal(c.NEF, &nef))
		for _, tok := range nef.Tokens {
			f, err := FromString(tok.CallFlags)
			require.NoError(t, err, tok.CallFlags)
			require.Equal(t, tok.CallFlags, f.String())
			seen[tok.CallFlags] = true
		}
	}
	// The data has combined flags printed by the reference.
	require.True(t, seen["States, AllowNotify"])
}

func TestStringForms(t *testing.T) {
	for f, want := range map[CallFlag]string{
		None: "None", ReadStates: "ReadStates", WriteStates: "WriteStates", AllowCall: "AllowCall",
		AllowNotify: "AllowNotify", States: "States", ReadOnly: "ReadOnly", All: "All",
		States | AllowNotify:      "States, AllowNotify",
		ReadOnly | AllowNotify:    "ReadOnly, AllowNotify",
		ReadStates | AllowNotify:  "ReadStates, AllowNotify",
		WriteStates | AllowCall:   "WriteStates, AllowCall",
		ReadOnly | WriteStates:    "WriteStates, ReadOnly",
		WriteStates | AllowNotify: "WriteStates, AllowNotify",
		0x10:                      "16",
		0x11:                      "17",
	} {
		require.Equal(t, want, f.String(), "%d", byte(f))
	}
}

func TestRoundTrip(t *testing.T) {
	for f := CallFlag(0); f <= All; f++ {
		g, err := FromString(f.String())
		require.NoError(t, err)
		require.Equal(t, f, g)
		b, err := json.Marshal(f)
		require.NoError(t, err)
		var h CallFlag
		require.NoError(t, json.Unmarshal(b, &h))
		require.Equal(t, f, h)
		require.True(t, f.IsValid())
		require.True(t, All.Has(f))
	}
	require.False(t, CallFlag(0x10).IsValid())
	require.False(t, ReadStates.Has(States))
}

func TestFromStringErrors(t *testing.T) {
	for _, s := range []string{"", "Bogus", "ReadStates,", "readstates", "16", "256", "-1", "States,,All"} {
		_, err := FromString(s)
		require.ErrorIs(t, err, ErrInvalid, s)
	}
	for s, want := range map[string]CallFlag{
		"ReadStates, WriteStates": States, " AllowCall ": AllowCall, "15": All, "+5": ReadOnly, "-0": None,
	} {
		f, err := FromString(s)
		require.NoError(t, err, s)
		require.Equal(t, want, f, s)
	}
	var f CallFlag
	require.Error(t, json.Unmarshal([]byte(`5`), &f))
}
