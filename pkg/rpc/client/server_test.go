package client_test

import (
	"context"
	"errors"
	"math/big"
	"net/http/httptest"
	"testing"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/node"
	"github.com/n3d-io/n3d/pkg/rpc/client"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/rpc/server"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/stackitem"
	"github.com/n3d-io/n3d/pkg/wallet/txbuild"
	"github.com/stretchr/testify/require"
)

// genesisNode is our RPC server over the single-validator privnet's
// genesis block; submitted transactions are kept, not pooled.
type genesisNode struct {
	cfg       config.Config
	c         *client.Client
	submitted []*transaction.Transaction
}

func startGenesisNode(t *testing.T) *genesisNode {
	t.Helper()
	data, ok := config.Embedded(config.NetPrivNetSingle)
	require.True(t, ok)
	cfg, err := config.Parse(data, "")
	require.NoError(t, err)
	ns, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	ch, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: ns, BloomCapacity: 1000})
	require.NoError(t, err)
	t.Cleanup(func() { _ = ch.Close() })
	n := &genesisNode{cfg: cfg}
	scfg := node.RPCConfig(cfg.ApplicationConfiguration.RPC, cfg.ApplicationConfiguration.Ledger)
	scfg.SubmitTx = func(_ context.Context, tx *transaction.Transaction) error {
		n.submitted = append(n.submitted, tx)
		return nil
	}
	srv, err := server.New(scfg, ch)
	require.NoError(t, err)
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	n.c, err = client.New(hs.URL, client.Options{})
	require.NoError(t, err)
	return n
}

// committee returns the 1-of-1 multisig that holds the genesis NEO.
func (n *genesisNode) committee(t *testing.T) (util.Uint160, []byte) {
	t.Helper()
	pubs, err := keys.NewPublicKeysFromStrings(n.cfg.ProtocolConfiguration.StandbyCommittee)
	require.NoError(t, err)
	verif, err := scripts.MultiSigContract(1, pubs)
	require.NoError(t, err)
	return scripts.ScriptHash(verif), verif
}

// TestAgainstServer reads the genesis state through our server.
func TestAgainstServer(t *testing.T) {
	n := startGenesisNode(t)
	ctx := context.Background()

	v, err := n.c.GetVersion(ctx)
	require.NoError(t, err)
	p := n.cfg.ProtocolConfiguration
	require.Equal(t, uint32(p.Magic), v.Protocol.Network)
	require.Equal(t, uint32(p.TimePerBlock.Milliseconds()), v.Protocol.MillisecondsPerBlock)
	require.Equal(t, p.MaxValidUntilBlockIncrement, v.Protocol.MaxValidUntilBlockIncrement)

	count, err := n.c.GetBlockCount(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 1, count)

	r, err := n.c.InvokeFunction(ctx, txbuild.NeoHash, "symbol", nil, nil)
	require.NoError(t, err)
	top, err := r.TopItem()
	require.NoError(t, err)
	sym, err := top.Bytes()
	require.NoError(t, err)
	require.Equal(t, "NEO", string(sym))
	r, err = n.c.InvokeFunction(ctx, txbuild.NeoHash, "balanceOf",
		[]client.Param{{Type: smartcontract.Hash160Type, Value: util.Uint160{1}}}, nil)
	require.NoError(t, err)
	top, err = r.TopItem()
	require.NoError(t, err)
	zero, err := top.BigInt()
	require.NoError(t, err)
	require.Zero(t, zero.Sign())

	acc, _ := n.committee(t)
	bs, err := n.c.GetNEP17Balances(ctx, acc)
	require.NoError(t, err)
	amounts := map[util.Uint160]string{}
	for _, b := range bs.Balances {
		amounts[b.Asset] = b.Amount
	}
	require.Equal(t, "100000000", amounts[txbuild.NeoHash])

	g, err := n.c.GetUnclaimedGas(ctx, acc)
	require.NoError(t, err)
	require.Equal(t, acc, g.Address)
	r, err = n.c.InvokeFunction(ctx, txbuild.NeoHash, "unclaimedGas", []client.Param{
		{Type: smartcontract.Hash160Type, Value: acc}, {Type: smartcontract.IntegerType, Value: big.NewInt(1)}}, nil)
	require.NoError(t, err)
	top, err = r.TopItem()
	require.NoError(t, err)
	want, err := top.BigInt()
	require.NoError(t, err)
	require.Equal(t, want, g.Unclaimed, "getunclaimedgas is NEO's unclaimedGas at the next block")
	cands, err := n.c.GetCandidates(ctx)
	require.NoError(t, err)
	require.Empty(t, cands)
	script, err := txbuild.IteratorScript(txbuild.NeoHash, "getAllCandidates", txbuild.DefaultMaxIteratorItems)
	require.NoError(t, err)
	r, err = n.c.InvokeScript(ctx, script, nil)
	require.NoError(t, err)
	top, err = r.TopItem()
	require.NoError(t, err)
	require.Equal(t, stackitem.ArrayT, top.Type(), "the iterator is expanded into an array")
	require.Empty(t, top.(*stackitem.Array).Items())
	cs, err := n.c.GetContractState(ctx, txbuild.GasHash)
	require.NoError(t, err)
	require.Equal(t, "GasToken", cs.Manifest.Name)

	_, err = n.c.GetApplicationLog(ctx, util.Uint256{1})
	var re *result.Error
	require.ErrorAs(t, err, &re)
	require.EqualValues(t, result.UnknownScriptContainerCode, re.Code)
}

// TestAgainstServerTransaction: a transfer's test run HALTs and costs
// GAS, the network fee of its witness is positive, and sending hands it to
// SubmitTx.
func TestAgainstServerTransaction(t *testing.T) {
	n := startGenesisNode(t)
	ctx := context.Background()
	acc, verif := n.committee(t)
	script, err := txbuild.TransferScript([]txbuild.Transfer{{Token: txbuild.NeoHash, From: acc, To: util.Uint160{1}, Amount: big.NewInt(10)}})
	require.NoError(t, err)
	signers := []transaction.Signer{{Account: acc, Scopes: transaction.CalledByEntry}}
	sys, err := n.c.SystemFee(ctx, script, signers)
	require.NoError(t, err)
	require.Positive(t, sys)
	_, err = n.c.SystemFee(ctx, script, nil)
	require.ErrorIs(t, err, client.ErrScriptFailed, "without the sender's witness the transfer fails")
	tx := &transaction.Transaction{SystemFee: sys, ValidUntilBlock: 100, Script: script, Signers: signers,
		Witnesses: []transaction.Witness{{VerificationScript: verif}}}
	fee, err := n.c.CalculateNetworkFee(ctx, tx)
	require.NoError(t, err)
	require.Positive(t, fee)
	h, err := n.c.SendRawTransaction(ctx, tx)
	require.NoError(t, err)
	require.Equal(t, tx.Hash(), h)
	require.Len(t, n.submitted, 1)
	require.Equal(t, tx.Hash(), n.submitted[0].Hash())
}

func TestAgainstServerNEP11(t *testing.T) {
	n := startGenesisNode(t)
	acc, _ := n.committee(t)
	b, err := n.c.GetNEP11Balances(context.Background(), acc)
	var re *result.Error
	if errorAs(err, &re) && re.Code == result.MethodNotFoundCode {
		t.Skip("this server has no getnep11balances yet")
	}
	require.NoError(t, err)
	require.Empty(t, b.Balances, "no NEP-11 contract at genesis")
}

func errorAs(err error, target **result.Error) bool {
	return err != nil && errors.As(err, target)
}
