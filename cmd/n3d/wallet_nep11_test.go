package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/stretchr/testify/require"
)

// referenceRPC serves the restored reference chain name (neo-go's test
// chain with NEP-11 tokens) over our RPC server and returns its URL and
// the reference directory.
func referenceRPC(t *testing.T, name string) (string, string) {
	t.Helper()
	dir := conformance.Dir(t, "chains", name)
	cfg, err := config.LoadFile(filepath.Join(dir, "protocol.yml"), "")
	require.NoError(t, err)
	ns, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: ns, BloomCapacity: 1000})
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	acc, err := os.ReadFile(filepath.Join(dir, name+".acc"))
	require.NoError(t, err)
	_, err = chain.Restore(context.Background(), c, bytes.NewReader(acc), chain.RestoreOptions{})
	require.NoError(t, err)
	srv, err := server.New(node.RPCConfig(cfg.ApplicationConfiguration.RPC, cfg.ApplicationConfiguration.Ledger), c)
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	return hs.URL, dir
}

type refBalances struct {
	NEP11 map[string]result.NEP11Balances `json:"nep11"`
	NEP17 map[string]result.NEP17Balances `json:"nep17"`
}

// blocks splits balance output into the account line and a sorted list
// of per-asset blocks.
func blocks(out string) (string, []string) {
	head, rest, _ := strings.Cut(out, "\n")
	var bs []string
	for _, l := range strings.SplitAfter(rest, "\n") {
		if l == "" {
			continue
		}
		if !strings.HasPrefix(l, "\t") || len(bs) == 0 {
			bs = append(bs, l)
			continue
		}
		bs[len(bs)-1] += l
	}
	slices.Sort(bs)
	return head, bs
}

// TestWalletNEPReference: balances, owners, token lists and properties of
// the NEP-11 tokens (a divisible NeoFS object NFT, NNS names) and the
// NEP-17 balances of neo-go's test chain, printed by the wallet verbs as
// neo-go prints the reference answers.
func TestWalletNEPReference(t *testing.T) {
	url, dir := referenceRPC(t, "testblocks")
	raw, err := os.ReadFile(filepath.Join(dir, "balances.json"))
	require.NoError(t, err)
	var ref refBalances
	require.NoError(t, json.Unmarshal(raw, &ref))
	require.NotEmpty(t, ref.NEP11)
	for addr, bal := range ref.NEP11 {
		var sb strings.Builder
		for _, b := range bal.Balances {
			printNFTBalance(&walletCtx{out: &sb}, b, "")
		}
		_, want := blocks("x\n" + sb.String())
		head, got := blocks(mustRun(t, "", "nep11", "balance", "-r", url, "-a", addr))
		require.Equal(t, "Account "+addr, head)
		require.Equal(t, want, got, addr)
	}
	for addr, bal := range ref.NEP17 {
		var sb strings.Builder
		for _, b := range bal.Balances {
			printNEP17Balance(&walletCtx{out: &sb}, b)
		}
		_, want := blocks("x\n" + sb.String())
		_, got := blocks(mustRun(t, "", "nep17", "balance", "-r", url, "-a", addr))
		require.Equal(t, want, got, addr)
	}

	const (
		owner = "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn"
		nns   = "0xc17da07ba65ba62a07134c171cf8c50d02f17995"
		name  = "6e656f2e636f6d" // neo.com
		nfso  = "0x5635edb13674bb6f09d18b09fce6b69aee206931"
		obj   = "7e244ffd6aa85fb1579d2ed22e9b761ab62e3486"
	)
	require.Equal(t, "Account "+owner+"\nNNS: NameService (c17da07ba65ba62a07134c171cf8c50d02f17995)\n\tToken: "+name+
		"\n\t\tAmount: 1\n\t\tUpdated: 14\n", mustRun(t, "", "nep11", "balance", "-r", url, "-a", owner, "--token", nns))
	require.Equal(t, owner+"\n", mustRun(t, "", "nep11", "ownerOf", "-r", url, "--token", nns, "--id", name))
	require.Equal(t, name+"\n", mustRun(t, "", "nep11", "tokensOf", "-r", url, "--token", nns, "--address", owner))
	require.Contains(t, strings.Split(mustRun(t, "", "nep11", "tokens", "-r", url, "--token", nns), "\n"), name)
	owners := strings.Fields(mustRun(t, "", "nep11", "ownerOfD", "-r", url, "--token", nfso, "--id", obj))
	slices.Sort(owners)
	require.Equal(t, []string{"NMUedC8TSV2rE17wGguSvPk9XcmHSaT275", owner}, owners)
	var props map[string]any
	require.NoError(t, json.Unmarshal([]byte(mustRun(t, "", "nep11", "properties", "-r", url, "--token", nns, "--id", name)), &props))
	require.Equal(t, "neo.com", props["name"])
	mustFail(t, "", "", "failed to call NEP-11 `tokens` method", "nep11", "tokens", "-r", url, "--token", nfso[:2]+"00"+nfso[4:])
}

// TestWalletNEP11TransferContexts: NEP-11 transfers of the reference
// chain's tokens, saved as contexts (non-divisible NNS name, part of a
// divisible object).
func TestWalletNEP11TransferContexts(t *testing.T) {
	url, _ := referenceRPC(t, "testblocks")
	path := cheapValidatorWallet(t, filepath.Join(repoConfigDir(t), "wallet.privnet.single.json"))
	cfg := walletConfig(t, path, "one")
	const (
		owner = "Nhfg3TbpwogLvDGVvAvqyThbsHgoSUKwtn"
		to    = "NMUedC8TSV2rE17wGguSvPk9XcmHSaT275"
		name  = "6e656f2e636f6d"
		obj   = "7e244ffd6aa85fb1579d2ed22e9b761ab62e3486"
	)
	nns, err := parseAddress("0xc17da07ba65ba62a07134c171cf8c50d02f17995")
	require.NoError(t, err)
	nfso, err := parseAddress("0x5635edb13674bb6f09d18b09fce6b69aee206931")
	require.NoError(t, err)
	from, err := parseAddress(owner)
	require.NoError(t, err)
	toH, err := parseAddress(to)
	require.NoError(t, err)
	id, err := hex.DecodeString(name)
	require.NoError(t, err)
	objID, err := hex.DecodeString(obj)
	require.NoError(t, err)

	file := filepath.Join(t.TempDir(), "nns.json")
	mustRun(t, "", "nep11", "transfer", "--wallet-config", cfg, "-r", url, "--from", owner, "--to", to,
		"--token", "NNS", "--id", name, "--out", file)
	pc, err := txbuild.ReadContext(file)
	require.NoError(t, err)
	want, err := txbuild.NFTTransferScript(nns, toH, id, nil)
	require.NoError(t, err)
	require.Equal(t, want, pc.Tx.Script)

	file = filepath.Join(t.TempDir(), "nfso.json")
	mustRun(t, "", "nep11", "transfer", "--wallet-config", cfg, "-r", url, "--from", owner, "--to", to,
		"--token", nfso.StringBE(), "--id", obj, "--amount", "0.3", "--out", file)
	pc, err = txbuild.ReadContext(file)
	require.NoError(t, err)
	want, err = txbuild.DivisibleNFTTransferScript(nfso, from, toH, big.NewInt(30), objID, nil)
	require.NoError(t, err)
	require.Equal(t, want, pc.Tx.Script)
	mustFail(t, "", "", "script failed", "nep11", "transfer", "--wallet-config", cfg, "-r", url, "--from", owner,
		"--to", to, "--token", "NNS", "--id", "00", "--force")
}
