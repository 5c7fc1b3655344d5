package native

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"
)

// Facts about the reference implementations captured once from their
// sources (see testdata/README.md and scripts/native-reference.sh); the
// tests read these files, never another repository.
const (
	neoGoStatesFile    = "neogo-native-states.json"
	csharpMethodsFile  = "csharp-native-methods.json"
	envRegenNativeRef  = "N3D_REGEN_NATIVE_REF"
	envNeoGoManagement = "N3D_NEOGO_MANAGEMENT_TEST"
	envNeoNativeDir    = "N3D_NEO_NATIVE_DIR"
	envNeoGoSource     = "N3D_NEOGO_SOURCE"
	envNeoSource       = "N3D_NEO_SOURCE"
)

// neoGoStatesRef is testdata/neogo-native-states.json: the genesis
// contract states (JSON text) neo-go expects with the hardforks up to each
// key of States enabled at height 0, by native name. As in neo-go, a key
// lists only the natives that change there; the others keep their state
// of the key before (neoGoStateOrder).
type neoGoStatesRef struct {
	Source string                       `json:"source"`
	States map[string]map[string]string `json:"states"`
}

// csharpMethodsRef is testdata/csharp-native-methods.json: per core
// native, every C# [ContractMethod] as refMethod.String().
type csharpMethodsRef struct {
	Source  string              `json:"source"`
	Methods map[string][]string `json:"methods"`
}

// neoGoStateOrder lists the hardfork keys of neo-go's expected states.
var neoGoStateOrder = []string{"default", "cockatrice", "echidna", "faun", "gorgon"}

// neoGoStates returns the captured neo-go native states per hardfork key
// and native name, cumulative over neoGoStateOrder.
func neoGoStates(t *testing.T) map[string]map[string]string {
	t.Helper()
	var ref neoGoStatesRef
	readRefJSON(t, neoGoStatesFile, &ref)
	res := map[string]map[string]string{}
	prev := map[string]string{}
	for _, k := range neoGoStateOrder {
		cur, ok := ref.States[k]
		require.True(t, ok, "%s: no %q states", neoGoStatesFile, k)
		for n, v := range prev {
			if _, ok := cur[n]; !ok {
				cur[n] = v
			}
		}
		require.Len(t, cur, 5, "%s: %s", neoGoStatesFile, k)
		res[k] = cur
		prev = cur
	}
	return res
}

func readCSharpMethods(t *testing.T) csharpMethodsRef {
	t.Helper()
	var ref csharpMethodsRef
	readRefJSON(t, csharpMethodsFile, &ref)
	require.Len(t, ref.Methods, len(csharpFiles), csharpMethodsFile)
	return ref
}

func readRefJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, v), name)
}

// parseNeoGoStates extracts the <hf>CSS maps named in neoGoStateOrder
// from neo-go's pkg/core/native/native_test/management_test.go.
func parseNeoGoStates(t *testing.T, src string) map[string]map[string]string {
	t.Helper()
	names := map[string]string{"Management": ManagementName, "StdLib": StdLibName, "CryptoLib": CryptoLibName,
		"Ledger": LedgerName, "Policy": PolicyName}
	block := regexp.MustCompile("(?s)\t(\\w+)CSS = map\\[string\\]string\\{(.*?)\n\t\\}")
	entry := regexp.MustCompile("nativenames\\.(\\w+):\\s*`([^`]*)`")
	raw := map[string]map[string]string{}
	for _, m := range block.FindAllStringSubmatch(src, -1) {
		raw[m[1]] = map[string]string{}
		for _, e := range entry.FindAllStringSubmatch(m[2], -1) {
			if n, ok := names[e[1]]; ok {
				require.True(t, json.Valid([]byte(e[2])), "neo-go %sCSS %s is not JSON", m[1], n)
				raw[m[1]][n] = e[2]
			}
		}
	}
	res := map[string]map[string]string{}
	for _, k := range neoGoStateOrder {
		cur, ok := raw[k]
		require.True(t, ok, "neo-go %sCSS not found", k)
		res[k] = cur
	}
	require.Len(t, res["default"], len(names))
	return res
}

// TestRegenerateNativeReference rewrites the two captured files from the
// reference sources. It runs only when N3D_REGEN_NATIVE_REF=1, with
// N3D_NEOGO_MANAGEMENT_TEST naming neo-go's
// pkg/core/native/native_test/management_test.go and N3D_NEO_NATIVE_DIR
// the C# node's src/Neo/SmartContract/Native folder
// (scripts/native-reference.sh sets them from two git repositories).
func TestRegenerateNativeReference(t *testing.T) {
	if os.Getenv(envRegenNativeRef) != "1" {
		t.Skipf("set %s=1 (see scripts/native-reference.sh) to regenerate testdata/%s and testdata/%s",
			envRegenNativeRef, neoGoStatesFile, csharpMethodsFile)
	}
	mgmt, csDir := os.Getenv(envNeoGoManagement), os.Getenv(envNeoNativeDir)
	require.NotEmpty(t, mgmt, envNeoGoManagement)
	require.NotEmpty(t, csDir, envNeoNativeDir)

	src, err := os.ReadFile(mgmt)
	require.NoError(t, err)
	writeRefJSON(t, neoGoStatesFile, neoGoStatesRef{Source: os.Getenv(envNeoGoSource),
		States: parseNeoGoStates(t, string(src))})

	srcs := map[string]string{}
	out := csharpMethodsRef{Source: os.Getenv(envNeoSource), Methods: map[string][]string{}}
	for _, c := range csharpFiles {
		for _, f := range c.files {
			b, err := os.ReadFile(filepath.Join(csDir, f))
			require.NoError(t, err)
			srcs[f] = string(b)
		}
		for _, m := range csharpMethods(t, srcs, c.files...) {
			out.Methods[c.name] = append(out.Methods[c.name], m.String())
		}
	}
	writeRefJSON(t, csharpMethodsFile, out)
}

func writeRefJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join("testdata", name), append(b, '\n'), 0o644))
}
