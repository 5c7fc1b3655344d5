package consensus

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/wallet"
)

// testTimePerBlock keeps the in-process networks fast.
const testTimePerBlock = 150 * time.Millisecond

// privnetWallets are neo-go's privnet wallets (pkg/wallet/testdata) and
// their published passwords: the four standby validators of
// config/protocol.privnet.yml.
var privnetWallets = []struct{ file, password string }{
	{"neogo_wallet1.json", "one"},
	{"neogo_wallet2.json", "two"},
	{"neogo_wallet3.json", "three"},
	{"neogo_wallet4.json", "four"},
}

var validatorKeys = sync.OnceValues(func() ([]*keys.PrivateKey, error) {
	var out []*keys.PrivateKey
	for _, w := range privnetWallets {
		wl, err := openTestWallet(w.file)
		if err != nil {
			return nil, err
		}
		ks, err := KeysFromWallet(wl, w.password)
		if err != nil {
			return nil, err
		}
		if len(ks) != 1 {
			return nil, fmt.Errorf("%s: %d keys", w.file, len(ks))
		}
		out = append(out, ks[0])
	}
	return out, nil
})

func openTestWallet(file string) (*wallet.Wallet, error) {
	return wallet.Open(filepath.Join("..", "wallet", "testdata", file))
}

func loadConfig(t testing.TB, name string) config.Config {
	cfg, err := config.LoadFile(filepath.Join("..", "..", "config", name), "")
	require.NoError(t, err)
	return cfg
}

func testLogger(t testing.TB) *zap.Logger {
	if os.Getenv("CONSENSUS_TEST_LOG") != "" {
		return zaptest.NewLogger(t)
	}
	return zap.NewNop()
}

// testPool is a mempool stand-in: insertion order is priority order.
type testPool struct {
	mu  sync.Mutex
	txs []*transaction.Transaction
}

func (p *testPool) add(txs ...*transaction.Transaction) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.txs = append(p.txs, txs...)
}

func (p *testPool) verified() []*transaction.Transaction {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*transaction.Transaction(nil), p.txs...)
}

func (p *testPool) get(h util.Uint256) (*transaction.Transaction, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, tx := range p.txs {
		if tx.Hash() == h {
			return tx, true
		}
	}
	return nil, false
}

// removeBlock drops the block's transactions, as the mempool does.
func (p *testPool) removeBlock(b *block.Block) {
	p.mu.Lock()
	defer p.mu.Unlock()
	in := map[util.Uint256]bool{}
	for _, tx := range b.Transactions {
		in[tx.Hash()] = true
	}
	kept := p.txs[:0]
	for _, tx := range p.txs {
		if !in[tx.Hash()] {
			kept = append(kept, tx)
		}
	}
	p.txs = kept
}

// testNode is one validator: its chain, pool and (re)startable service.
type testNode struct {
	net     *testNet
	name    string
	key     *keys.PrivateKey
	chain   *chain.Chain
	natives *chain.NativeSet
	pool    *testPool
	reg     *prometheus.Registry // the service's metrics

	muted    atomic.Bool // outgoing payloads are dropped
	unsynced atomic.Bool // relayed blocks do not reach it
	running  atomic.Bool
	run      atomic.Pointer[nodeRun] // the current service, read from any goroutine
	cancel   context.CancelFunc
	done     chan error
	signLog  *FileSignLog // kept across restarts
	syncMu   sync.Mutex   // one catchUpFrom at a time
}

// nodeRun is one run of a node's service and its inbox.
type nodeRun struct {
	svc   *Service
	inbox chan *payload.Extensible
}

// svc returns the node's current service.
func (nd *testNode) svc() *Service { return nd.run.Load().svc }

// testNet is an in-process network: broadcast reaches every running
// node through its inbox (as a P2P server would queue it), blocks are
// relayed to the running nodes, transaction requests are served from
// every pool.
type testNet struct {
	t     *testing.T
	cfg   config.Config
	nodes []*testNode
	clock Clock // of every node (nil: RealClock)

	linksDown atomic.Bool // nothing is delivered, nodes have no peers
	closing   atomic.Bool // the test's cleanup began: chains may be closed
	filter    atomic.Pointer[deliverFunc]
	checker   signChecker

	mu   sync.Mutex // guards all, sent and log
	all  map[util.Uint256]*transaction.Transaction
	sent map[MessageType]int // payloads broadcast, by type
	log  []sentPayload       // every payload broadcast, in order
}

// deliverFunc tells whether a payload from one node reaches another.
type deliverFunc func(from, to *testNode, p *Payload) bool

// sentPayload is a payload a node's service broadcast.
type sentPayload struct {
	from *testNode
	p    *Payload
}

func newTestNet(t *testing.T, cfgName string, keys []*keys.PrivateKey) *testNet {
	n := &testNet{t: t, cfg: loadConfig(t, cfgName), all: map[util.Uint256]*transaction.Transaction{},
		sent: map[MessageType]int{}, checker: signChecker{t: t}}
	for i, k := range keys {
		n.nodes = append(n.nodes, n.newNode(fmt.Sprintf("node%d", i), k))
	}
	return n
}

func (n *testNet) newNode(name string, k *keys.PrivateKey) *testNode {
	proto := n.cfg.ProtocolConfiguration
	ns, err := chain.NewNativeSet(&proto)
	require.NoError(n.t, err)
	c, err := chain.Open(chain.Config{Protocol: proto, Ledger: n.cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: ns, BloomCapacity: 1000})
	require.NoError(n.t, err)
	n.t.Cleanup(func() { _ = c.Close() })
	// Registered after the chain's Close, so it runs before: relays still
	// under way when the test ends may then fail on closed chains.
	n.t.Cleanup(func() { n.closing.Store(true) })
	sl, err := OpenSignLog(filepath.Join(n.t.TempDir(), name+".sign.log"))
	require.NoError(n.t, err)
	n.t.Cleanup(func() { _ = sl.Close() })
	return &testNode{net: n, name: name, key: k, chain: c, natives: ns, pool: new(testPool), signLog: sl,
		reg: prometheus.NewRegistry()}
}

func (nd *testNode) nextBlockValidators() (keys.PublicKeys, error) {
	return nd.chain.NextBlockValidators()
}

func (nd *testNode) config() Config {
	proto := nd.net.cfg.ProtocolConfiguration
	proto.MaxTimePerBlock = 0
	return Config{
		Logger:                  testLogger(nd.net.t).Named(nd.name),
		Protocol:                proto,
		Keys:                    []*keys.PrivateKey{nd.key},
		Ledger:                  nd.chain,
		NextBlockValidators:     nd.nextBlockValidators,
		TimePerBlock:            func() time.Duration { return testTimePerBlock },
		GetVerifiedTransactions: nd.pool.verified,
		GetPooledTransaction:    nd.pool.get,
		VerifyTx:                nd.chain.VerifyTx,
		ProcessBlock:            nd.processBlock,
		Broadcast:               nd.broadcast,
		RequestTx:               nd.requestTx,
		Clock:                   nd.net.clock,
		Registerer:              nd.reg,
		SignLog:                 nd.signLog,
		ConnectedPeers:          nd.connectedPeers,
	}
}

// connectedPeers counts the running nodes linked to this one.
func (nd *testNode) connectedPeers() int {
	if nd.net.linksDown.Load() {
		return 0
	}
	n := 0
	for _, o := range nd.net.nodes {
		if o != nd && o.running.Load() {
			n++
		}
	}
	return n
}

// notifyPeers tells every running service that its peers changed.
func (n *testNet) notifyPeers() {
	for _, o := range n.nodes {
		if o.running.Load() {
			o.svc().NotifyPeers()
		}
	}
}

// metric is the value of the node's counter or gauge name.
func (nd *testNode) metric(name string) float64 {
	mfs, err := nd.reg.Gather()
	require.NoError(nd.net.t, err)
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		m := mf.GetMetric()[0]
		if c := m.GetCounter(); c != nil {
			return c.GetValue()
		}
		return m.GetGauge().GetValue()
	}
	nd.net.t.Fatalf("%s: no metric %s", nd.name, name)
	return 0
}

// start runs a fresh service on the node's chain.
func (nd *testNode) start() { nd.startWith(nd.config()) }

func (nd *testNode) startWith(cfg Config) {
	svc, err := New(cfg)
	require.NoError(nd.net.t, err)
	ctx, cancel := context.WithCancel(context.Background())
	nd.cancel, nd.done = cancel, make(chan error, 1)
	inbox := make(chan *payload.Extensible, 10000)
	nd.run.Store(&nodeRun{svc: svc, inbox: inbox})
	go func() { nd.done <- svc.Run(ctx) }()
	go func() {
		for {
			select {
			case e := <-inbox:
				if err := svc.OnPayload(e); err != nil && !errors.Is(err, ErrNotRunning) {
					nd.net.t.Errorf("%s: payload refused: %v", nd.name, err)
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	nd.running.Store(true)
	nd.net.notifyPeers()
	nd.net.t.Cleanup(nd.stop)
}

// stop stops the service and waits for Run to return nil.
func (nd *testNode) stop() {
	if !nd.running.CompareAndSwap(true, false) {
		return
	}
	nd.cancel()
	select {
	case err := <-nd.done:
		require.NoError(nd.net.t, err)
	case <-time.After(5 * time.Second):
		nd.net.t.Errorf("%s: Run did not return", nd.name)
	}
}

func (nd *testNode) broadcast(e *payload.Extensible) {
	raw := encode(nd.net.t, e)
	p, err := PayloadFromExtensible(uint32(nd.net.cfg.ProtocolConfiguration.Magic), e)
	require.NoError(nd.net.t, err)
	nd.net.checker.check(nd.name, p)
	nd.net.mu.Lock()
	nd.net.sent[p.Msg.Type]++
	nd.net.log = append(nd.net.log, sentPayload{from: nd, p: p})
	nd.net.mu.Unlock()
	if nd.muted.Load() || nd.net.linksDown.Load() {
		return
	}
	deliver := nd.net.filter.Load()
	for _, o := range nd.net.nodes {
		if o == nd || !o.running.Load() || (deliver != nil && !(*deliver)(nd, o, p)) {
			continue
		}
		cp := new(payload.Extensible)
		decode(nd.net.t, raw, cp)
		select {
		case o.run.Load().inbox <- cp:
		default:
			nd.net.t.Errorf("%s: inbox full", o.name)
		}
	}
}

// processBlock adds the agreed block and relays it to the others. A node
// whose chain is more than one block behind (it was down while blocks
// were made) gets the blocks it misses from this one, as P2P sync asks
// a peer that shows a higher block for the ones in between.
func (nd *testNode) processBlock(b *block.Block) error {
	if err := nd.chain.AddBlock(b); err != nil {
		return err
	}
	nd.pool.removeBlock(b)
	for _, o := range nd.net.nodes {
		if o == nd || !o.running.Load() || o.unsynced.Load() {
			continue
		}
		go func() {
			if err := o.catchUpFrom(nd, b.Index); err != nil && !nd.net.closing.Load() {
				nd.net.t.Errorf("relay to %s: %v", o.name, err)
			}
			if o.running.Load() {
				o.svc().NotifyBlock()
			}
		}()
	}
	return nil
}

// catchUpFrom adds the blocks of src from nd's next one up to index
// upTo, copies as the network would deliver them. A block that reached
// nd's chain meanwhile (nd made it, or another relay brought it) must be
// the same. It may run on any goroutine.
func (nd *testNode) catchUpFrom(src *testNode, upTo uint32) error {
	nd.syncMu.Lock()
	defer nd.syncMu.Unlock()
	for h := nd.chain.BlockHeight() + 1; h <= upTo; h++ {
		b, err := src.chain.GetBlockByIndex(h)
		if err != nil {
			return fmt.Errorf("%s block %d: %w", src.name, h, err)
		}
		w := io.NewBufBinWriter()
		b.EncodeBinary(w.BinWriter)
		if w.Err != nil {
			return fmt.Errorf("encoding block %d: %w", h, w.Err)
		}
		cp, err := block.NewBlockFromBytes(w.Bytes())
		if err != nil {
			return fmt.Errorf("decoding block %d: %w", h, err)
		}
		if err := nd.chain.AddBlock(cp); err != nil {
			if !errors.Is(err, chain.ErrAlreadyExists) {
				return fmt.Errorf("block %d: %w", h, err)
			}
			if got, ok := nd.chain.GetHeaderHash(h); !ok || got != b.Hash() {
				return fmt.Errorf("block %d: %s has another one", h, nd.name)
			}
			continue
		}
		nd.pool.removeBlock(cp)
	}
	return nil
}

func (nd *testNode) requestTx(hashes ...util.Uint256) {
	for _, h := range hashes {
		nd.net.mu.Lock()
		tx := nd.net.all[h]
		nd.net.mu.Unlock()
		if tx != nil {
			svc := nd.svc()
			go svc.OnTransaction(tx)
		}
	}
}

// syncFrom adds the blocks of src that nd misses, as P2P sync would.
func (nd *testNode) syncFrom(src *testNode) {
	require.NoError(nd.net.t, nd.catchUpFrom(src, src.chain.BlockHeight()))
}

// validatorIndex is the node's index among the sorted validators.
func (nd *testNode) validatorIndex() int {
	vals, err := nd.nextBlockValidators()
	require.NoError(nd.net.t, err)
	for i, v := range vals {
		if v.Equal(nd.key.PublicKey()) {
			return i
		}
	}
	return -1
}

// setFilter makes deliver decide which payloads reach which node (nil:
// all do).
func (n *testNet) setFilter(deliver deliverFunc) {
	if deliver == nil {
		n.filter.Store(nil)
		return
	}
	n.filter.Store(&deliver)
}

// sentBy returns the payloads nd broadcast from the index-th of the log
// on that match.
func (n *testNet) sentBy(nd *testNode, from int, match func(*Payload) bool) []*Payload {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []*Payload
	for _, sp := range n.log[min(from, len(n.log)):] {
		if sp.from == nd && match(sp.p) {
			out = append(out, sp.p)
		}
	}
	return out
}

// logLen is the number of payloads broadcast so far.
func (n *testNet) logLen() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return len(n.log)
}

// waitSent waits until nd broadcast a payload of type t at height h and
// returns the first.
func (n *testNet) waitSent(nd *testNode, t MessageType, h uint32) *Payload {
	return n.waitSentAfter(nd, 0, func(p *Payload) bool { return p.Msg.Type == t && p.Msg.BlockIndex == h })
}

// waitSentAfter waits until nd broadcast a payload that matches, from
// the from-th of the log on, and returns the first.
func (n *testNet) waitSentAfter(nd *testNode, from int, match func(*Payload) bool) *Payload {
	var got *Payload
	require.Eventually(n.t, func() bool {
		if ps := n.sentBy(nd, from, match); len(ps) > 0 {
			got = ps[0]
		}
		return got != nil
	}, 30*time.Second, time.Millisecond, "%s did not send the payload waited for", nd.name)
	return got
}

func (n *testNet) sentCount(t MessageType) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.sent[t]
}

func (n *testNet) startAll() {
	for _, nd := range n.nodes {
		nd.start()
	}
}

// waitHeight waits until every given node's chain reaches h.
func (n *testNet) waitHeight(h uint32, timeout time.Duration, nodes ...*testNode) {
	if len(nodes) == 0 {
		nodes = n.nodes
	}
	require.Eventually(n.t, func() bool {
		for _, nd := range nodes {
			if nd.chain.BlockHeight() < h {
				return false
			}
		}
		return true
	}, timeout, 10*time.Millisecond, "height %d not reached", h)
}

// requireSameChains checks that the nodes hold the same blocks up to h.
func (n *testNet) requireSameChains(h uint32, nodes ...*testNode) {
	if len(nodes) == 0 {
		nodes = n.nodes
	}
	for i := uint32(1); i <= h; i++ {
		want, ok := nodes[0].chain.GetHeaderHash(i)
		require.True(n.t, ok, "block %d", i)
		for _, nd := range nodes[1:] {
			got, ok := nd.chain.GetHeaderHash(i)
			require.True(n.t, ok, "%s block %d", nd.name, i)
			require.Equal(n.t, want, got, "%s block %d", nd.name, i)
		}
	}
}

// bftTransfer makes a transaction of the standby validators' BFT account
// (which holds the genesis GAS) running a trivial script, signed by the
// first M validators in key order.
func (n *testNet) bftTransfer(nonce uint32, ks []*keys.PrivateKey) *transaction.Transaction {
	pubs := make(keys.PublicKeys, len(ks))
	for i, k := range ks {
		pubs[i] = k.PublicKey()
	}
	m := scripts.BFTThreshold(len(pubs))
	script, err := scripts.MultiSigContract(m, pubs)
	require.NoError(n.t, err)
	tx := &transaction.Transaction{Nonce: nonce, SystemFee: 1_000_000, NetworkFee: 100_000_000,
		ValidUntilBlock: 1000, Script: []byte{0x11}, // PUSH1
		Signers: []transaction.Signer{{Account: scripts.ScriptHash(script), Scopes: transaction.CalledByEntry}}}
	_, ordered, ok := scripts.ParseMultiSigContract(script)
	require.True(n.t, ok)
	data := tx.SignData(uint32(n.cfg.ProtocolConfiguration.Magic))
	var inv []byte
	for _, pub := range ordered[:m] {
		for _, k := range ks {
			if k.PublicKey().Equal(pub) {
				inv = append(inv, opPUSHDATA1, SignatureSize)
				inv = append(inv, k.Sign(data)...)
			}
		}
	}
	tx.Witnesses = []transaction.Witness{{InvocationScript: inv, VerificationScript: script}}
	tx.InvalidateCache()
	n.mu.Lock()
	n.all[tx.Hash()] = tx
	n.mu.Unlock()
	return tx
}
