package network

import (
	"bytes"
	"context"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/clock"
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/blockqueue"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/memnet"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
)

// testChain is the reference chain the tests run on.
const testChain = "chain50x2"

// node is an n3d node in-process: a chain on a MemoryStore, its block
// queue and a P2P server on 127.0.0.1.
type node struct {
	t     testing.TB
	chain *chain.Chain
	queue *blockqueue.Queue
	srv   *Server
	pool  *fakePool
	spec  chainSpec
	stop  func()
	mem   *memNet // nil: on TCP
}

// memNet is an in-memory network (pkg/network/memnet) the test nodes of
// one test share, with the clock they run on.
type memNet struct {
	net   *memnet.Network
	clock clock.Clock
	fake  *clock.Fake // the clock when the test steps it, else nil
	mu    sync.Mutex
	raws  int // raw peers' hosts given out
}

// newMemNet returns an in-memory network on the wall clock, or on a
// fake clock the test advances when fake.
func newMemNet(t testing.TB, fake bool) *memNet {
	m := &memNet{clock: clock.Real{}}
	if fake {
		m.fake = clock.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
		m.clock = m.fake
	}
	m.net = memnet.New(memnet.Config{Clock: m.clock, Seed: 1})
	t.Cleanup(m.net.Close)
	return m
}

// hostIP is the address of node host k (from 1).
func hostIP(k int) netip.Addr { return netip.AddrFrom4([4]byte{10, 0, 0, byte(k)}) }

// addr is the listening address of node host k, known before it starts.
func (m *memNet) addr(k int) string { return netip.AddrPortFrom(hostIP(k), 20333).String() }

// rawHost is a new host for a raw test peer (10.0.9.x).
func (m *memNet) rawHost() *memnet.Host {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.raws++
	return m.net.Host(netip.AddrFrom4([4]byte{10, 0, 9, byte(m.raws)}))
}

// chainSpec names a network configuration and a chain dump of it.
type chainSpec struct {
	protocol string // neo-go/n3d YAML config holding the ProtocolConfiguration
	acc      string // .acc dump
}

// refChain is the reference chain of the conformance data.
func refChain(t testing.TB) chainSpec {
	dir := conformance.Dir(t, "chains", testChain)
	return chainSpec{protocol: filepath.Join(dir, "protocol.yml"), acc: filepath.Join(dir, testChain+".acc")}
}

// nodeOpts configure newNode.
type nodeOpts struct {
	spec    *chainSpec // the network (refChain when nil)
	restore bool       // restore the chain dump before starting
	// restoreCount limits the restored blocks (0: all).
	restoreCount uint32
	seeds        []string      // addresses to dial
	listen       string        // listen address (127.0.0.1:0 when empty)
	cfg          func(*Config) // last changes to the server config
	// mem puts the node on an in-memory network, as host (from 1; its
	// listening address is mem.addr(host)); listen is then ignored.
	mem  *memNet
	host int
}

func protocolConfig(t testing.TB, spec chainSpec) config.Config {
	cfg, err := config.LoadFile(spec.protocol, "")
	require.NoError(t, err)
	return cfg
}

// openChain opens the network's chain, restored or at genesis.
func openChain(t testing.TB, spec chainSpec, restore bool) *chain.Chain {
	return openChainN(t, spec, restore, 0)
}

// openChainN opens the network's chain with up to count blocks of the
// dump restored (0: all).
func openChainN(t testing.TB, spec chainSpec, restore bool, count uint32) *chain.Chain {
	cfg := protocolConfig(t, spec)
	natives, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	require.NoError(t, err)
	c, err := chain.Open(chain.Config{Protocol: cfg.ProtocolConfiguration, Ledger: cfg.ApplicationConfiguration.Ledger,
		Store: storage.NewMemoryStore(), Natives: natives, BloomCapacity: 1000})
	require.NoError(t, err)
	if restore {
		acc, err := os.ReadFile(spec.acc)
		require.NoError(t, err)
		_, err = chain.Restore(context.Background(), c, bytes.NewReader(acc), chain.RestoreOptions{Count: count})
		require.NoError(t, err)
	}
	return c
}

// testConfig is a server config with fast timers for loopback tests.
func testConfig(t testing.TB, spec chainSpec, listen string) Config {
	p := protocolConfig(t, spec).ProtocolConfiguration
	if listen == "" {
		listen = "127.0.0.1:0"
	}
	return Config{
		Magic:             uint32(p.Magic),
		Listen:            []ListenAddress{{Address: listen}},
		TimePerBlock:      time.Second,
		DialTimeout:       time.Second,
		HandshakeTimeout:  2 * time.Second,
		ProtoTickInterval: 50 * time.Millisecond,
		PingInterval:      time.Hour,
		PingTimeout:       time.Hour,
		MinPeers:          1,
		MaxPeers:          10,
		AttemptConnPeers:  5,
		UserAgent:         "/n3d-test/",
	}
}

func newNode(t testing.TB, o nodeOpts) *node {
	spec := refChain(t)
	if o.spec != nil {
		spec = *o.spec
	}
	n := &node{t: t, spec: spec, chain: openChainN(t, spec, o.restore, o.restoreCount), pool: newFakePool()}
	var err error
	n.queue, err = blockqueue.New(blockqueue.Config{Ledger: n.chain})
	require.NoError(t, err)
	cfg := testConfig(t, spec, o.listen)
	if o.mem != nil {
		require.NotZero(t, o.host, "a node on a memNet needs its host number")
		n.mem = o.mem
		cfg.Listen = []ListenAddress{{Address: o.mem.addr(o.host)}}
		cfg.Transport = o.mem.net.Host(hostIP(o.host))
		cfg.Clock = o.mem.clock
	}
	cfg.Seeds = o.seeds
	cfg.Ledger, cfg.Blocks, cfg.Pool = n.chain, n.queue, n.pool
	cfg.OnTransaction = func(_ uint64, tx *transaction.Transaction) { n.pool.add(tx) }
	cfg.Log = zaptest.NewLogger(t, zaptest.Level(zap.InfoLevel))
	if o.cfg != nil {
		o.cfg(&cfg)
	}
	n.srv, err = New(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	sub := n.chain.Subscribe(chain.EventBlock, 0)
	var wg sync.WaitGroup
	runErr := make(chan error, 1)
	wg.Add(3)
	go func() { defer wg.Done(); _ = n.queue.Run(ctx) }()
	go func() { defer wg.Done(); runErr <- n.srv.Run(ctx) }()
	go func() {
		defer wg.Done()
		for ev := range sub.C {
			n.srv.RelayBlock(ev.Block)
		}
	}()
	<-n.srv.Ready()
	var once sync.Once
	n.stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-runErr:
				require.NoError(t, err)
			case <-time.After(10 * time.Second):
				t.Fatal("Run did not return within 10 s of cancellation")
			}
			sub.Close()
			wg.Wait()
			require.NoError(t, n.chain.Close())
		})
	}
	t.Cleanup(n.stop)
	return n
}

// restoreRest adds the rest of the dump to n's chain.
func restoreRest(t testing.TB, n *node) {
	acc, err := os.ReadFile(n.spec.acc)
	require.NoError(t, err)
	_, err = chain.Restore(context.Background(), n.chain, bytes.NewReader(acc), chain.RestoreOptions{})
	require.NoError(t, err)
}

// addr is the node's listening address.
func (n *node) addr() string { return n.srv.Addrs()[0].String() }

// dialConn connects a raw test peer to the node (over its transport).
func (n *node) dialConn(t testing.TB) net.Conn {
	t.Helper()
	var (
		c   net.Conn
		err error
	)
	if n.mem != nil {
		c, err = n.mem.rawHost().Dial(context.Background(), n.addr())
	} else {
		c, err = net.Dial("tcp", n.addr())
	}
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	return c
}

// handshaked returns the number of handshaked peers.
func (n *node) handshaked() int {
	_, h := n.srv.PeerCount()
	return h
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	a := l.Addr().String()
	require.NoError(t, l.Close())
	return a
}

// fakePool is a mempool stand-in: it keeps every transaction handed to
// the sink and relays it.
type fakePool struct {
	mu    sync.Mutex
	txs   map[util.Uint256]*transaction.Transaction
	relay func(*transaction.Transaction) // set by the test
}

func newFakePool() *fakePool {
	return &fakePool{txs: make(map[util.Uint256]*transaction.Transaction)}
}

func (f *fakePool) add(tx *transaction.Transaction) {
	f.mu.Lock()
	_, dup := f.txs[tx.Hash()]
	f.txs[tx.Hash()] = tx
	relay := f.relay
	f.mu.Unlock()
	if !dup && relay != nil {
		relay(tx)
	}
}

func (f *fakePool) ContainsTx(h util.Uint256) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.txs[h]
	return ok
}

func (f *fakePool) GetTx(h util.Uint256) (*transaction.Transaction, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	tx, ok := f.txs[h]
	return tx, ok
}

func (f *fakePool) TxHashes() []util.Uint256 {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]util.Uint256, 0, len(f.txs))
	for h := range f.txs {
		out = append(out, h)
	}
	return out
}

func (f *fakePool) len() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.txs)
}

// goroutinesSettle waits until the goroutine count is back to at most
// base (other tests' leftovers aside).
func goroutinesSettle(t testing.TB, base int) {
	t.Helper()
	// Polled here, not with require.Eventually, which runs the condition
	// in a goroutine of its own.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Second)
	for runtime.NumGoroutine() > base {
		select {
		case <-tick.C:
		case <-deadline:
			buf := make([]byte, 1<<20)
			n := runtime.Stack(buf, true)
			t.Fatalf("%d goroutines left (had %d):\n%s", runtime.NumGoroutine(), base, buf[:n])
		}
	}
}

func itoa(n uint16) string { return strconv.Itoa(int(n)) }
