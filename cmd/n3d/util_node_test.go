package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestUtilSendTx: a context saved by `wallet nep17 transfer --out` (the
// 1-of-1 multisig's signature makes it complete) is dumped, sent and
// awaited; sending it again, an incomplete context and no endpoint fail.
func TestUtilSendTx(t *testing.T) {
	n := startWalletNode(t, true)
	require.Eventually(t, func() bool { return n.r.svc.chain.BlockHeight() >= 1 }, 20*time.Second, 10*time.Millisecond)
	ctxFile := filepath.Join(t.TempDir(), "tx.json")
	out := n.run(t, "", "nep17", "transfer", "--wallet-config", n.cfg, "--from", n.multi, "--to", n.single,
		"--token", "GAS", "--amount", "1", "--out", ctxFile)
	h, err := util.Uint256DecodeStringBE(strings.TrimSpace(out))
	require.NoError(t, err, out)

	dump := mustUtil(t, "txdump", ctxFile)
	require.True(t, strings.HasPrefix(dump, "Hash:\t\t\t"+h.StringBE()+"\nOnChain:\t\tfalse\n"), dump)
	require.Contains(t, dump, "Signer:\t\t\t"+n.multi+" (CalledByEntry)\n")
	require.Contains(t, dump, "SYSCALL      System.Contract.Call (627d5b52)\n")
	require.Contains(t, mustUtil(t, "txdump", "-r", n.r.url, ctxFile), "\n \"state\": \"HALT\",\n")

	require.Equal(t, h, requireHalted(t, mustUtil(t, "sendtx", "-r", n.r.url, "--await", ctxFile)))
	mustFailUtil(t, "failed to submit transaction to RPC node", "sendtx", "-r", n.r.url, ctxFile)
	incomplete, _ := utilContext(t)
	mustFailUtil(t, "failed to complete transaction", "sendtx", "-r", n.r.url, incomplete)
	mustFailUtil(t, "failed to create RPC client", "sendtx", ctxFile)
	mustFailUtil(t, "missing input file", "sendtx", "-r", n.r.url)
}
