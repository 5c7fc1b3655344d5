package main

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/encoding/address"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/stretchr/testify/require"
)

// walletNode is a single-validator privnet node producing blocks and the
// repository's validator wallet (password "one") next to a config file.
type walletNode struct {
	r      *runningNode
	c      *client.Client
	wallet string // path of a copy of the wallet
	cfg    string // --wallet-config of that copy
	key    *keys.PrivateKey
	single string // the validator key's signature account
	multi  string // the 1-of-1 multisig holding the genesis NEO and GAS
}

// startWalletNode starts the node (producing blocks when consensus is
// set) and writes a copy of its wallet whose keys use cheap scrypt
// parameters, so that the many decryptions stay fast.
func startWalletNode(t *testing.T, consensus bool) *walletNode {
	t.Helper()
	cfg := singleConfig(t, consensus, 100*time.Millisecond)
	key := validatorKey(t, cfg)
	path := cheapValidatorWallet(t, cfg.ApplicationConfiguration.Consensus.UnlockWallet.Path)
	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	r := startNode(t, cfg)
	c, err := client.New(r.url, client.Options{})
	require.NoError(t, err)
	return &walletNode{r: r, c: c, wallet: path, cfg: walletConfig(t, path, "one"), key: key,
		single: key.PublicKey().Address(), multi: scripts.Address(verif)}
}

// cheapValidatorWallet writes a copy of the validator wallet at path
// (password "one") with cheap scrypt parameters.
func cheapValidatorWallet(t *testing.T, path string) string {
	t.Helper()
	w := loadWallet(t, path)
	defer w.Close()
	require.NoError(t, w.DecryptAll("one"))
	for _, a := range w.Accounts {
		require.NoError(t, a.Encrypt("one", cheapScrypt))
	}
	w.Scrypt = cheapScrypt
	out := filepath.Join(t.TempDir(), "wallet.json")
	w.SetPath(out)
	require.NoError(t, w.Save())
	return out
}

// run runs a wallet command against the node (-r goes before the first
// flag, so it is parsed before any positional argument) and returns its
// stdout.
func (n *walletNode) run(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	i := slices.IndexFunc(args, func(a string) bool { return strings.HasPrefix(a, "-") })
	require.GreaterOrEqual(t, i, 0)
	full := append(append(slices.Clone(args[:i]), "-r", n.r.url), args[i:]...)
	return mustRun(t, stdin, full...)
}

// balance returns the amount of token held by addr, in its smallest unit.
func (n *walletNode) balance(t *testing.T, addr string, token util.Uint160) *big.Int {
	t.Helper()
	h, err := address.StringToUint160(addr)
	require.NoError(t, err)
	bs, err := n.c.GetNEP17Balances(context.Background(), h)
	require.NoError(t, err)
	for _, b := range bs.Balances {
		if b.Asset == token {
			v, ok := new(big.Int).SetString(b.Amount, 10)
			require.True(t, ok)
			return v
		}
	}
	return new(big.Int)
}

// requireHalted checks the output of an awaited command: hash, on chain,
// HALT.
func requireHalted(t *testing.T, out string) util.Uint256 {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 3, out)
	h, err := util.Uint256DecodeStringBE(lines[0])
	require.NoError(t, err, out)
	require.Equal(t, "OnChain:\ttrue", lines[1])
	require.Equal(t, "VMState:\tHALT", lines[2])
	return h
}

// TestWalletRPCTransfersClaimAndVote runs the node verbs against a
// single-validator privnet, step after step on the same chain: NEO and GAS
// transfers from the multisig that got the genesis tokens, balances, the
// token list, a claim, candidate registration, a vote and the account
// state, and a context saved with --out, signed and sent with `wallet sign`.
func TestWalletRPCTransfersClaimAndVote(t *testing.T) {
	n := startWalletNode(t, true)
	require.Eventually(t, func() bool { return n.r.n.Chain().BlockHeight() >= 1 }, 20*time.Second, 10*time.Millisecond)
	neoBefore := n.balance(t, n.multi, txbuild.NeoHash)
	require.Positive(t, neoBefore.Sign())
	n.transfers(t, neoBefore)
	n.tokenList(t)
	n.balances(t)
	n.claim(t)
	n.candidates(t, new(big.Int).Sub(neoBefore, big.NewInt(1005)))
	n.contextOut(t)
}

// transfers moves 1005 NEO and 3001.5 GAS from the multisig to the single
// account in four transactions.
func (n *walletNode) transfers(t *testing.T, neoBefore *big.Int) {
	out := n.run(t, "", "nep17", "transfer", "--wallet-config", n.cfg, "--from", n.multi, "--to", n.single,
		"--token", "NEO", "--amount", "1000", "--force", "--await")
	requireHalted(t, out)
	require.Equal(t, big.NewInt(1000), n.balance(t, n.single, txbuild.NeoHash))
	require.Equal(t, new(big.Int).Sub(neoBefore, big.NewInt(1000)), n.balance(t, n.multi, txbuild.NeoHash))

	// GAS by hash, the password on stdin, the confirmation answered.
	gasBefore := n.balance(t, n.single, txbuild.GasHash)
	out = n.run(t, "one\ny\n", "nep17", "transfer", "-w", n.wallet, "--from", n.multi, "--to", n.single,
		"--token", txbuild.GasHash.String(), "--amount", "3000.5", "--await")
	fees, result, ok := strings.Cut(out, "Total fee: ")
	require.True(t, ok, out)
	require.Contains(t, fees, "Network fee: ")
	_, result, _ = strings.Cut(result, "\n")
	requireHalted(t, result)
	gasAfter := n.balance(t, n.single, txbuild.GasHash)
	require.GreaterOrEqual(t, new(big.Int).Sub(gasAfter, gasBefore).Int64(), int64(3000_5000_0000))

	// Several transfers in one transaction; data and a cosigner.
	out = n.run(t, "", "nep17", "multitransfer", "--wallet-config", n.cfg, "--from", n.multi, "--force", "--await",
		"GAS:"+n.single+":1", "NEO:"+n.single+":2", "--", n.single)
	requireHalted(t, out)
	require.Equal(t, big.NewInt(1002), n.balance(t, n.single, txbuild.NeoHash))
	out = n.run(t, "", "nep17", "transfer", "--wallet-config", n.cfg, "--from", n.multi, "--to", n.single,
		"--token", "NEO", "--amount", "3", "--force", "--await", "[", "1", "string:hello", "]", "--", n.single+":CalledByEntry")
	var txJSON struct {
		Signers []json.RawMessage `json:"signers"`
	}
	require.NoError(t, json.Unmarshal(n.r.result("getrawtransaction", requireHalted(t, out).String(), true), &txJSON))
	require.Len(t, txJSON.Signers, 2)
	require.Equal(t, big.NewInt(1005), n.balance(t, n.single, txbuild.NeoHash))
}

// tokenList imports GAS into the wallet, prints and removes it.
func (n *walletNode) tokenList(t *testing.T) {
	out := n.run(t, "", "nep17", "import", "--wallet-config", n.cfg, "--token", txbuild.GasHash.StringBE())
	require.Equal(t, "Name:\tGasToken\nSymbol:\tGAS\nHash:\t"+txbuild.GasHash.StringBE()+"\nDecimals: 8\nAddress: "+
		address.Uint160ToString(txbuild.GasHash)+"\nStandard:\tNEP-17\n", out)
	require.Equal(t, out, mustRun(t, "", "nep17", "info", "--wallet-config", n.cfg))
	mustFail(t, n.wallet, "", "NEP-17 token already exists", "nep17", "import", "--wallet-config", n.cfg,
		"--token", txbuild.GasHash.StringBE(), "-r", n.r.url)
	mustRun(t, "", "nep17", "remove", "--wallet-config", n.cfg, "--token", "GAS", "--force")
	require.Empty(t, mustRun(t, "", "nep17", "info", "--wallet-config", n.cfg))
}

func (n *walletNode) balances(t *testing.T) {
	bal := n.run(t, "", "nep17", "balance", "-a", n.single, "--token", "NEO")
	head, _, ok := strings.Cut(bal, "\tUpdated")
	require.True(t, ok, bal)
	require.Equal(t, "Account "+n.single+"\nNEO: NeoToken ("+txbuild.NeoHash.StringBE()+")\n\tAmount : 1005\n", head)
	bal = n.run(t, "", "nep17", "balance", "--wallet-config", n.cfg)
	require.Equal(t, 3, strings.Count(bal, "Account "), bal)
	require.Contains(t, bal, "GAS: GasToken ("+txbuild.GasHash.StringBE()+")")
}

// claim pays out the multisig's unclaimed GAS (0.5 GAS a block).
func (n *walletNode) claim(t *testing.T) {
	multi, err := address.StringToUint160(n.multi)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		g, err := n.c.GetUnclaimedGas(context.Background(), multi)
		return err == nil && g.Unclaimed.Cmp(big.NewInt(1_0000_0000)) > 0
	}, 20*time.Second, 20*time.Millisecond)
	before := n.balance(t, n.multi, txbuild.GasHash)
	requireHalted(t, n.run(t, "", "claim", "--wallet-config", n.cfg, "-a", n.multi, "--force", "--await"))
	require.Positive(t, n.balance(t, n.multi, txbuild.GasHash).Cmp(before), "claim did not increase GAS")
}

// candidates registers the validator key (GAS transfer to NEO), votes for
// it with the multisig's NEO (votes), unregisters it and registers it again
// with a registerCandidate call.
func (n *walletNode) candidates(t *testing.T, votes *big.Int) {
	pub := n.key.PublicKey().String()
	requireHalted(t, n.run(t, "", "candidate", "register", "--wallet-config", n.cfg, "-a", n.single, "--force", "--await"))
	require.Equal(t, []string{pub}, n.candidateKeys(t))
	// An iterator (NEO's getAllCandidates) expanded by a test run.
	script, err := txbuild.IteratorScript(txbuild.NeoHash, "getAllCandidates", txbuild.DefaultMaxIteratorItems)
	require.NoError(t, err)
	res, err := n.c.InvokeScript(context.Background(), script, nil)
	require.NoError(t, err)
	top, err := res.TopItem()
	require.NoError(t, err)
	all, ok := top.(*stackitem.Array)
	require.True(t, ok, "%v", top)
	require.Len(t, all.Items(), 1)

	requireHalted(t, n.run(t, "", "candidate", "vote", "--wallet-config", n.cfg, "-a", n.multi, "-c", pub, "--force", "--await"))
	state := n.run(t, "", "candidate", "getstate", "-a", n.multi)
	require.Contains(t, state, "\tVoted: "+pub+" ("+n.single+")\n")
	require.Contains(t, state, "\tAmount : "+votes.String()+"\n")
	cands, err := n.c.GetCandidates(context.Background())
	require.NoError(t, err)
	require.Equal(t, votes.String(), cands[0].Votes)

	requireHalted(t, n.run(t, "", "candidate", "unregister", "--wallet-config", n.cfg, "-a", n.single, "--force", "--await"))
	require.Empty(t, n.candidateKeys(t))
	// The registerCandidate call pays the price in its system fee.
	regTx := requireHalted(t, n.run(t, "", "candidate", "register", "--useRegisterCall", "--wallet-config", n.cfg,
		"-a", n.single, "--force", "--await"))
	require.Equal(t, []string{pub}, n.candidateKeys(t))
	var regJSON struct {
		SysFee int64 `json:"sysfee,string"`
	}
	require.NoError(t, json.Unmarshal(n.r.result("getrawtransaction", regTx.String(), true), &regJSON))
	require.Greater(t, regJSON.SysFee, int64(1000_0000_0000), "the system fee covers the registration price")
}

func (n *walletNode) candidateKeys(t *testing.T) []string {
	cands, err := n.c.GetCandidates(context.Background())
	require.NoError(t, err)
	keys := []string{}
	for _, c := range cands {
		keys = append(keys, c.PublicKey)
	}
	return keys
}

// contextOut saves a signed context with --out instead of sending; `sign`
// prints it, then re-signs and sends it.
func (n *walletNode) contextOut(t *testing.T) {
	ctxFile := filepath.Join(t.TempDir(), "tx.json")
	out := n.run(t, "", "nep17", "transfer", "--wallet-config", n.cfg, "--from", n.single, "--to", n.multi,
		"--token", "GAS", "--amount", "1", "--out", ctxFile)
	h, err := util.Uint256DecodeStringBE(strings.TrimSpace(out))
	require.NoError(t, err)
	pc, err := txbuild.ReadContext(ctxFile)
	require.NoError(t, err)
	require.Equal(t, h, pc.Tx.Hash())
	var raw map[string]any
	data, err := os.ReadFile(ctxFile)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(data, &raw))
	require.Equal(t, txbuild.TransactionType, raw["type"])
	printed := mustRun(t, "", "sign", "--wallet-config", n.cfg, "-a", n.single, "--in", ctxFile)
	var shown txbuild.Context
	require.NoError(t, json.Unmarshal([]byte(printed), &shown))
	require.Equal(t, h, shown.Tx.Hash())
	out = n.run(t, "", "sign", "--wallet-config", n.cfg, "-a", n.single, "--in", ctxFile, "--await")
	require.Equal(t, h, requireHalted(t, out))
}

// TestWalletRPCErrors: failures of the node verbs say why and exit 1.
func TestWalletRPCErrors(t *testing.T) {
	n := startWalletNode(t, false)
	mustFail(t, n.wallet, "", "script failed", "nep17", "transfer", "--wallet-config", n.cfg, "--from", n.single,
		"--to", n.multi, "--token", "NEO", "--amount", "5", "--force", "-r", n.r.url)
	mustFail(t, n.wallet, "", "invalid amount", "nep17", "transfer", "--wallet-config", n.cfg, "--from", n.multi,
		"--to", n.single, "--token", "NEO", "--amount", "1.5", "--force", "-r", n.r.url)
	mustFail(t, n.wallet, "", "rpc-endpoint", "claim", "--wallet-config", n.cfg, "-a", n.multi)
	mustFail(t, n.wallet, "one\nn\n", "cancelled", "nep17", "transfer", "-w", n.wallet, "--from", n.multi,
		"--to", n.single, "--token", "GAS", "--amount", "1", "-r", n.r.url)
	mustFail(t, n.wallet, "", "wallet contains no account", "claim", "--wallet-config", n.cfg,
		"-a", address.Uint160ToString(util.Uint160{1}), "-r", n.r.url)
	// The wallet holds one key of neo-go's 3-of-4 privnet multisig: it can
	// only start a context.
	const multi3 = "NVTiAjNgagDkTr5HTzDmQP9kPwPHN5BgVq"
	mustFail(t, n.wallet, "", "not enough signatures", "claim", "--wallet-config", n.cfg, "-a", multi3,
		"--force", "-r", n.r.url)
	ctxFile := filepath.Join(t.TempDir(), "claim.json")
	n.run(t, "", "claim", "--wallet-config", n.cfg, "-a", multi3, "--out", ctxFile)
	pc, err := txbuild.ReadContext(ctxFile)
	require.NoError(t, err)
	h, err := address.StringToUint160(multi3)
	require.NoError(t, err)
	require.Len(t, pc.Items[h].Signatures, 1)
	require.Contains(t, pc.Items[h].Signatures, n.key.PublicKey().String())
	_, err = pc.CompleteTransaction()
	require.ErrorIs(t, err, txbuild.ErrIncomplete)
	mustFail(t, "", "", "signature is already added", "sign", "--wallet-config", n.cfg, "-a", multi3, "--in", ctxFile)
	mustFail(t, n.wallet, "", "connection refused", "claim", "--wallet-config", n.cfg, "-a", n.multi,
		"-r", "http://"+freeAddr(t))
}
