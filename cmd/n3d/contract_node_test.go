package main

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/nef"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/stretchr/testify/require"
)

// TestContractNode deploys a storage contract to a single-validator
// privnet, test-invokes it, writes to it with invokefunction and reads the
// value back; then the failures.
func TestContractNode(t *testing.T) {
	n := startWalletNode(t, true)
	require.Eventually(t, func() bool { return n.r.n.Chain().BlockHeight() >= 1 }, 20*time.Second, 10*time.Millisecond)
	dir := t.TempDir()
	f, nefPath, manPath := writeStorageContract(t, dir)

	out := mustRunContract(t, "", "deploy", "-r", n.r.url, "--wallet-config", n.cfg, "-a", n.multi,
		"-i", nefPath, "-m", manPath, "--force", "--await")
	lines := strings.SplitAfterN(out, "\n", 4)
	require.Len(t, lines, 4, out)
	requireHalted(t, strings.Join(lines[:3], ""))
	sender, err := parseAddress(n.multi)
	require.NoError(t, err)
	h := smartcontract.CreateContractHash(sender, f.Checksum, "N3dContractTest")
	require.Equal(t, "Contract: "+h.StringBE()+"\n", lines[3])
	calc := mustRunContract(t, "", "calc-hash", "-s", n.multi, "-i", nefPath, "-m", manPath)
	require.Equal(t, "Contract hash: "+h.StringBE()+"\n", calc)

	get := func() testResult {
		return parseResult(t, mustRunContract(t, "", "testinvokefunction", "-r", n.r.url, h.StringBE(), "get", "bytes:6b"))
	}
	r := get()
	require.Equal(t, "HALT", r.State)
	require.Len(t, r.Stack, 1)
	require.JSONEq(t, `{"type":"Any"}`, string(r.Stack[0]))

	out = mustRunContract(t, "", "invokefunction", "-r", n.r.url, "--wallet-config", n.cfg, "-a", n.multi,
		"--force", "--await", h.String(), "put", "bytes:6b", "string:value", "--", n.multi+":CalledByEntry")
	requireHalted(t, out)
	r = get()
	require.Len(t, r.Stack, 1)
	require.JSONEq(t, `{"type":"ByteString","value":"`+base64.StdEncoding.EncodeToString([]byte("value"))+`"}`,
		string(r.Stack[0]))

	n.testInvokes(t, dir)
	n.contractFailures(t, h)
}

// testInvokes runs a native contract's method by name with a signer, and
// scripts from a NEF file and a raw file.
func (n *walletNode) testInvokes(t *testing.T, dir string) {
	r := parseResult(t, mustRunContract(t, "", "testinvokefunction", "-r", n.r.url, "neo", "balanceOf",
		n.multi, "--", n.multi))
	require.Equal(t, "HALT", r.State)
	require.Contains(t, string(r.Stack[0]), `"Integer"`)

	script := []byte{byte(opcode.PUSH1), byte(opcode.PUSH2), byte(opcode.ADD)}
	f, err := nef.NewFile("n3d-test", "", nil, script)
	require.NoError(t, err)
	raw, err := f.Bytes()
	require.NoError(t, err)
	nefPath, rawPath := filepath.Join(dir, "s.nef"), filepath.Join(dir, "s.bin")
	require.NoError(t, os.WriteFile(nefPath, raw, 0o600))
	require.NoError(t, os.WriteFile(rawPath, script, 0o600))
	for _, p := range []string{nefPath, rawPath} {
		r := parseResult(t, mustRunContract(t, "", "testinvokescript", "-r", n.r.url, "-i", p, n.multi+":None"))
		require.Equal(t, "HALT", r.State)
		require.Equal(t, base64.StdEncoding.EncodeToString(script), r.Script)
		require.JSONEq(t, `[{"type":"Integer","value":"3"}]`, "["+string(r.Stack[0])+"]")
	}
	broken := append([]byte(nil), raw...)
	broken[len(broken)-1] ^= 0xff
	require.NoError(t, os.WriteFile(nefPath, broken, 0o600))
	mustFailContract(t, "failed to restore .nef file", "testinvokescript", "-r", n.r.url, "-i", nefPath)
}

func (n *walletNode) contractFailures(t *testing.T, h util.Uint160) {
	mustFailContract(t, "Warning: FAULT VM state returned from the RPC node", "testinvokefunction",
		"-r", n.r.url, h.StringBE(), "nosuchmethod")
	mustFailContract(t, "Use --force flag to send the transaction anyway.\n", "invokefunction", "-r", n.r.url,
		"--wallet-config", n.cfg, "-a", n.multi, txbuild.GasHash.StringBE(), "nosuchmethod")
	out := mustRunContract(t, "", "invokefunction", "-r", n.r.url, "--wallet-config", n.cfg, "-a", n.multi,
		"--force", txbuild.GasHash.StringBE(), "nosuchmethod")
	lines := strings.Split(out, "\n")
	require.Len(t, lines, 4, out)
	require.True(t, strings.HasPrefix(lines[0], "Warning: FAULT VM state returned from the RPC node: "), out)
	require.Equal(t, "Sending transaction...", lines[1])
	_, err := util.Uint256DecodeStringBE(lines[2])
	require.NoError(t, err)
	mustFailContract(t, errNoScriptHash.Error(), "testinvokefunction", "-r", n.r.url)
	mustFailContract(t, errNoMethod.Error(), "testinvokefunction", "-r", n.r.url, "gas")
	mustFailContract(t, "invalid native contract name", "testinvokefunction", "-r", n.r.url, "nosuch", "m")
	mustFailContract(t, "failed to parse signer #0", "testinvokefunction", "-r", n.r.url, "gas", "symbol", "--", "x")
	code, out, errOut := runContract(t, "n\n", "invokefunction", "-r", n.r.url, "--wallet-config", n.cfg,
		"-a", n.multi, "gas", "symbol")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "cancelled")
	require.Contains(t, out, "Total fee: ")
}
