package refdata

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
)

// Contract is one getcontractstate answer; NEF and manifest are kept raw.
type Contract struct {
	Chain         string          `json:"-"`
	Hash          string          `json:"hash"`
	ID            int32           `json:"id"`
	UpdateCounter int             `json:"updatecounter"`
	NEF           json.RawMessage `json:"nef"`
	Manifest      json.RawMessage `json:"manifest"`
}

// Native reports whether the contract is a native one (negative id).
func (c *Contract) Native() bool { return c.ID < 0 }

type contractsFile struct {
	Deployed map[string]Contract `json:"deployed"`
	Native   []Contract          `json:"native"`
}

// Contracts returns every contract state of every conformance chain:
// getnativecontracts answers first, then getcontractstate answers.
func Contracts(t testing.TB) []Contract {
	t.Helper()
	var out []Contract
	for _, chain := range conformance.Chains(t) {
		data, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", chain), "contracts.json"))
		if err != nil {
			t.Fatalf("refdata: %v", err)
		}
		var f contractsFile
		if err := json.Unmarshal(data, &f); err != nil {
			t.Fatalf("refdata: %s: %v", chain, err)
		}
		for _, c := range f.Native {
			c.Chain = chain
			out = append(out, c)
		}
		for _, h := range slices.Sorted(maps.Keys(f.Deployed)) {
			c := f.Deployed[h]
			c.Chain = chain
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		t.Fatalf("refdata: no contracts found")
	}
	return out
}

// ChainFile returns the path of a file of a conformance chain.
func ChainFile(t testing.TB, chain, name string) string {
	t.Helper()
	return filepath.Join(conformance.Dir(t, "chains", chain), name)
}

// RequireSameJSON fails t unless want and got are the same JSON value
// (key order and spacing aside).
func RequireSameJSON(t testing.TB, want, got []byte, msg ...any) {
	t.Helper()
	var w, g any
	require.NoError(t, json.Unmarshal(want, &w))
	require.NoError(t, json.Unmarshal(got, &g))
	require.Equal(t, w, g, msg...)
}
