package trigger

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/smartcontract/internal/refdata"
)

// TestTriggerConformance reads the trigger of every execution in the
// reference's application logs.
func TestTriggerConformance(t *testing.T) {
	seen := map[Type]bool{}
	for _, chain := range conformance.Chains(t) {
		refdata.ReadJSONL(t, chain, "applogs.jsonl", func(line []byte) {
			var l struct {
				Result struct {
					Executions []struct {
						Trigger string `json:"trigger"`
					} `json:"executions"`
				} `json:"result"`
			}
			require.NoError(t, json.Unmarshal(line, &l))
			for _, e := range l.Result.Executions {
				tr, err := FromString(e.Trigger)
				require.NoError(t, err, e.Trigger)
				require.Equal(t, e.Trigger, tr.String())
				seen[tr] = true
			}
		})
	}
	require.True(t, seen[OnPersist] && seen[PostPersist] && seen[Application])
}

func TestTriggerForms(t *testing.T) {
	for tr, want := range map[Type]string{
		OnPersist: "OnPersist", PostPersist: "PostPersist", Verification: "Verification",
		Application: "Application", System: "System", All: "All",
		Verification | Application: "Verification, Application",
		OnPersist | Verification:   "OnPersist, Verification",
		System | Application:       "System, Application",
		0:                          "0",
		0x04:                       "4",
	} {
		require.Equal(t, want, tr.String())
	}
	for _, s := range []string{"", "x", "0", "4", "onpersist"} {
		_, err := FromString(s)
		require.ErrorIs(t, err, ErrInvalid, s)
	}
	for _, tr := range []Type{OnPersist, PostPersist, Verification, Application, System, All} {
		b, err := json.Marshal(tr)
		require.NoError(t, err)
		var got Type
		require.NoError(t, json.Unmarshal(b, &got))
		require.Equal(t, tr, got)
	}
}
