//go:build interop

package oracle

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"gopkg.in/yaml.v3"

	"github.com/n3d-io/n3d/internal/neogotest"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/native"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/smartcontract"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// TestInteropMixedOracles runs a real neo-go (NEOGO_BIN; the single
// validator, and an oracle node with its key) and an n3d oracle service
// (second oracle key) that follows neo-go's chain block by block: the two
// oracle nodes (2 of 2 signatures needed) exchange their signatures over
// submitoracleresponse, the response transaction completes, enters a
// neo-go block, and runs on both chains with the filtered data; every
// state root of the n3d chain is neo-go's.
func TestInteropMixedOracles(t *testing.T) {
	bin := neogotest.Bin(t, "build neo-go v0.122.0 and run go test -tags interop with NEOGO_BIN set")
	ds := newDataServer(t)
	keyA := neogoWalletKey(t) // neo-go's validator and oracle key
	keyB := testKey(t, "n3d interop oracle")

	protocol := map[string]any{
		"Magic": 4244, "MaxTraceableBlocks": 200000, "TimePerBlock": "1s",
		"StandbyCommittee": []string{hex.EncodeToString(keyA.PublicKey().Bytes())},
		"ValidatorsCount":  1, "VerifyTransactions": true, "P2PSigExtensions": true,
		"Hardforks": map[string]any{"Aspidochelone": 0, "Basilisk": 0, "Cockatrice": 0, "Domovoi": 0,
			"Echidna": 0, "Faun": 0},
	}
	// n3d's side: its chain, its service, the endpoint neo-go sends its
	// signatures to.
	var svc *Service
	sigServer := httptest.NewServer(submitEndpoint(func() *Service { return svc }))
	t.Cleanup(sigServer.Close)

	rpcURL := startNeogoOracleNode(t, bin, protocol, ds, sigServer.URL)

	data, err := yaml.Marshal(map[string]any{"ProtocolConfiguration": protocol,
		"ApplicationConfiguration": map[string]any{"DBConfiguration": map[string]any{"Type": "inmemory"}}})
	require.NoError(t, err)
	cfg, err := config.Parse(data, "")
	require.NoError(t, err)
	natives, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Store: storage.NewMemoryStore(),
		Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	defer func() { require.NoError(t, c.Close()) }()

	relayed := make(chan *transaction.Transaction, 4)
	svc, err = New(Config{
		Oracle: config.OracleConfiguration{AllowPrivateHost: true, RequestTimeout: 5 * time.Second, // neo-go's default
			RefreshInterval: time.Minute, MaxTaskTimeout: time.Hour, ResponseTimeout: 5 * time.Second,
			Nodes: []string{rpcURL}},
		Magic: uint32(cfg.ProtocolConfiguration.Magic), Keys: []*keys.PrivateKey{keyB}, Ledger: c,
		Relay: func(tx *transaction.Transaction) error {
			relayed <- tx
			_, err := neogotest.Call(rpcURL, "sendrawtransaction", base64.StdEncoding.EncodeToString(mustBytes(t, tx)))
			return err // neo-go may have it already
		},
		TLSConfig: ds.tlsConfig(), Log: testLogger(t),
	})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()

	verif, err := scripts.DefaultMultiSigContract(keys.PublicKeys{keyA.PublicKey()})
	require.NoError(t, err)
	tc := &testChain{t: t, c: c, key: keyA, acc: scripts.ScriptHash(verif), accVerif: verif}
	follow := func(until func(b *block.Block) bool) {
		deadline := time.Now().Add(2 * time.Minute)
		for time.Now().Before(deadline) {
			var count uint32
			raw, err := neogotest.Call(rpcURL, "getblockcount")
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &count))
			for h := c.BlockHeight() + 1; h < count; h++ {
				raw, err := neogotest.Call(rpcURL, "getblock", h)
				require.NoError(t, err)
				var s string
				require.NoError(t, json.Unmarshal(raw, &s))
				bb, err := base64.StdEncoding.DecodeString(s)
				require.NoError(t, err)
				b, err := block.NewBlockFromBytes(bb)
				require.NoError(t, err)
				require.NoError(t, c.AddBlock(b), "block %d", h)
				requireSameRoot(t, rpcURL, c, h)
				require.NoError(t, svc.OnBlock(b))
				if until(b) {
					return
				}
			}
			time.Sleep(200 * time.Millisecond) // polling neo-go's RPC for its next block
		}
		t.Fatal("neo-go's chain did not get there in time")
	}
	hasTx := func(h util.Uint256) func(*block.Block) bool {
		return func(b *block.Block) bool {
			for _, tx := range b.Transactions {
				if tx.Hash() == h {
					return true
				}
			}
			return false
		}
	}
	send := func(tx *transaction.Transaction) {
		_, err := neogotest.Call(rpcURL, "sendrawtransaction", base64.StdEncoding.EncodeToString(mustBytes(t, tx)))
		require.NoError(t, err)
	}

	follow(func(b *block.Block) bool { return b.Index >= 1 })
	roleHash := smartcontract.CreateContractHash(util.Uint160{}, 0, native.DesignateName)
	designate := tc.tx(tc.call(roleHash, "designateAsRole", int64(native.RoleOracle),
		[]any{keyA.PublicKey().Bytes(), keyB.PublicKey().Bytes()}))
	deploy, consumer := consumerDeploy(t, tc.acc)
	tc.consumer = consumer
	deployTx := tc.tx(deploy)
	send(designate)
	send(deployTx)
	follow(hasTx(deployTx.Hash()))
	t.Logf("designated and deployed at %d", c.BlockHeight())
	follow(func(b *block.Block) bool { return true }) // the designation is effective

	// One request at a time: a filtered JSON answer, a missing page, a
	// body over the size limit and a server that never answers in time.
	// Each response needs both oracle nodes' signatures on the same
	// transaction, so every code and result below is neo-go's and ours.
	for _, rc := range []struct {
		path, filter string
		code         transaction.OracleResponseCode
		result       string
	}{
		{"/json", "$.store.book[1].title", transaction.OracleSuccess, `["Moby Dick"]`},
		{"/missing", "", transaction.OracleNotFound, ""},
		{"/big", "", transaction.OracleResponseTooLarge, ""},
		{"/slow", "", transaction.OracleError, ""}, // a client timeout is an Error (Timeout is HTTP 408)
	} {
		req := tc.tx(tc.call(consumer, "request", ds.tls.URL+rc.path, rc.filter, int64(1_0000_0000)))
		send(req)
		follow(hasTx(req.Hash()))
		t.Logf("request %s at %d", rc.path, c.BlockHeight())
		var resp *transaction.Transaction
		follow(func(b *block.Block) bool {
			for _, tx := range b.Transactions {
				if len(tx.GetAttributes(transaction.AttrOracleResponse)) > 0 {
					resp = tx
					return true
				}
			}
			return false
		})
		_, _, code, result := tc.done(resp.Hash())
		require.Equal(t, rc.code, code, rc.path)
		require.Equal(t, rc.result, result, rc.path)
		require.Len(t, resp.Witnesses[1].InvocationScript, 2*sigInvocationSize, rc.path)
		select {
		case ours := <-relayed:
			require.Equal(t, resp.Hash(), ours.Hash(), "n3d completed another transaction for %s", rc.path)
			t.Logf("n3d completed and relayed the response transaction %s too", ours.Hash())
		default:
			t.Logf("neo-go completed the response transaction %s first", resp.Hash())
		}
	}
}

func mustBytes(t *testing.T, tx *transaction.Transaction) []byte {
	b, err := tx.Bytes()
	require.NoError(t, err)
	return b
}

// requireSameRoot compares the state root of block h with neo-go's.
func requireSameRoot(t *testing.T, url string, c *chain.Chain, h uint32) {
	raw, err := neogotest.Call(url, "getstateroot", h)
	require.NoError(t, err)
	var r struct {
		RootHash string `json:"roothash"`
	}
	require.NoError(t, json.Unmarshal(raw, &r))
	sr, err := c.StateRoot(h)
	require.NoError(t, err)
	require.Equal(t, r.RootHash, sr.Root.String(), "state root of block %d", h)
}

// startNeogoOracleNode runs neo-go as the validator and an oracle node
// (wallet 1), trusting the data server's certificate, sending its
// signatures to sigURL; it returns its RPC URL.
func startNeogoOracleNode(t *testing.T, bin string, protocol map[string]any, ds *dataServer, sigURL string) string {
	dir := t.TempDir()
	certFile := filepath.Join(dir, "ca.pem")
	require.NoError(t, os.WriteFile(certFile,
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: ds.tls.Certificate().Raw}), 0o644))
	wallet, err := filepath.Abs(filepath.Join("..", "..", "wallet", "testdata", "neogo_wallet1.json"))
	require.NoError(t, err)
	rpcAddr, p2pAddr := neogotest.FreeAddr(t), neogotest.FreeAddr(t)
	unlock := map[string]any{"Path": wallet, "Password": "one"}
	cfg := map[string]any{
		"ProtocolConfiguration": protocol,
		"ApplicationConfiguration": map[string]any{
			"DBConfiguration": map[string]any{"Type": "inmemory"},
			"P2P":             map[string]any{"Addresses": []string{p2pAddr}, "MinPeers": 0},
			"Relay":           true,
			"Consensus":       map[string]any{"Enabled": true, "UnlockWallet": unlock},
			"RPC":             map[string]any{"Enabled": true, "Addresses": []string{rpcAddr}, "MaxGasInvoke": 100},
			"Oracle": map[string]any{"Enabled": true, "AllowPrivateHost": true, "Nodes": []string{sigURL},
				"RefreshInterval": "1m", "UnlockWallet": unlock},
		},
	}
	path := neogotest.WriteYAML(t, filepath.Join(dir, "neogo.yml"), cfg)
	return neogotest.Start(t, bin, path, rpcAddr, "SSL_CERT_FILE="+certFile).URL
}

// submitEndpoint is a minimal submitoracleresponse server for the
// service svc returns: it checks the message signature as the RPC method
// does and hands the signature over.
func submitEndpoint(svc func() *Service) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Params []json.RawMessage `json:"params"`
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		if json.Unmarshal(body, &req) != nil || len(req.Params) != 4 {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		var pubS, txS, msgS string
		var id uint64
		_ = json.Unmarshal(req.Params[0], &pubS)
		_ = json.Unmarshal(req.Params[1], &id)
		_ = json.Unmarshal(req.Params[2], &txS)
		_ = json.Unmarshal(req.Params[3], &msgS)
		pb, _ := base64.StdEncoding.DecodeString(pubS)
		txSig, _ := base64.StdEncoding.DecodeString(txS)
		msgSig, _ := base64.StdEncoding.DecodeString(msgS)
		pub, err := keys.NewPublicKeyFromBytes(pb)
		if err != nil || !VerifyResponse(pub, id, txSig, msgSig) {
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-508,"message":"Invalid signature"}}`))
			return
		}
		svc().AddResponse(pub, id, txSig)
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
	})
}
