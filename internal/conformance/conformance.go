// Package conformance locates the reference data for tests.
//
// The reference chains (block dumps, state roots, application logs,
// storage diffs… produced by neo-go v0.122.0, see testdata/README.md) live
// in the repository under internal/conformance/testdata/chains, so a fresh
// clone runs every chain conformance test.
//
// The NeoVM JSON vectors stay outside the repository: they are found in
// $N3D_CONFORMANCE_DIR/neovm, or else in ../shared/conformance/neovm seen
// from the module root. Where they are absent a test is skipped with a
// message saying how to get them, except under CI=true, where it fails: CI
// must never pass by silently checking nothing.
package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// EnvDir names the environment variable that points at the external
// conformance folder (the one holding neovm/); it overrides
// ../shared/conformance.
const EnvDir = "N3D_CONFORMANCE_DIR"

// Dir returns the absolute path of the reference data <sub...>. Paths
// whose first element is "chains" (and the root itself, which holds
// chains/) resolve to the in-repo copy; anything else (the NeoVM vectors) to the external folder,
// skipping or failing t when it does not exist.
func Dir(t testing.TB, sub ...string) string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	rel := filepath.Join(sub...)
	if first, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); rel == "" || first == "chains" {
		dir := filepath.Join(root, "internal", "conformance", "testdata", rel)
		if _, err := os.Stat(dir); err != nil {
			t.Fatalf("conformance: in-repo reference data missing: %v", err)
		}
		return dir
	}
	return External(t, sub...)
}

// External returns <external folder>/<sub...>, the external folder being
// $N3D_CONFORMANCE_DIR or ../shared/conformance seen from the module root.
// When it does not exist t is skipped with a message saying how to get
// the data, or failed under CI=true.
func External(t testing.TB, sub ...string) string {
	t.Helper()
	base := os.Getenv(EnvDir)
	if base == "" {
		root, err := moduleRoot()
		if err != nil {
			t.Fatalf("conformance: %v", err)
		}
		base = filepath.Join(root, "..", "shared", "conformance")
	}
	dir := filepath.Join(append([]string{base}, sub...)...)
	if _, err := os.Stat(dir); err != nil {
		msg := fmt.Sprintf("external conformance data not found (%v): set %s to a folder holding "+
			"neovm/ (the JSON vectors of neo-project/neo-vm, tests/Neo.VM.Tests/Tests, in their "+
			"original tree) or place it at ../shared/conformance beside the repository", err, EnvDir)
		if os.Getenv("CI") == "true" {
			t.Fatalf("under CI=true: %s", msg)
		}
		t.Skip(msg)
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

// maxLine bounds one line of a reference .jsonl file (a block with its
// transactions).
const maxLine = 64 << 20

// EachLine calls fn with every line of the JSON-lines file at path, in
// order; line is only valid during the call. A file that cannot be read
// fails t.
func EachLine(t testing.TB, path string, fn func(line []byte)) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("conformance: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	for sc.Scan() {
		fn(sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("conformance: %s: %v", path, err)
	}
}

// ReadJSONL decodes every line of the JSON-lines file at path into a T; a
// line that does not decode fails t.
func ReadJSONL[T any](t testing.TB, path string) []T {
	t.Helper()
	var out []T
	EachLine(t, path, func(line []byte) {
		var v T
		if err := json.Unmarshal(line, &v); err != nil {
			t.Fatalf("conformance: %s line %d: %v", path, len(out)+1, err)
		}
		out = append(out, v)
	})
	return out
}

// RawBlocks returns the serialized blocks of a reference chain in index
// order (the "raw" field of its blocks.jsonl).
func RawBlocks(t testing.TB, chain string) [][]byte {
	t.Helper()
	lines := ReadJSONL[struct {
		Raw []byte `json:"raw"`
	}](t, filepath.Join(Dir(t, "chains", chain), "blocks.jsonl"))
	out := make([][]byte, len(lines))
	for i := range lines {
		out[i] = lines[i].Raw
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
