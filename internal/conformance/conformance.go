// Package conformance locates the reference data in ../shared/conformance/
// for tests. Where the folder is absent a test is skipped with a clear
// message, except under CI=true, where it fails: CI must never pass by
// silently checking nothing.
package conformance

import (
	"os"
	"path/filepath"
	"testing"
)

// Dir returns the absolute path of ../shared/conformance/<sub...> seen from
// the module root, skipping or failing t when it does not exist.
func Dir(t testing.TB, sub ...string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	dir := filepath.Join(append([]string{root, "..", "shared", "conformance"}, sub...)...)
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("conformance data missing under CI: %v", err)
		}
		t.Skipf("conformance data not found (%v); clone shared/ beside the repo to run this test", err)
	}
	return dir
}

// Chains returns the names of the reference chains (testblocks, chain50x2).
func Chains(t testing.TB) []string {
	t.Helper()
	dir := Dir(t, "chains")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", os.ErrNotExist
		}
		dir = parent
	}
}
