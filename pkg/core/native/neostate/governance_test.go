package neostate

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/internal/conformance"
)

func keyHex(k []byte) string { return hex.EncodeToString(k) }

func governanceValidators(t *testing.T, chain string) []string {
	raw, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", chain), "governance.json"))
	require.NoError(t, err)
	var g struct {
		Validators []struct {
			PublicKey string `json:"publickey"`
		} `json:"getnextblockvalidators"`
	}
	require.NoError(t, json.Unmarshal(raw, &g))
	out := []string{}
	for _, v := range g.Validators {
		out = append(out, v.PublicKey)
	}
	return out
}
