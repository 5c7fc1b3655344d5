package node

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/netip"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/memnet"
	"github.com/n3d-io/n3d/pkg/node/nodetest"
	"github.com/n3d-io/n3d/pkg/rpc/result"
	"github.com/n3d-io/n3d/pkg/smartcontract/callflag"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/emit"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

// singleConfig is the embedded single-validator privnet on loopback with
// free ports, an in-memory database and block time tpb (also the Policy
// value seeded at genesis); consensus as asked, with the repository's
// validator wallet.
func singleConfig(t *testing.T, consensus bool, tpb time.Duration) config.Config {
	return nodetest.SingleConfig(t, consensus, tpb)
}

// runningNode is a node run in-process by a test.
type runningNode struct {
	t       *testing.T
	n       *Node
	url     string
	logs    *observer.ObservedLogs
	base    int // goroutines before the start
	client  *http.Client
	stopped atomic.Bool
}

// startNode builds and starts a node on cfg, stopped when the test ends
// unless the test stops it.
func startNode(t *testing.T, cfg config.Config, opts ...Option) *runningNode {
	t.Helper()
	core, logs := observer.New(zapcore.InfoLevel)
	log := zap.New(core)
	if testing.Verbose() {
		log = zap.New(zapcore.NewTee(core, zaptest.NewLogger(t).Core()))
	}
	r := &runningNode{t: t, logs: logs, base: runtime.NumGoroutine(),
		client: &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 30 * time.Second}}
	n, err := New(cfg, append([]Option{WithLogger(log)}, opts...)...)
	require.NoError(t, err)
	if err := n.Start(context.Background()); err != nil {
		require.NoError(t, n.Stop())
		t.Fatalf("node did not start: %v", err)
	}
	r.n = n
	if addrs := n.RPCAddrs(); len(addrs) != 0 {
		r.url = "http://" + addrs[0].String()
	}
	t.Cleanup(func() {
		if !r.stopped.Load() {
			r.stop()
		}
	})
	return r
}

// stop stops the node and checks that Stop returns nil and every
// goroutine started since the node's start has ended.
func (r *runningNode) stop() {
	r.t.Helper()
	r.shutdown()
	r.checkGoroutines()
}

// shutdown stops the node and checks that Stop returned nil.
func (r *runningNode) shutdown() {
	r.t.Helper()
	r.stopped.Store(true)
	require.NoError(r.t, r.n.Stop())
}

// checkGoroutines waits for the goroutine count to fall back to what it
// was before the node started.
func (r *runningNode) checkGoroutines() {
	r.t.Helper()
	ok := waitCond(func() bool { return runtime.NumGoroutine() <= r.base }, 5*time.Second)
	if !ok {
		buf := make([]byte, 1<<20)
		r.t.Fatalf("%d goroutines left (%d before the start):\n%s", runtime.NumGoroutine(), r.base,
			buf[:runtime.Stack(buf, true)])
	}
}

// repoConfig is the path of a file of the repository's config directory.
func repoConfig(t *testing.T, name string) string {
	return filepath.Join(nodetest.ConfigDir(t), name)
}

// waitCond waits at most d for cond, re-checking it on a ticker (a
// goroutine's end has no event to wait on); it reports whether cond held.
func waitCond(cond func() bool, d time.Duration) bool {
	deadline := time.NewTimer(d)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-deadline.C:
			return cond()
		case <-tick.C:
		}
	}
	return true
}

// call sends one JSON-RPC request to the node over HTTP.
func (r *runningNode) call(method string, params ...any) (json.RawMessage, *result.Error) {
	r.t.Helper()
	return (&nodetest.Client{URL: r.url, HTTP: r.client}).Call(r.t, method, params...)
}

// get fetches url and returns the body of a 200 answer.
func (r *runningNode) get(url string) string {
	r.t.Helper()
	resp, err := r.client.Get(url)
	require.NoError(r.t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(r.t, err)
	require.Equal(r.t, http.StatusOK, resp.StatusCode, string(body))
	return string(body)
}

func (r *runningNode) result(method string, params ...any) json.RawMessage {
	r.t.Helper()
	res, e := r.call(method, params...)
	require.Nil(r.t, e, "%s: %v", method, e)
	return res
}

// stopOrder returns the services in the order their "service stopped"
// lines were logged, then "chain" when the chain was closed.
func (r *runningNode) stopOrder() []string {
	var out []string
	for _, e := range r.logs.All() {
		switch e.Message {
		case "service stopped":
			out = append(out, e.ContextMap()["service"].(string))
		case "chain closed":
			out = append(out, "chain")
		}
	}
	return out
}

// validatorKey decrypts the single validator's key from its wallet.
func validatorKey(t *testing.T, cfg config.Config) *keys.PrivateKey {
	t.Helper()
	cons := cfg.ApplicationConfiguration.Consensus
	cons.Enabled = true
	ks, err := ConsensusKeys(cons)
	require.NoError(t, err)
	require.Len(t, ks, 1)
	return ks[0]
}

// gasTransfer is a transfer of amount GAS (datoshi) from the validators'
// BFT account, which received the genesis GAS, signed with key, valid for
// the next 100 blocks.
func gasTransfer(t *testing.T, svc *Node, key *keys.PrivateKey, nonce uint32, to util.Uint160, amount int64) *transaction.Transaction {
	t.Helper()
	verif, err := scripts.MultiSigContract(1, keys.PublicKeys{key.PublicKey()})
	require.NoError(t, err)
	from := scripts.ScriptHash(verif)
	gas := svc.natives.Governance.GAS.Metadata().Hash
	script, err := emit.NewBuilder().AppCall(gas, "transfer", byte(callflag.All), from, to, amount, nil).
		Opcodes(opcode.ASSERT).Script()
	require.NoError(t, err)
	tx := &transaction.Transaction{Nonce: nonce, SystemFee: 1_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: svc.chain.BlockHeight() + 100, Script: script,
		Signers: []transaction.Signer{{Account: from, Scopes: transaction.CalledByEntry}}}
	sig := key.Sign(tx.SignData(uint32(svc.chain.Config().Magic)))
	tx.Witnesses = []transaction.Witness{{InvocationScript: append([]byte{byte(opcode.PUSHDATA1), 64}, sig...),
		VerificationScript: verif}}
	tx.InvalidateCache()
	return tx
}

func txBase64(t *testing.T, tx *transaction.Transaction) string {
	raw, err := tx.Bytes()
	require.NoError(t, err)
	return base64.StdEncoding.EncodeToString(raw)
}

// TestNodeServesRPC: the node answers JSON-RPC over HTTP from the chain it
// opened, reports its P2P port and nonce, and stops services in order.
func TestNodeServesRPC(t *testing.T) {
	cfg := singleConfig(t, false, time.Second)
	cfg.ApplicationConfiguration.Prometheus = config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0"}}
	cfg.ApplicationConfiguration.Pprof.BasicService = config.BasicService{Enabled: true, Addresses: []string{"127.0.0.1:0"}}
	r := startNode(t, cfg)
	require.Nil(t, r.n.cons)
	require.JSONEq(t, "1", string(r.result("getblockcount")))
	require.Len(t, r.n.monitor, 2)
	metrics := r.get("http://" + r.n.monitor[0].String() + "/metrics")
	require.Contains(t, metrics, `n3d_rpc_request_duration_seconds_count{method="getblockcount"} `)
	require.Contains(t, metrics, "n3d_mempool_transactions 0")
	require.Contains(t, r.get("http://"+r.n.monitor[1].String()+"/debug/pprof/"), "goroutine")

	var v result.Version
	require.NoError(t, json.Unmarshal(r.result("getversion"), &v))
	require.Equal(t, uint32(cfg.ProtocolConfiguration.Magic), v.Protocol.Network)
	p2p := r.n.p2p.Load()
	require.Equal(t, p2p.Nonce(), v.Nonce)
	require.Equal(t, "/n3d:", v.UserAgent[:5])
	require.JSONEq(t, "0", string(r.result("getconnectioncount")))
	require.Empty(t, r.n.Peers())
	require.Zero(t, r.n.PeerCount())
	require.JSONEq(t, `{"unconnected":[],"connected":[],"bad":[]}`, string(r.result("getpeers")))

	r.stop()
	require.Equal(t, []string{"stateroot", "rpc", "p2p", "mempool", "monitor", "chain"}, r.stopOrder())
}

// TestNodePoolsSubmittedTransaction: a signed GAS transfer sent with
// sendrawtransaction is verified into the pool and listed by
// getrawmempool; the reference's answers for a resubmission and a bad
// signature.
func TestNodePoolsSubmittedTransaction(t *testing.T) {
	cfg := singleConfig(t, false, time.Second)
	key := validatorKey(t, cfg)
	r := startNode(t, cfg)
	to := util.Uint160{1, 2, 3}
	tx := gasTransfer(t, r.n, key, 1, to, 5_0000_0000)

	res := r.result("sendrawtransaction", txBase64(t, tx))
	require.JSONEq(t, fmt.Sprintf(`{"hash":%q}`, tx.Hash().String()), string(res))
	require.True(t, r.n.pool.Contains(tx.Hash()))
	require.JSONEq(t, fmt.Sprintf(`[%q]`, tx.Hash().String()), string(r.result("getrawmempool")))

	_, e := r.call("sendrawtransaction", txBase64(t, tx))
	require.NotNil(t, e)
	require.EqualValues(t, -503, e.Code, e.Error())

	bad := gasTransfer(t, r.n, key, 2, to, 1)
	bad.Witnesses[0].InvocationScript[10] ^= 0xff
	_, e = r.call("sendrawtransaction", txBase64(t, bad))
	require.NotNil(t, e)
	require.EqualValues(t, result.InvalidSignatureCode, e.Code, e.Error())
	require.Equal(t, 1, r.n.pool.Count())
}

// TestSingleValidatorNodeProducesBlocks: with consensus on, the single
// validator proposes and commits blocks every TimePerBlock and includes a
// transaction submitted over RPC, which then leaves the pool (the block's
// verification found it pooled: chain.Config.Pooled is wired); shutdown
// stops consensus first and the chain last, and every goroutine ends.
func TestSingleValidatorNodeProducesBlocks(t *testing.T) {
	cfg := singleConfig(t, true, 100*time.Millisecond)
	key := validatorKey(t, cfg)
	reg := prometheus.NewRegistry()
	r := startNode(t, cfg, WithMetrics(reg, reg))
	require.NotNil(t, r.n.cons)
	c := r.n.chain
	require.Eventually(t, func() bool { return c.BlockHeight() >= 3 }, 20*time.Second, 10*time.Millisecond)

	tx := gasTransfer(t, r.n, key, 7, util.Uint160{9}, 1_0000_0000)
	r.result("sendrawtransaction", txBase64(t, tx))
	var height uint32
	require.Eventually(t, func() bool {
		_, h, err := c.GetTransaction(tx.Hash())
		height = h
		return err == nil
	}, 20*time.Second, 10*time.Millisecond, "the transaction was not included")
	b, err := c.GetBlockByIndex(height)
	require.NoError(t, err)
	require.Equal(t, tx.Hash(), b.Transactions[0].Hash())
	require.Eventually(t, func() bool { return r.n.pool.Count() == 0 }, 5*time.Second, 10*time.Millisecond,
		"the pool did not drop the included transaction")
	require.Equal(t, 1.0, gatherCounter(t, reg, "n3d_chain_pooled_transactions_total"))
	var log struct {
		Executions []struct {
			VMState string `json:"vmstate"`
		} `json:"executions"`
	}
	require.NoError(t, json.Unmarshal(r.result("getapplicationlog", tx.Hash().String()), &log))
	require.Equal(t, "HALT", log.Executions[0].VMState)

	// Blocks follow each other at about TimePerBlock.
	first, err := c.GetBlockByIndex(1)
	require.NoError(t, err)
	last, err := c.GetBlockByIndex(c.BlockHeight())
	require.NoError(t, err)
	require.GreaterOrEqual(t, last.Timestamp-first.Timestamp, uint64(last.Index-first.Index)*uint64(cfg.ProtocolConfiguration.TimePerBlock.Milliseconds())*9/10)

	r.stop()
	require.Equal(t, []string{"consensus", "stateroot", "rpc", "p2p", "mempool", "monitor", "chain"}, r.stopOrder())
	require.Zero(t, r.logs.FilterLevelExact(zapcore.ErrorLevel).Len(), "errors logged: %v",
		r.logs.FilterLevelExact(zapcore.ErrorLevel).All())
}

// TestSingleValidatorWaitsForTransactions: with MaxTimePerBlock (neo-go's
// dynamic block time) an idle validator waits up to MaxTimePerBlock, but a
// transaction entering the pool wakes it and is in a block about
// TimePerBlock later.
func TestSingleValidatorWaitsForTransactions(t *testing.T) {
	cfg := singleConfig(t, true, 100*time.Millisecond)
	cfg.ProtocolConfiguration.MaxTimePerBlock = 2 * time.Second
	key := validatorKey(t, cfg)
	r := startNode(t, cfg)
	c := r.n.chain
	// Right after a block: an idle validator would now wait 2 s.
	require.Eventually(t, func() bool { return c.BlockHeight() >= 1 }, 20*time.Second, 5*time.Millisecond)
	sent := time.Now()
	tx := gasTransfer(t, r.n, key, 11, util.Uint160{7}, 1)
	r.result("sendrawtransaction", txBase64(t, tx))
	require.Eventually(t, func() bool {
		_, _, err := c.GetTransaction(tx.Hash())
		return err == nil
	}, 20*time.Second, 5*time.Millisecond)
	require.Less(t, time.Since(sent), cfg.ProtocolConfiguration.MaxTimePerBlock/2,
		"the pooled transaction did not wake consensus")
	r.stop()
}

// privnetWallets are the wallets of the four standby validators of
// config/protocol.privnet.yml (neo-go's privnet wallets) with their
// published passwords.
var privnetWallets = []struct{ file, password string }{
	{"neogo_wallet1.json", "one"}, {"neogo_wallet2.json", "two"},
	{"neogo_wallet3.json", "three"}, {"neogo_wallet4.json", "four"},
}

// memHost is the in-memory network address of test node i.
func memHost(i int) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, 0, byte(i + 1)}) }

// bftTransfer is a transfer of amount GAS from the validators' BFT account
// (m of the keys), signed by the first m validators in the contract's key
// order.
func bftTransfer(t *testing.T, svc *Node, ks []*keys.PrivateKey, nonce uint32, to util.Uint160, amount int64) *transaction.Transaction {
	t.Helper()
	pubs := make(keys.PublicKeys, len(ks))
	for i, k := range ks {
		pubs[i] = k.PublicKey()
	}
	m := scripts.BFTThreshold(len(pubs))
	verif, err := scripts.MultiSigContract(m, pubs)
	require.NoError(t, err)
	from := scripts.ScriptHash(verif)
	gas := svc.natives.Governance.GAS.Metadata().Hash
	script, err := emit.NewBuilder().AppCall(gas, "transfer", byte(callflag.All), from, to, amount, nil).
		Opcodes(opcode.ASSERT).Script()
	require.NoError(t, err)
	tx := &transaction.Transaction{Nonce: nonce, SystemFee: 1_0000_0000, NetworkFee: 1_0000_0000,
		ValidUntilBlock: svc.chain.BlockHeight() + 100, Script: script,
		Signers: []transaction.Signer{{Account: from, Scopes: transaction.CalledByEntry}}}
	data := tx.SignData(uint32(svc.chain.Config().Magic))
	_, ordered, ok := scripts.ParseMultiSigContract(verif)
	require.True(t, ok)
	var inv []byte
	for _, pub := range ordered[:m] {
		for _, k := range ks {
			if k.PublicKey().Equal(pub) {
				inv = append(inv, byte(opcode.PUSHDATA1), 64)
				inv = append(inv, k.Sign(data)...)
			}
		}
	}
	tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: verif}}
	tx.InvalidateCache()
	return tx
}

// TestFourValidatorsOverP2P: the four validators of the privnet, each a
// whole node in this process, connected by an in-memory network
// (WithTransport, pkg/network/memnet), agree on blocks through their P2P
// servers (dBFT payloads relayed as extensible payloads) and include a
// transaction sent to one of them over RPC, relayed to the others.
func TestFourValidatorsOverP2P(t *testing.T) {
	if testing.Short() {
		t.Skip("four nodes")
	}
	data, ok := config.Embedded(config.NetPrivNet)
	require.True(t, ok)
	mem := memnet.New(memnet.Config{})
	t.Cleanup(mem.Close)
	addrs := make([]string, len(privnetWallets))
	for i := range addrs {
		addrs[i] = netip.AddrPortFrom(memHost(i), 20333).String()
	}
	var (
		nodes []*runningNode
		ks    []*keys.PrivateKey
	)
	cfgs := make([]config.Config, len(privnetWallets))
	for i, w := range privnetWallets {
		cfg, err := config.Parse(data, "")
		require.NoError(t, err)
		p, a := &cfg.ProtocolConfiguration, &cfg.ApplicationConfiguration
		p.TimePerBlock, p.Genesis.TimePerBlock, p.MaxTimePerBlock = 200*time.Millisecond, 200*time.Millisecond, 0
		p.SeedList = addrs
		a.DBConfiguration = config.DBConfiguration{Type: config.DBInMemory}
		a.P2P.Addresses = []string{addrs[i]}
		a.P2P.MinPeers, a.P2P.ProtoTickInterval = len(addrs)-1, 50*time.Millisecond
		a.RPC.Enabled, a.RPC.Addresses = true, []string{"127.0.0.1:0"}
		a.Prometheus.Enabled, a.Pprof.Enabled = false, false
		a.Consensus.Enabled = true
		a.Consensus.UnlockWallet = config.Wallet{Path: filepath.Join("..", "..", "pkg", "wallet", "testdata", w.file),
			Password: w.password}
		cfgs[i] = cfg
	}
	// The wallets' scrypt dominates the start: decrypt them at once,
	// once each, and hand the keys to the nodes.
	ks = make([]*keys.PrivateKey, len(cfgs))
	errs := make([]error, len(cfgs))
	var wg sync.WaitGroup
	for i := range cfgs {
		wg.Go(func() {
			var got []*keys.PrivateKey
			if got, errs[i] = ConsensusKeys(cfgs[i].ApplicationConfiguration.Consensus); len(got) == 1 {
				ks[i] = got[0]
			}
		})
	}
	wg.Wait()
	for i, cfg := range cfgs {
		require.NoError(t, errs[i])
		require.NotNil(t, ks[i], "one key in wallet %d", i)
		nodes = append(nodes, startNode(t, cfg, WithTransport(mem.Host(memHost(i))), WithConsensusKeys(ks[i])))
	}
	heightAll := func(h uint32) func() bool {
		return func() bool {
			for _, n := range nodes {
				if n.n.chain.BlockHeight() < h {
					return false
				}
			}
			return true
		}
	}
	require.Eventually(t, heightAll(3), 30*time.Second, 10*time.Millisecond)

	for _, n := range nodes {
		require.Len(t, n.n.Peers(), len(nodes)-1)
		require.Equal(t, "memnet", n.n.P2PAddrs()[0].Network())
	}

	tx := bftTransfer(t, nodes[0].n, ks, 1, util.Uint160{4}, 1_0000_0000)
	nodes[0].result("sendrawtransaction", txBase64(t, tx))
	// Relayed: every pool has it, or a block already took it.
	require.Eventually(t, func() bool {
		for _, n := range nodes {
			if _, _, err := n.n.chain.GetTransaction(tx.Hash()); err != nil && !n.n.pool.Contains(tx.Hash()) {
				return false
			}
		}
		return true
	}, 30*time.Second, 10*time.Millisecond, "the transaction did not reach every node")
	var in uint32
	require.Eventually(t, func() bool {
		_, h, err := nodes[0].n.chain.GetTransaction(tx.Hash())
		in = h
		return err == nil
	}, 30*time.Second, 10*time.Millisecond, "the transaction was not included")
	require.Eventually(t, heightAll(in), 30*time.Second, 10*time.Millisecond)
	for _, n := range nodes[1:] {
		for i := uint32(1); i <= in; i++ {
			want, _ := nodes[0].n.chain.GetHeaderHash(i)
			got, ok := n.n.chain.GetHeaderHash(i)
			require.True(t, ok)
			require.Equal(t, want, got, "block %d", i)
		}
	}
	for i := len(nodes) - 1; i >= 0; i-- {
		nodes[i].shutdown()
	}
	nodes[0].checkGoroutines()
}

// gatherCounter is the value of the unlabelled counter name in reg.
func gatherCounter(t *testing.T, reg prometheus.Gatherer, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() == name {
			require.Len(t, mf.GetMetric(), 1)
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatalf("no metric %s", name)
	return 0
}
