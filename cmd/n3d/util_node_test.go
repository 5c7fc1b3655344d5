package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

// TestUtilSendTx: a context saved by `wallet nep17 transfer --out` (the
// 1-of-1 multisig's signature makes it complete) is dumped, sent and
// awaited; sending it again, an incomplete context and no endpoint fail.
// canceltx cannot cancel it then, and cancels an unknown hash (--await).
func TestUtilSendTx(t *testing.T) {
	n := startWalletNode(t, true)
	require.Eventually(t, func() bool { return n.r.n.Chain().BlockHeight() >= 1 }, 20*time.Second, 10*time.Millisecond)
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

	// canceltx: a transaction in a block cannot be cancelled; one unknown
	// to the node is, by a conflicting transaction awaited in a block.
	mustFailUtil(t, "target transaction "+h.StringBE()+" is accepted at block ",
		"canceltx", "-r", n.r.url, "--wallet-config", n.cfg, "-a", n.multi, h.StringBE())
	out = mustUtil(t, "canceltx", "-r", n.r.url, "--wallet-config", n.cfg, "--await", "0x"+util.Uint256{1, 2, 3}.StringBE())
	conflict, found := strings.CutPrefix(out, "Conflicting transaction accepted\n")
	require.True(t, found, out)
	requireHalted(t, conflict)
}

// TestUtilCancelTx: on a node that makes no blocks, a transfer waiting in
// the memory pool is replaced by the conflicting transaction of canceltx
// (signed by the same account, paying more); another account cannot
// cancel it.
func TestUtilCancelTx(t *testing.T) {
	n := startWalletNode(t, false)
	out := n.run(t, "", "nep17", "transfer", "--wallet-config", n.cfg, "--from", n.multi, "--to", n.single,
		"--token", "GAS", "--amount", "1", "--force")
	target, err := util.Uint256DecodeStringBE(strings.TrimSpace(out))
	require.NoError(t, err, out)
	r := n.r.url
	mustFailUtil(t, "transaction hash is missing", "canceltx", "-r", r, "--wallet-config", n.cfg)
	mustFailUtil(t, "invalid tx hash: nothash", "canceltx", "-r", r, "--wallet-config", n.cfg, "nothash")
	mustFailUtil(t, "account "+n.single+" is not a signer of the conflicting transaction",
		"canceltx", "-r", r, "--wallet-config", n.cfg, "-a", n.single, target.StringBE())

	ctx := context.Background()
	mainInfo, err := n.c.GetRawTransactionVerbose(ctx, target)
	require.NoError(t, err)
	out = mustUtil(t, "canceltx", "-r", r, "--wallet-config", n.cfg, "-a", n.multi, "-g", "0.001", target.StringBE())
	h, err := util.Uint256DecodeStringBE(strings.TrimSpace(out))
	require.NoError(t, err, out)
	info, err := n.c.GetRawTransactionVerbose(ctx, h)
	require.NoError(t, err)
	tx := info.Transaction
	require.Equal(t, mainInfo.Transaction.ValidUntilBlock, tx.ValidUntilBlock)
	require.Greater(t, tx.NetworkFee, mainInfo.Transaction.NetworkFee+100000)
	require.Equal(t, []byte{byte(opcode.RET)}, tx.Script)
	require.Equal(t, []transaction.Attribute{{Type: transaction.AttrConflicts,
		Value: &transaction.Conflicts{Hash: target}}}, tx.Attributes)
	_, err = n.c.GetRawTransactionVerbose(ctx, target)
	require.Error(t, err, "the target left the memory pool")

	// An unknown target: a short lifetime (block count 1 + 1 validator + 1).
	out = mustUtil(t, "canceltx", "-r", r, "--wallet-config", n.cfg, util.Uint256{9}.StringBE())
	h, err = util.Uint256DecodeStringBE(strings.TrimSpace(out))
	require.NoError(t, err, out)
	info, err = n.c.GetRawTransactionVerbose(ctx, h)
	require.NoError(t, err)
	require.Equal(t, uint32(3), info.Transaction.ValidUntilBlock)
}
