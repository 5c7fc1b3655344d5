// Package conformance locates the reference data in ../shared/conformance/
// for tests. Where the folder is absent a test is skipped with a clear
// message, except under CI=true, where it fails: CI must never pass by
// silently checking nothing.
package conformance

import (
	"bufio"
	"encoding/json"
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
