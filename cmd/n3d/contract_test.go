package main

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/interop"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/manifest"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/stretchr/testify/require"
)

// runContract runs `n3d contract args...` and returns the exit code and
// both outputs.
func runContract(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := &env{stdout: &out, stderr: &errOut, stdin: strings.NewReader(stdin)}
	code := run(ctx, append([]string{"n3d", "contract"}, args...), e)
	return code, out.String(), errOut.String()
}

func mustRunContract(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	code, out, errOut := runContract(t, stdin, args...)
	require.Equal(t, 0, code, "stdout: %s\nstderr: %s", out, errOut)
	return out
}

func mustFailContract(t *testing.T, msg string, args ...string) {
	t.Helper()
	code, out, errOut := runContract(t, "", args...)
	require.Equal(t, 1, code, "stdout: %s\nstderr: %s", out, errOut)
	require.Contains(t, errOut, msg)
}

// writeStorageContract writes a NEF and a manifest of a contract with
// put(key, value) and get(key) on its storage and returns their paths.
func writeStorageContract(t *testing.T, dir string) (*nef.File, string, string) {
	t.Helper()
	b := emit.NewBuilder()
	b.Syscall(interop.StorageGetContext).Syscall(interop.StoragePut).Opcodes(opcode.RET)
	getOffset := b.Len()
	b.Syscall(interop.StorageGetReadOnlyContext).Syscall(interop.StorageGet).Opcodes(opcode.RET)
	script, err := b.Script()
	require.NoError(t, err)
	f, err := nef.NewFile("n3d-test", "", nil, script)
	require.NoError(t, err)
	m := manifest.NewManifest("N3dContractTest")
	bt := smartcontract.ByteArrayType
	m.ABI.Methods = []manifest.Method{
		{Name: "put", Parameters: []manifest.Parameter{manifest.NewParameter("key", bt),
			manifest.NewParameter("value", bt)}, ReturnType: smartcontract.VoidType},
		{Name: "get", Parameters: []manifest.Parameter{manifest.NewParameter("key", bt)},
			ReturnType: bt, Offset: getOffset, Safe: true},
	}
	raw, err := f.Bytes()
	require.NoError(t, err)
	js, err := m.MarshalJSON()
	require.NoError(t, err)
	nefPath, manPath := filepath.Join(dir, "c.nef"), filepath.Join(dir, "c.manifest.json")
	require.NoError(t, os.WriteFile(nefPath, raw, 0o600))
	require.NoError(t, os.WriteFile(manPath, js, 0o600))
	return f, nefPath, manPath
}

// testResult is what the tests read of a printed invocation result.
type testResult struct {
	State     string            `json:"state"`
	Script    string            `json:"script"`
	Exception *string           `json:"exception"`
	Stack     []json.RawMessage `json:"stack"`
}

// parseResult checks the indentation of a printed result and parses it.
func parseResult(t *testing.T, out string) testResult {
	t.Helper()
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, []byte(out)), out)
	var want bytes.Buffer
	require.NoError(t, json.Indent(&want, compact.Bytes(), "", "  "))
	require.Equal(t, want.String()+"\n", out)
	var r testResult
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	return r
}

func TestContractCalcHash(t *testing.T) {
	f, nefPath, manPath := writeStorageContract(t, t.TempDir())
	sender := util.Uint160{1, 2, 3}
	want := smartcontract.CreateContractHash(sender, f.Checksum, "N3dContractTest")
	for _, s := range []string{address.Uint160ToString(sender), sender.StringBE(), sender.String()} {
		out := mustRunContract(t, "", "calc-hash", "-s", s, "-i", nefPath, "-m", manPath)
		require.Equal(t, "Contract hash: "+want.StringBE()+"\n", out)
	}
	// The hash is shown as neo-go shows hashes (the "0x" form unprefixed):
	// GAS's, from the known native name.
	require.Equal(t, "d2a4cff31913016155e38e474a2c06d08be276cf", txbuild.GasHash.StringBE())
	mustFailContract(t, "can't unmarshal .nef file", "calc-hash", "-s", sender.StringBE(), "-i", manPath, "-m", manPath)
	mustFailContract(t, "failed to restore manifest file", "calc-hash", "-s", sender.StringBE(), "-i", nefPath, "-m", nefPath)
	mustFailContract(t, "unexpected arguments", "calc-hash", "-s", sender.StringBE(), "-i", nefPath, "-m", manPath, "x")
}

func TestContractParams(t *testing.T) {
	ps, err := parseParams([]string{"int:5", "[", "abc", "nil", "]", "true",
		"hash256:0x" + strings.Repeat("01", 31) + "02"})
	require.NoError(t, err)
	js, err := json.Marshal(ps)
	require.NoError(t, err)
	require.JSONEq(t, `[{"type":"Integer","value":"5"},
		{"type":"Array","value":[{"type":"String","value":"abc"},{"type":"Any"}]},
		{"type":"Boolean","value":true},
		{"type":"ByteArray","value":"`+base64.StdEncoding.EncodeToString(append([]byte{2}, bytes.Repeat([]byte{1}, 31)...))+`"}]`,
		string(js))
	h, err := contractHashArg("Neo")
	require.NoError(t, err)
	require.Equal(t, txbuild.NeoHash, h)
	h, err = contractHashArg(txbuild.GasHash.String())
	require.NoError(t, err)
	require.Equal(t, txbuild.GasHash, h)
	_, err = contractHashArg("nosuch")
	require.ErrorContains(t, err, "invalid native contract name")
}
