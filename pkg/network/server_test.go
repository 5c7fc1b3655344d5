package network

import (
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/n3d-io/n3d/internal/conformance"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

const waitFor = 15 * time.Second

func TestHandshake(t *testing.T) {
	a := newNode(t, nodeOpts{})
	b := newNode(t, nodeOpts{seeds: []string{a.addr()}})
	require.Eventually(t, func() bool { return a.handshaked() == 1 && b.handshaked() == 1 }, waitFor, 10*time.Millisecond)

	pa := b.srv.ConnectedPeers()
	require.Len(t, pa, 1)
	require.Equal(t, "/n3d-test/", pa[0].UserAgent)
	require.False(t, pa[0].Inbound)
	require.Equal(t, a.srv.Addrs()[0].String(), pa[0].Address)
	pb := a.srv.ConnectedPeers()
	require.Len(t, pb, 1)
	require.True(t, pb[0].Inbound)
	// b announced its listening port; a records it.
	require.Equal(t, b.srv.Addrs()[0].String(), "127.0.0.1:"+itoa(pb[0].Port))
	require.NotEqual(t, a.srv.Nonce(), b.srv.Nonce())
}

// TestCrossedDialsKeepOneConnection: two nodes dial each other at once;
// the duplicate rule keeps the same connection at both ends. On a fake
// clock that does not move, no dial is retried, so a rule that dropped
// both connections would leave the nodes apart for good.
func TestCrossedDialsKeepOneConnection(t *testing.T) {
	mem := newMemNet(t, true)
	a := newNode(t, nodeOpts{mem: mem, host: 1, seeds: []string{mem.addr(2)}})
	b := newNode(t, nodeOpts{mem: mem, host: 2, seeds: []string{mem.addr(1)}})
	settled := func() bool {
		ca, ha := a.srv.PeerCount()
		cb, hb := b.srv.PeerCount()
		return ca == 1 && ha == 1 && cb == 1 && hb == 1
	}
	require.Eventually(t, settled, waitFor, time.Millisecond)
	// Still so after discovery rounds (the clock moved past the retry of
	// the dropped duplicate).
	for range 10 {
		mem.fake.Advance(a.srv.cfg.ProtoTickInterval)
	}
	require.Eventually(t, settled, waitFor, time.Millisecond)
	require.Equal(t, 2, mem.net.Conns(), "one connection, two ends")
}

func TestSelfConnectionBlocked(t *testing.T) {
	self := freeAddr(t)
	a := newNode(t, nodeOpts{listen: self, seeds: []string{self}})
	// A seed that is our own listening address is known as ourselves at
	// once: never dialled, never listed as a peer (getpeers).
	require.Eventually(t, func() bool { return bookState(a.srv, self) == stateSelf }, waitFor, 10*time.Millisecond)
	require.Empty(t, a.srv.BadPeers())
	require.Empty(t, a.srv.UnconnectedPeers())
	conns, _ := a.srv.PeerCount()
	require.Zero(t, conns)

	// A seed naming us otherwise (not an address of ours the server can
	// recognise) is dialled, found to be us by the nonce and not listed.
	name := "localhost:" + strconv.Itoa(a.srv.Addrs()[0].(*net.TCPAddr).Port)
	b := newNode(t, nodeOpts{listen: "127.0.0.1:0", seeds: []string{name}, cfg: func(c *Config) { c.Nonce = a.srv.Nonce() }})
	require.Eventually(t, func() bool { return bookState(b.srv, name) == stateSelf }, waitFor, 10*time.Millisecond)
	require.Empty(t, b.srv.BadPeers())
	require.Empty(t, b.srv.UnconnectedPeers())
	require.Zero(t, b.handshaked())
}

// bookState is the state of addr in s's address book (-1: unknown).
func bookState(s *Server, addr string) addrState {
	s.book.mu.Lock()
	defer s.book.mu.Unlock()
	if e := s.book.m[addr]; e != nil {
		return e.state
	}
	return -1
}

// summary is the reference chain's summary.json.
type summary struct {
	Height         uint32 `json:"height"`
	LastBlockHash  string `json:"last_block_hash"`
	FinalStateRoot string `json:"final_state_root"`
}

func readSummary(t *testing.T) summary {
	raw, err := os.ReadFile(filepath.Join(conformance.Dir(t, "chains", testChain), "summary.json"))
	require.NoError(t, err)
	var s summary
	require.NoError(t, json.Unmarshal(raw, &s))
	return s
}

// requireSameChain checks that b holds a's chain block by block, and that
// both end at the reference's tip and state root.
func requireSameChain(t *testing.T, a, b *node, ref summary) {
	require.Equal(t, ref.Height, b.chain.BlockHeight())
	require.Equal(t, ref.LastBlockHash, b.chain.CurrentBlockHash().String())
	require.Equal(t, ref.FinalStateRoot, b.chain.CurrentStateRoot().String())
	for i := uint32(0); i <= ref.Height; i++ {
		ha, ok := a.chain.GetHeaderHash(i)
		require.True(t, ok)
		hb, ok := b.chain.GetHeaderHash(i)
		require.True(t, ok)
		require.Equal(t, ha, hb, "block %d", i)
		ra, err := a.chain.StateRoot(i)
		require.NoError(t, err)
		rb, err := b.chain.StateRoot(i)
		require.NoError(t, err)
		require.Equal(t, ra.Root, rb.Root, "state root %d", i)
	}
}

func TestSyncFromPeer(t *testing.T) {
	ref := readSummary(t)
	mem := newMemNet(t, false)
	a := newNode(t, nodeOpts{mem: mem, host: 1, restore: true})
	require.Equal(t, ref.Height, a.chain.BlockHeight())
	b := newNode(t, nodeOpts{mem: mem, host: 2, seeds: []string{a.addr()}})
	start := time.Now()
	require.Eventually(t, func() bool { return b.chain.BlockHeight() == ref.Height }, waitFor, 10*time.Millisecond)
	t.Logf("synced %d blocks in %s", ref.Height, time.Since(start))
	requireSameChain(t, a, b, ref)
	require.True(t, b.srv.IsInSync())
}

func TestSyncThroughChain(t *testing.T) {
	// a (restored) ← b ← c: c only knows b, which syncs from a while c
	// syncs from it; c also learns a's address from b (getaddr) and
	// connects to it.
	ref := readSummary(t)
	mem := newMemNet(t, false)
	a := newNode(t, nodeOpts{mem: mem, host: 1, restore: true})
	b := newNode(t, nodeOpts{mem: mem, host: 2, seeds: []string{a.addr()}})
	c := newNode(t, nodeOpts{mem: mem, host: 3, seeds: []string{b.addr()}, cfg: func(c *Config) { c.MinPeers = 1 }})
	require.Eventually(t, func() bool { return c.chain.BlockHeight() == ref.Height }, waitFor, 10*time.Millisecond)
	requireSameChain(t, a, c, ref)
	require.Eventually(t, func() bool { return c.handshaked() == 2 }, waitFor, 10*time.Millisecond)
}

// someTx returns a transaction of the reference chain.
func someTx(t *testing.T, n *node) *transaction.Transaction {
	for i := uint32(1); i <= n.chain.BlockHeight(); i++ {
		b, err := n.chain.GetBlockByIndex(i)
		require.NoError(t, err)
		if len(b.Transactions) > 0 {
			return b.Transactions[0]
		}
	}
	t.Fatal("no transaction in the reference chain")
	return nil
}

func TestTxRelay(t *testing.T) {
	src := openChain(t, refChain(t), true)
	defer src.Close()
	txs := []*transaction.Transaction{}
	for i := uint32(1); i <= src.BlockHeight(); i++ {
		b, err := src.GetBlockByIndex(i)
		require.NoError(t, err)
		txs = append(txs, b.Transactions...)
	}
	require.NotEmpty(t, txs)

	// a ← b ← c in a line; b relays what it receives.
	mem := newMemNet(t, false)
	a := newNode(t, nodeOpts{mem: mem, host: 1})
	b := newNode(t, nodeOpts{mem: mem, host: 2, seeds: []string{a.addr()}})
	c := newNode(t, nodeOpts{mem: mem, host: 3, seeds: []string{b.addr()}})
	b.pool.relay = func(tx *transaction.Transaction) { b.srv.RelayTxs(false, tx.Hash()) }
	require.Eventually(t, func() bool { return b.handshaked() == 2 && c.handshaked() == 1 }, waitFor, 10*time.Millisecond)

	hashes := make([]util.Uint256, len(txs))
	for i, tx := range txs {
		a.pool.add(tx)
		hashes[i] = tx.Hash()
	}
	a.srv.RelayTxs(true, hashes...)
	require.Eventually(t, func() bool { return c.pool.len() == len(txs) }, waitFor, 10*time.Millisecond)
	require.Equal(t, len(txs), b.pool.len())
	for _, h := range hashes {
		got, ok := c.pool.GetTx(h)
		require.True(t, ok)
		require.Equal(t, h, got.Hash())
	}
}

func TestShutdownLeavesNoGoroutine(t *testing.T) {
	base := runtime.NumGoroutine()
	a := newNode(t, nodeOpts{restore: true})
	b := newNode(t, nodeOpts{seeds: []string{a.addr()}})
	c := newNode(t, nodeOpts{seeds: []string{a.addr(), b.addr()}})
	require.Eventually(t, func() bool { return c.handshaked() == 2 && c.chain.BlockHeight() == a.chain.BlockHeight() },
		waitFor, 10*time.Millisecond)
	require.Greater(t, runtime.NumGoroutine(), base+3*4)
	done := make(chan struct{})
	go func() {
		c.stop()
		b.stop()
		a.stop()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(15 * time.Second):
		t.Fatal("shutdown took more than 15 s")
	}
	goroutinesSettle(t, base)
}

func TestReconnectAfterPeerRestart(t *testing.T) {
	mem := newMemNet(t, false)
	aAddr := mem.addr(1)
	a := newNode(t, nodeOpts{mem: mem, host: 1, restore: true})
	b := newNode(t, nodeOpts{mem: mem, host: 2, seeds: []string{aAddr}})
	require.Eventually(t, func() bool { return b.handshaked() == 1 }, waitFor, 10*time.Millisecond)
	// Let b finish syncing first: the test nodes never ping (PingInterval is
	// an hour), so a2 would not learn of blocks b imports after their
	// handshake and the heights below could not meet.
	require.Eventually(t, func() bool { return b.chain.BlockHeight() == a.chain.BlockHeight() }, waitFor, 10*time.Millisecond)
	a.stop()
	require.Eventually(t, func() bool { return b.handshaked() == 0 }, waitFor, 10*time.Millisecond)
	// The seed is back on the same address (with an empty chain this
	// time): b dials it again after its back-off.
	a2 := newNode(t, nodeOpts{mem: mem, host: 1})
	require.Eventually(t, func() bool { return b.handshaked() == 1 && a2.handshaked() == 1 }, waitFor, 10*time.Millisecond)
	// And now b is ahead: a2 syncs from b, which synced from a.
	require.Eventually(t, func() bool { return a2.chain.BlockHeight() == b.chain.BlockHeight() && a2.chain.BlockHeight() > 0 },
		waitFor, 10*time.Millisecond)
}
