package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// withServices is the reference chain n behind a second server configured
// by cfg (the chain is shared, so only failing block submissions are
// tried).
func withServices(t *testing.T, n *testNode, cfg Config) *testNode {
	t.Helper()
	cfg = yamlSettings(cfg, n.cfg.ApplicationConfiguration.RPC, n.cfg.ApplicationConfiguration.Ledger)
	srv, err := New(cfg, n.chain)
	require.NoError(t, err)
	h := httptest.NewServer(srv)
	t.Cleanup(h.Close)
	return &testNode{name: n.name, dir: n.dir, cfg: n.cfg, chain: n.chain, srv: srv, http: h}
}

// firstTx returns a transaction of the chain.
func firstTx(t *testing.T, c *chain.Chain) *transaction.Transaction {
	for i := uint32(1); i <= c.BlockHeight(); i++ {
		b, err := c.GetBlockByIndex(i)
		require.NoError(t, err)
		if len(b.Transactions) > 0 {
			return b.Transactions[0]
		}
	}
	t.Fatal("no transaction in the chain")
	return nil
}

func encodeB64(t *testing.T, v interface{ Bytes() ([]byte, error) }) string {
	raw, err := v.Bytes()
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(raw)
}

func TestSendRawTransaction(t *testing.T) {
	base := node(t, "testblocks")
	tx := firstTx(t, base.chain)
	txB64 := encodeB64(t, tx)
	var verdict error
	var got *transaction.Transaction
	n := withServices(t, base, Config{SubmitTx: func(_ context.Context, tx *transaction.Transaction) error {
		got = tx
		return verdict
	}})

	res := n.result(t, "sendrawtransaction", txB64)
	require.JSONEq(t, fmt.Sprintf(`{"hash":%q}`, tx.Hash().String()), string(res))
	require.Equal(t, tx.Hash(), got.Hash())

	// The verdicts neo-go reports before any other check, whatever the
	// transaction; the others, with real transactions and neo-go's texts,
	// are TestNeoGoErrors'. This transaction of block 1 has expired.
	wrap := func(err error) error { return fmt.Errorf("transaction %s: %w", tx.Hash().String(), err) }
	for _, c := range []struct {
		err  error
		code int64
		data string
	}{
		{chain.ErrTxSystemFee, policyFailedCode, fmt.Sprintf(
			"not allowed by policy: too big system fee (%d > MaxBlockSystemFee 900000000000)", tx.SystemFee)},
		{chain.ErrTxInvalidScript, invalidScriptCode, "invalid script: transaction " + tx.Hash().String() +
			": chain: invalid transaction script"},
		{chain.ErrAlreadyExists, expiredTransactionCode, fmt.Sprintf(
			"transaction has expired: ValidUntilBlock = %d, current height = %d", tx.ValidUntilBlock, base.chain.BlockHeight())},
		{mempool.ErrDup, expiredTransactionCode, ""},
		{errors.New("anything else"), expiredTransactionCode, ""},
	} {
		verdict = wrap(c.err)
		e := n.fail(t, c.code, "sendrawtransaction", txB64)
		if c.data != "" {
			require.Equal(t, c.data, e.Data)
		}
		require.NotEmpty(t, e.Message)
	}

	// Parameter errors come before the pool is asked.
	got = nil
	bad := int64(result.InvalidParamsCode)
	n.fail(t, bad, "sendrawtransaction")
	n.fail(t, bad, "sendrawtransaction", "!!")
	n.fail(t, bad, "sendrawtransaction", base64.StdEncoding.EncodeToString([]byte{0, 1, 2}))
	n.fail(t, bad, "sendrawtransaction", []any{})
	e := n.fail(t, invalidSizeCode, "sendrawtransaction",
		strings.Repeat("A", base64.StdEncoding.EncodedLen(transaction.MaxTransactionSize)+4))
	require.Contains(t, e.Data, "exceeds maximum allowed")
	require.Nil(t, got)

	// Without a pool (the shared server) transactions are refused.
	base.fail(t, result.InternalErrorCode, "sendrawtransaction", txB64)
}

func TestSubmitBlock(t *testing.T) {
	base := node(t, "testblocks")
	n := withServices(t, base, Config{SubmitBlock: base.chain.AddBlock})
	top, err := base.chain.GetBlockByIndex(base.chain.BlockHeight())
	require.NoError(t, err)

	// neo-go's words (TestNeoGoErrors compares them with its answers).
	e := n.fail(t, result.AlreadyExistsCode, "submitblock", encodeB64(t, top))
	require.Equal(t, fmt.Sprintf("already exists in blockchain: block with index %d is already on chain", top.Index), e.Data)

	// A block two ahead of the chain does not follow it.
	ahead := &block.Block{Header: top.Header, Transactions: top.Transactions}
	ahead.Index += 2
	e = n.fail(t, result.VerificationFailedCode, "submitblock", encodeB64(t, ahead))
	require.Equal(t, fmt.Sprintf("expected %d, got %d: invalid block index", top.Index+1, ahead.Index), e.Data)

	bad := int64(result.InvalidParamsCode)
	n.fail(t, bad, "submitblock")
	n.fail(t, bad, "submitblock", "!!")
	n.fail(t, bad, "submitblock", base64.StdEncoding.EncodeToString([]byte{0, 1, 2}))
	n.fail(t, invalidSizeCode, "submitblock",
		strings.Repeat("A", base64.StdEncoding.EncodedLen(int(base.chain.Config().MaxBlockSize))+4))
	base.fail(t, result.InternalErrorCode, "submitblock", encodeB64(t, top))

	// A good block is answered with its hash.
	accepted := withServices(t, base, Config{SubmitBlock: func(*block.Block) error { return nil }})
	res := accepted.result(t, "submitblock", encodeB64(t, top))
	require.JSONEq(t, fmt.Sprintf(`{"hash":%q}`, top.Hash().String()), string(res))
}

type fakePool []*transaction.Transaction

func (p fakePool) GetVerifiedTransactions() []*transaction.Transaction { return p }

func (p fakePool) TryGet(h util.Uint256) (*transaction.Transaction, bool) {
	for _, tx := range p {
		if tx.Hash() == h {
			return tx, true
		}
	}
	return nil, false
}

func TestGetRawMempool(t *testing.T) {
	base := node(t, "testblocks")
	require.JSONEq(t, `[]`, string(base.result(t, "getrawmempool")))
	require.JSONEq(t, fmt.Sprintf(`{"height":%d,"verified":[],"unverified":[]}`, base.chain.BlockHeight()),
		string(base.result(t, "getrawmempool", true)))

	var pool fakePool
	for i := uint32(1); i <= base.chain.BlockHeight() && len(pool) < 3; i++ {
		b, err := base.chain.GetBlockByIndex(i)
		require.NoError(t, err)
		pool = append(pool, b.Transactions...)
	}
	require.NotEmpty(t, pool)
	want := make([]util.Uint256, len(pool))
	for i, tx := range pool {
		want[i] = tx.Hash()
	}
	wantJSON, err := json.Marshal(want)
	require.NoError(t, err)
	n := withServices(t, base, Config{Mempool: pool})
	require.JSONEq(t, string(wantJSON), string(n.result(t, "getrawmempool", false)))
	require.JSONEq(t, fmt.Sprintf(`{"height":%d,"verified":%s,"unverified":[]}`, base.chain.BlockHeight(), wantJSON),
		string(n.result(t, "getrawmempool", true)))

	// getrawtransaction finds pooled transactions first, as neo-go: verbose
	// is the transaction alone, without block fields.
	tx := pool[0]
	var verbose map[string]any
	require.NoError(t, json.Unmarshal(n.result(t, "getrawtransaction", tx.Hash().String(), true), &verbose))
	require.Equal(t, tx.Hash().String(), verbose["hash"])
	require.NotContains(t, verbose, "blockhash")
	require.NotContains(t, verbose, "vmstate")
	onChain := map[string]any{}
	require.NoError(t, json.Unmarshal(base.result(t, "getrawtransaction", tx.Hash().String(), true), &onChain))
	for _, k := range []string{"blockhash", "confirmations", "blocktime", "vmstate"} {
		require.Contains(t, onChain, k)
		delete(onChain, k)
	}
	require.Equal(t, onChain, verbose, "the same transaction fields")
	raw, err := tx.Bytes()
	require.NoError(t, err)
	require.JSONEq(t, fmt.Sprintf("%q", base64.StdEncoding.EncodeToString(raw)),
		string(n.result(t, "getrawtransaction", tx.Hash().String())))
}

type fakePeers struct{}

func (fakePeers) ConnectionCount() int { return 2 }
func (fakePeers) PeerList() result.Peers {
	return result.Peers{Connected: []result.Peer{{Address: "127.0.0.1", Port: 20333, UserAgent: "/x/", LastKnownHeight: 7}},
		Unconnected: []result.Peer{{Address: "10.0.0.1", Port: 1}}}
}

func TestPeers(t *testing.T) {
	base := node(t, "testblocks")
	require.JSONEq(t, `0`, string(base.result(t, "getconnectioncount")))
	require.JSONEq(t, `{"unconnected":[],"connected":[],"bad":[]}`, string(base.result(t, "getpeers")))
	n := withServices(t, base, Config{Peers: fakePeers{}})
	require.JSONEq(t, `2`, string(n.result(t, "getconnectioncount")))
	require.JSONEq(t, `{"unconnected":[{"address":"10.0.0.1","port":1}],`+
		`"connected":[{"address":"127.0.0.1","port":20333,"useragent":"/x/","lastknownheight":7}],"bad":[]}`,
		string(n.result(t, "getpeers")))
}
