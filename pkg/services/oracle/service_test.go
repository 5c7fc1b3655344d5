package oracle

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/native/neostate"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/vm/emit"
)

// waitDeadline bounds every wait on a channel (a hang fails the test
// instead of the test binary's timeout).
const waitDeadline = 60 * time.Second

// fakeClock is the injectable clock of the expiry tests.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// node is one oracle service under test with what it relayed and sent.
type node struct {
	s       *Service
	key     *keys.PrivateKey
	relayed chan *transaction.Transaction
	mu      sync.Mutex
	sent    []Response
}

func (n *node) sentResponses() []Response {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]Response(nil), n.sent...)
}

func newNode(t *testing.T, tc *testChain, ds *dataServer, key *keys.PrivateKey, clock *fakeClock,
	reg ...prometheus.Registerer) *node {
	n := &node{key: key, relayed: make(chan *transaction.Transaction, 16)}
	cfg := Config{
		Oracle: config.OracleConfiguration{Enabled: true, AllowPrivateHost: true, RequestTimeout: 30 * time.Second,
			RefreshInterval: time.Minute, MaxTaskTimeout: time.Hour, MaxConcurrentRequests: 2},
		Magic:  uint32(tc.c.Config().Magic),
		Keys:   []*keys.PrivateKey{testKey(t, "not an oracle"), key},
		Ledger: tc.c,
		Relay: func(tx *transaction.Transaction) error {
			n.relayed <- tx
			return nil
		},
		Broadcast: func(r Response) {
			n.mu.Lock()
			n.sent = append(n.sent, r)
			n.mu.Unlock()
		},
		TLSConfig: ds.tlsConfig(),
		Log:       testLogger(t),
	}
	if clock != nil {
		cfg.Now = clock.Now
	}
	if len(reg) > 0 {
		cfg.Registerer = reg[0]
	}
	s, err := New(cfg)
	require.NoError(t, err)
	n.s = s
	return n
}

func receive(t *testing.T, ch <-chan *transaction.Transaction) *transaction.Transaction {
	t.Helper()
	select {
	case tx := <-ch:
		return tx
	case <-time.After(waitDeadline):
		t.Fatal("no transaction relayed")
		return nil
	}
}

func requireNone(t *testing.T, ch <-chan *transaction.Transaction) {
	t.Helper()
	select {
	case tx := <-ch:
		t.Fatalf("unexpected relayed transaction %s", tx.Hash())
	default:
	}
}

// pendingRequest returns the only pending request of the chain.
func pendingRequest(t *testing.T, tc *testChain) (uint64, *neostate.OracleRequest) {
	reqs, err := tc.c.OracleRequests()
	require.NoError(t, err)
	require.Len(t, reqs, 1)
	for id, r := range reqs {
		return id, r
	}
	return 0, nil
}

// TestEndToEnd: one oracle node (the whole oracle set) running: a
// contract's request is fetched from the local server, filtered, answered
// with a transaction the chain verifies and stores, and the contract's
// callback receives the filtered data; the request then leaves the
// service.
func TestEndToEnd(t *testing.T) {
	ds := newDataServer(t)
	key := testKey(t, "oracle 1")
	tc := newTestChain(t, keys.PublicKeys{key.PublicKey()})
	reg := prometheus.NewRegistry()
	n := newNode(t, tc, ds, key, nil, reg)

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		require.NoError(t, <-done)
	})

	url := ds.tls.URL + "/json"
	b := tc.request(url, strp("$.store.book[*].title"), 1_0000_0000)
	require.NoError(t, n.s.OnBlock(b))
	tx := receive(t, n.relayed)
	require.Len(t, n.sentResponses(), 1)

	resp := tx.GetAttributes(transaction.AttrOracleResponse)[0].Value.(*transaction.OracleResponse)
	require.Equal(t, transaction.OracleSuccess, resp.Code)
	require.Equal(t, int64(1_0000_0000), tx.SystemFee+tx.NetworkFee)

	b = tc.add(tx)
	gotURL, ud, code, result := tc.done(tx.Hash())
	require.Equal(t, url, gotURL)
	require.Equal(t, "ud", ud)
	require.Equal(t, transaction.OracleSuccess, code)
	require.Equal(t, `["Sayings of the Century","Moby Dick"]`, result)

	require.NoError(t, n.s.OnBlock(b))
	n.s.mu.Lock()
	require.Empty(t, n.s.mu.responses)
	require.Empty(t, n.s.mu.seen)
	n.s.mu.Unlock()
	reqs, err := tc.c.OracleRequests()
	require.NoError(t, err)
	require.Empty(t, reqs)

	require.Equal(t, 1.0, metricValue(t, n.s.metrics.requests.WithLabelValues("Success")))
	// The service counts a relay after the node's Relay returned; the
	// test's Relay hands the transaction over before that.
	require.Eventually(t, func() bool {
		return metricValue(t, n.s.metrics.relayed.WithLabelValues("main")) == 1
	}, 10*time.Second, time.Millisecond)
	require.Equal(t, 0.0, metricValue(t, n.s.metrics.pending))
	mfs, err := reg.Gather()
	require.NoError(t, err)
	require.NotEmpty(t, mfs)
}

// TestResponseTxFees: the response transaction pays exactly the network
// fee the chain asks for (one datoshi less does not verify), the request's
// GasForResponse in total, is valid until the request's block +
// MaxValidUntilBlockIncrement; with too little GAS it is an
// InsufficientFunds response without result.
func TestResponseTxFees(t *testing.T) {
	ds := newDataServer(t)
	key := testKey(t, "oracle 1")
	tc := newTestChain(t, keys.PublicKeys{key.PublicKey()})
	n := newNode(t, tc, ds, key, nil)
	ctx := context.Background()

	reqBlock := tc.request(ds.tls.URL+"/json", nil, 1_0000_0000)
	id, req := pendingRequest(t, tc)
	require.NoError(t, n.s.process(ctx, request{ID: id, Req: req}))
	tx := receive(t, n.relayed)
	p, err := tc.c.OracleParams()
	require.NoError(t, err)
	require.Equal(t, reqBlock.Index+p.MaxValidUntilBlockIncrement, tx.ValidUntilBlock)
	require.Equal(t, uint32(id), tx.Nonce)
	require.Equal(t, responseScript, tx.Script)
	require.Equal(t, []transaction.Signer{{Account: OracleHash, Scopes: transaction.None},
		{Account: scriptHashOf(t, keys.PublicKeys{key.PublicKey()}), Scopes: transaction.None}}, tx.Signers)
	require.NoError(t, tc.c.VerifyTx(tx))

	cheaper := *tx
	cheaper.NetworkFee--
	cheaper.SystemFee++
	resign(t, tc, &cheaper, key)
	require.ErrorIs(t, tc.c.VerifyTx(&cheaper), chain.ErrTxNetworkFee)

	// The stored transaction's size is the one the fee was computed for.
	require.Equal(t, tx.NetworkFee, expectedNetFee(t, tc, tx, p))
	tc.add(tx)

	// 0.1 GAS (the minimum) cannot pay for the 1 KiB+ result.
	tc.request(ds.tls.URL+"/max", nil, 1000_0000)
	id, req = pendingRequest(t, tc)
	require.NoError(t, n.s.process(ctx, request{ID: id, Req: req}))
	tx = receive(t, n.relayed)
	resp := tx.GetAttributes(transaction.AttrOracleResponse)[0].Value.(*transaction.OracleResponse)
	require.Equal(t, transaction.OracleInsufficientFunds, resp.Code)
	require.Empty(t, resp.Result)
	require.Equal(t, int64(1000_0000), tx.SystemFee+tx.NetworkFee)
	tc.add(tx)
	_, _, code, result := tc.done(tx.Hash())
	require.Equal(t, transaction.OracleInsufficientFunds, code)
	require.Empty(t, result)
}

func scriptHashOf(t *testing.T, pubs keys.PublicKeys) [20]byte {
	acc, err := newOracleAccount(pubs)
	require.NoError(t, err)
	return acc.hash
}

// expectedNetFee recomputes the network fee of a finished response
// transaction from its real size: size × FeePerByte, the OracleContract
// verify run and the multisig witness.
func expectedNetFee(t *testing.T, tc *testChain, tx *transaction.Transaction, p chain.OracleParams) int64 {
	verifyGas, err := tc.c.OracleVerifyGas(tx, p.BaseExecFee)
	require.NoError(t, err)
	acc, err := newOracleAccount(p.OracleNodes)
	require.NoError(t, err)
	cp := *tx
	cp.InvalidateCache()
	return int64(cp.Size())*p.FeePerByte + verifyGas + multisigFee(p.BaseExecFee, acc.m, len(acc.nodes))
}

// resign replaces the oracle multisig witness of a 1-node oracle set.
func resign(t *testing.T, tc *testChain, tx *transaction.Transaction, key *keys.PrivateKey) {
	tx.InvalidateCache()
	sig := key.Sign(tx.SignData(uint32(tc.c.Config().Magic)))
	inv, err := emit.NewBuilder().Bytes(sig).Script()
	require.NoError(t, err)
	tx.Witnesses = []transaction.Witness{{}, {InvocationScript: inv, VerificationScript: tx.Witnesses[1].VerificationScript}}
	tx.InvalidateCache()
}

// fourOracles sets up a chain with four oracle nodes (3 signatures
// needed) and a pending request.
func fourOracles(t *testing.T, path string, clock *fakeClock) (*testChain, *dataServer, []*node, uint64, *neostate.OracleRequest) {
	ds := newDataServer(t)
	var ks []*keys.PrivateKey
	var pubs keys.PublicKeys
	for _, seed := range []string{"oracle 1", "oracle 2", "oracle 3", "oracle 4"} {
		k := testKey(t, seed)
		ks = append(ks, k)
		pubs = append(pubs, k.PublicKey())
	}
	tc := newTestChain(t, pubs)
	nodes := make([]*node, len(ks))
	for i, k := range ks {
		nodes[i] = newNode(t, tc, ds, k, clock)
	}
	tc.request(ds.tls.URL+path, strp("$.store.book[1].title"), 1_0000_0000)
	id, req := pendingRequest(t, tc)
	return tc, ds, nodes, id, req
}

// deliver hands every response n sent (so far) to the others, as
// submitoracleresponse does after checking the message signature.
func deliver(t *testing.T, from *node, to ...*node) {
	for _, r := range from.sentResponses() {
		require.True(t, VerifyResponse(r.PublicKey, r.RequestID, r.TxSignature, r.MsgSignature))
		for _, n := range to {
			n.s.AddResponse(r.PublicKey, r.RequestID, r.TxSignature)
		}
	}
}

// TestSignatureExchange: four nodes answer the same request; three
// signatures complete the transaction (whichever order they arrive in,
// before or after the node's own answer), every node that completes it
// relays the same transaction, and it runs the callback.
func TestSignatureExchange(t *testing.T) {
	tc, _, nodes, id, req := fourOracles(t, "/json", nil)
	ctx := context.Background()
	a, b, c, d := nodes[0], nodes[1], nodes[2], nodes[3]
	for _, n := range []*node{b, c} {
		require.NoError(t, n.s.process(ctx, request{ID: id, Req: req}))
	}
	deliver(t, b, a, d) // before a and d answered: kept unchecked
	deliver(t, c, a)
	requireNone(t, a.relayed)
	require.NoError(t, a.s.process(ctx, request{ID: id, Req: req}))
	tx := receive(t, a.relayed) // b, c (checked now) and a's own
	deliver(t, a, b, c)
	requireNone(t, b.relayed) // a and b
	deliver(t, c, b)
	deliver(t, b, c)
	txB, txC := receive(t, b.relayed), receive(t, c.relayed)
	require.Equal(t, tx.Hash(), txB.Hash())
	require.Equal(t, tx.Hash(), txC.Hash())
	require.NoError(t, d.s.process(ctx, request{ID: id, Req: req}))
	requireNone(t, d.relayed) // b and d
	deliver(t, a, d)
	require.Equal(t, tx.Hash(), receive(t, d.relayed).Hash())

	// A bad signature is dropped.
	d.s.AddResponse(a.key.PublicKey(), id, make([]byte, 64))
	requireNone(t, d.relayed)

	tc.add(tx)
	_, _, code, result := tc.done(tx.Hash())
	require.Equal(t, transaction.OracleSuccess, code)
	require.Equal(t, `["Moby Dick"]`, result)
}

// TestBackupAndExpiry: nodes that cannot agree on the main response
// complete the backup one (ConsensusUnreachable) on the refresh pass; a
// request older than MaxTaskTimeout is dropped.
func TestBackupAndExpiry(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_700_000_000, 0)}
	tc, ds, nodes, id, req := fourOracles(t, "/json", clock)
	ctx := context.Background()
	a, b, c := nodes[0], nodes[1], nodes[2]
	require.NoError(t, a.s.process(ctx, request{ID: id, Req: req}))
	// b and c got another answer (here: another URL) than a.
	other := *req
	other.URL = ds.tls.URL + "/nothing-here"
	for _, n := range []*node{b, c} {
		require.NoError(t, n.s.process(ctx, request{ID: id, Req: &other}))
	}
	deliver(t, b, a)
	deliver(t, c, a)
	requireNone(t, a.relayed) // their main signatures do not match a's transactions

	// Nothing to retry before RefreshInterval.
	clock.Add(a.s.cfg.Oracle.RefreshInterval)
	require.Empty(t, a.s.expire())
	clock.Add(time.Second)
	for _, n := range []*node{a, b, c} {
		retry := n.s.expire()
		require.Equal(t, []uint64{id}, retry)
		require.NoError(t, n.s.process(ctx, request{ID: retry[0]}))
	}
	deliver(t, b, a) // now also their backup signatures
	deliver(t, c, a)
	tx := receive(t, a.relayed)
	resp := tx.GetAttributes(transaction.AttrOracleResponse)[0].Value.(*transaction.OracleResponse)
	require.Equal(t, transaction.OracleConsensusUnreachable, resp.Code)
	tc.add(tx)
	_, _, code, result := tc.done(tx.Hash())
	require.Equal(t, transaction.OracleConsensusUnreachable, code)
	require.Empty(t, result)

	// A relayed transaction is relayed again on the next retry.
	clock.Add(a.s.cfg.Oracle.RefreshInterval + time.Second)
	require.Equal(t, []uint64{id}, a.s.expire())
	require.NoError(t, a.s.process(ctx, request{ID: id}))
	require.Equal(t, tx.Hash(), receive(t, a.relayed).Hash())

	// After MaxTaskTimeout the request is dropped and not answered again
	// until the next pass.
	clock.Add(a.s.cfg.Oracle.MaxTaskTimeout + time.Second)
	require.Empty(t, b.s.expire())
	require.Nil(t, b.s.response(id, true))
	require.NoError(t, b.s.process(ctx, request{ID: id, Req: req}))
	require.Empty(t, b.s.mu.responses)
}

// TestNotDesignated: a node none of whose keys is an oracle does nothing.
func TestNotDesignated(t *testing.T) {
	ds := newDataServer(t)
	tc := newTestChain(t, keys.PublicKeys{testKey(t, "oracle 1").PublicKey()})
	n := newNode(t, tc, ds, testKey(t, "someone else"), nil)
	tc.request(ds.tls.URL+"/json", nil, 1_0000_0000)
	id, req := pendingRequest(t, tc)
	require.NoError(t, n.s.process(context.Background(), request{ID: id, Req: req}))
	requireNone(t, n.relayed)
	require.Empty(t, n.sentResponses())
}

// TestAddRequestsBeforeRun: requests added before Run wait for it, are
// added once, and a second Run fails.
func TestAddRequestsBeforeRun(t *testing.T) {
	ds := newDataServer(t)
	key := testKey(t, "oracle 1")
	tc := newTestChain(t, keys.PublicKeys{key.PublicKey()})
	n := newNode(t, tc, ds, key, nil)
	tc.request(ds.tls.URL+"/json", nil, 1_0000_0000)
	require.NoError(t, n.s.LoadPending())
	require.NoError(t, n.s.LoadPending()) // seen: not queued twice
	n.s.mu.Lock()
	require.Len(t, n.s.mu.pending, 1)
	n.s.mu.Unlock()

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- n.s.Run(ctx) }()
	tx := receive(t, n.relayed)
	require.True(t, errors.Is(n.s.Run(ctx), ErrRunning))
	cancel()
	require.NoError(t, <-done)
	tc.add(tx)
}

func TestNewValidates(t *testing.T) {
	for name, cfg := range map[string]Config{
		"no ledger": {Relay: func(*transaction.Transaction) error { return nil }, Keys: []*keys.PrivateKey{testKey(t, "k")}},
		"no relay":  {Ledger: &chain.Chain{}, Keys: []*keys.PrivateKey{testKey(t, "k")}},
		"no key":    {Ledger: &chain.Chain{}, Relay: func(*transaction.Transaction) error { return nil }},
	} {
		_, err := New(cfg)
		require.ErrorIs(t, err, ErrConfig, name)
	}
}

// metricValue reads a counter or gauge.
func metricValue(t *testing.T, c prometheus.Metric) float64 {
	var m dto.Metric
	require.NoError(t, c.Write(&m))
	if m.Counter != nil {
		return m.Counter.GetValue()
	}
	return m.Gauge.GetValue()
}
