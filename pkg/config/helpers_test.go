package config

import (
	"github.com/n3d-io/n3d/internal/conformance"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// repoRoot walks up from the package directory to the directory holding
// go.mod.
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "go.mod not found above the test directory")
		dir = parent
	}
}

// conformanceDir returns the reference data root holding chains/ (see
// internal/conformance).
func conformanceDir(t testing.TB) string {
	t.Helper()
	return conformance.Dir(t)
}

// unitTestNetYAML is the shipped unit_testnet config, the base the negative
// tests mutate.
func unitTestNetYAML(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "config", FileName(NetUnitTestNet)))
	require.NoError(t, err)
	return string(b)
}
