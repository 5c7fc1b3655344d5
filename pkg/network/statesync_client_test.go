package network

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/blockqueue"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/network/capability"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// fakeSync is a StateSync over memory: headers must come in order and
// link to the previous one; the trie of the sync point is rebuilt with an
// mpt.Restorer (its root taken from trusted, standing in for the header
// the chain's module reads it from); window blocks must come in order
// and match the headers. It becomes inactive once all three are whole
// (where the chain's module would jump to the sync point).
type fakeSync struct {
	interval, window uint32
	trusted          *chain.Chain

	mu       sync.Mutex
	inited   bool
	point    uint32
	headers  []*block.Header // by index, from genesis
	restorer *mpt.Restorer
	leaves   map[string][]byte
	blockH   uint32
	blocks   map[uint32]*block.Block
	initErr  error // what Init returns
}

func newFakeSync(t *testing.T, local, trusted *chain.Chain, interval, window uint32) *fakeSync {
	h0, _ := local.GetHeaderHash(0)
	g, err := local.GetHeader(h0)
	require.NoError(t, err)
	return &fakeSync{interval: interval, window: window, trusted: trusted, headers: []*block.Header{g},
		leaves: map[string][]byte{}, blocks: map[uint32]*block.Block{}}
}

func (f *fakeSync) IsInitialized() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.inited }

func (f *fakeSync) Init(h uint32) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.initErr != nil {
		return f.initErr
	}
	if f.inited {
		return errors.New("fake: initialised twice")
	}
	f.inited = true
	if p := h / f.interval * f.interval; p >= 2*f.interval {
		f.point = p
		f.blockH = p - f.window
	}
	return nil
}

func (f *fakeSync) IsActive() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.inited && f.point != 0 && (f.needHeadersLocked() || f.needMPTLocked() || f.blockH < f.point)
}

func (f *fakeSync) SyncPoint() uint32    { f.mu.Lock(); defer f.mu.Unlock(); return f.point }
func (f *fakeSync) HeaderHeight() uint32 { f.mu.Lock(); defer f.mu.Unlock(); return f.hhLocked() }
func (f *fakeSync) hhLocked() uint32     { return uint32(len(f.headers) - 1) }

// needHeadersLocked: the header above the sync point holds its state
// root (StateRootInHeader), so headers are wanted up to point+1.
func (f *fakeSync) needHeadersLocked() bool { return f.point != 0 && f.hhLocked() <= f.point }
func (f *fakeSync) NeedHeaders() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.needHeadersLocked()
}

func (f *fakeSync) AddHeaders(hs []*block.Header) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, h := range hs {
		top := f.hhLocked()
		if h.Index <= top {
			continue
		}
		if h.Index != top+1 || h.PrevHash != f.headers[top].Hash() {
			return fmt.Errorf("fake: header %d does not follow %d", h.Index, top)
		}
		f.headers = append(f.headers, h)
	}
	return nil
}

func (f *fakeSync) needMPTLocked() bool {
	if f.point == 0 || f.needHeadersLocked() {
		return false
	}
	if f.restorer == nil {
		sr, err := f.trusted.StateRoot(f.point)
		if err != nil {
			panic(err)
		}
		f.restorer, err = mpt.NewRestorer(sr.Root, mpt.Config{Store: storage.NewMemoryStore(),
			Prefix:     byte(storage.DataMPTAux),
			IsNotFound: func(err error) bool { return errors.Is(err, storage.ErrKeyNotFound) }},
			func(k, v []byte) error { f.leaves[string(k)] = bytes.Clone(v); return nil })
		if err != nil {
			panic(err)
		}
	}
	return !f.restorer.Done()
}

func (f *fakeSync) NeedMPTNodes() bool { f.mu.Lock(); defer f.mu.Unlock(); return f.needMPTLocked() }

func (f *fakeSync) UnknownMPTNodes(limit int) []util.Uint256 {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.needMPTLocked() {
		return nil
	}
	return f.restorer.Missing(limit)
}

func (f *fakeSync) MissingMPTNodes() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.restorer == nil {
		return 0
	}
	return f.restorer.Pending()
}

func (f *fakeSync) AddMPTNodes(nodes [][]byte) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.needMPTLocked() {
		return nil
	}
	for _, n := range nodes {
		if _, err := f.restorer.AddNode(n); err != nil {
			return err
		}
	}
	return nil
}

func (f *fakeSync) NeedBlocks() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.point != 0 && !f.needHeadersLocked() && f.blockH < f.point
}

func (f *fakeSync) BlockHeight() uint32 { f.mu.Lock(); defer f.mu.Unlock(); return f.blockH }

// AddBlock is the blockqueue.Ledger side: the next window block.
func (f *fakeSync) AddBlock(b *block.Block) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b.Index != f.blockH+1 || int(b.Index) >= len(f.headers) || b.Hash() != f.headers[b.Index].Hash() {
		return fmt.Errorf("fake: block %d is not the next of the window", b.Index)
	}
	f.blocks[b.Index] = b
	f.blockH++
	return nil
}

var _ StateSync = (*fakeSync)(nil)

// serveState turns on the state exchange serving the node's own trie.
func serveState(c *Config) {
	c.StateExchange = &StateExchangeConfig{WalkNodes: c.Ledger.(*chain.Chain).WalkStateNodes}
}

// waitUntil polls cond until it holds, failing after limit.
func waitUntil(t *testing.T, limit time.Duration, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("no %s within %s", what, limit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// syncingNode is a node at genesis whose state exchange drives fs.
func syncingNode(t *testing.T, fs **fakeSync, trusted *chain.Chain, o nodeOpts, tweak ...func(*fakeSync, *Config)) *node {
	more := o.cfg
	o.cfg = func(c *Config) {
		if more != nil {
			more(c)
		}
		*fs = newFakeSync(t, c.Ledger.(*chain.Chain), trusted, 20, 10)
		q, err := blockqueue.New(blockqueue.Config{Ledger: *fs})
		require.NoError(t, err)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = q.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done })
		c.StateExchange = &StateExchangeConfig{Sync: *fs, Blocks: q, WalkNodes: c.Ledger.(*chain.Chain).WalkStateNodes}
		for _, f := range tweak {
			f(*fs, c)
		}
	}
	return newNode(t, o)
}

// checkSynced: the fake holds the headers up to point+1, the sync point's
// whole state and the window's blocks, all as the source has them.
func checkSynced(t *testing.T, fs *fakeSync, src *chain.Chain) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	require.Equal(t, uint32(40), fs.point)
	require.Greater(t, len(fs.headers), 41)
	for i, h := range fs.headers {
		want, ok := src.GetHeaderHash(uint32(i))
		require.True(t, ok)
		require.Equal(t, want, h.Hash(), "header %d", i)
	}
	sr, err := src.StateRoot(fs.point)
	require.NoError(t, err)
	tv, err := src.TrieAt(sr.Root)
	require.NoError(t, err)
	all, err := tv.Leaves(len(fs.leaves) + 1)
	require.NoError(t, err)
	require.NotEmpty(t, all)
	require.Len(t, fs.leaves, len(all))
	for _, kv := range all {
		require.Equal(t, kv.Value, fs.leaves[string(kv.Key)], "key %x", kv.Key)
	}
	require.Len(t, fs.blocks, 10)
	for i := uint32(31); i <= 40; i++ {
		want, _ := src.GetHeaderHash(i)
		require.Equal(t, want, fs.blocks[i].Hash(), "window block %d", i)
	}
}

// TestStateSyncFromPeer: a node at genesis with a state sync picks the
// sync point 40 (interval 20) from its peer's height 50, fetches the
// headers to 41, the whole trie of block 40 by getmptdata and blocks
// 31..40, and once the module is done the ordinary block sync takes the
// chain to the peer's height.
func TestStateSyncFromPeer(t *testing.T) {
	m := newMemNet(t, false)
	src := newNode(t, nodeOpts{restore: true, mem: m, host: 1, cfg: serveState})
	var fs *fakeSync
	dst := syncingNode(t, &fs, src.chain, nodeOpts{mem: m, host: 2, seeds: []string{m.addr(1)}})
	waitUntil(t, 30*time.Second, func() bool { return !fs.IsActive() && fs.IsInitialized() }, "state sync done")
	checkSynced(t, fs, src.chain)
	waitUntil(t, 30*time.Second, func() bool { return dst.chain.BlockHeight() == src.chain.BlockHeight() },
		"blocks after the state sync")
	require.False(t, dst.srv.ssync.active())
}

// TestStateSyncBypassesBadPeers: of two peers the node meets first, one
// answers getmptdata with nodes it did not ask for (dropped) and one
// never answers (its requests time out and go to others); both serve
// true headers. A good peer arriving later completes the sync.
func TestStateSyncBypassesBadPeers(t *testing.T) {
	m := newMemNet(t, false)
	src := openChain(t, refChain(t), true) // the trusted copy
	var fs *fakeSync
	reg := prometheus.NewRegistry()
	dst := syncingNode(t, &fs, src, nodeOpts{mem: m, host: 2, cfg: func(c *Config) { c.Registerer = reg }})
	junk := dialRawAt(t, dst, 31, 50)
	silent := dialRawAt(t, dst, 32, 50)
	junkAsked, silentAsked := make(chan struct{}), make(chan struct{})
	go junk.serveHeaders(src, func() { close(junkAsked) }, &payload.MPTData{Nodes: [][]byte{{0x04}}})
	go silent.serveHeaders(src, func() { close(silentAsked) }, nil)
	<-junkAsked
	<-silentAsked
	waitUntil(t, 10*time.Second, func() bool { return dst.handshaked() == 1 }, "the junk peer dropped")
	newNode(t, nodeOpts{restore: true, mem: m, host: 3, seeds: []string{m.addr(2)}, cfg: serveState})
	waitUntil(t, 60*time.Second, func() bool { return !fs.IsActive() }, "state sync done")
	checkSynced(t, fs, src)
	require.Positive(t, counter(t, reg, "n3d_statesync_mpt_requests_timedout_total"), "the silent peer's requests timed out")
	require.Positive(t, counter(t, reg, "n3d_statesync_mpt_nodes_received_total"))
	// The driver sets its gauges on its next pass after the module is done.
	waitUntil(t, 10*time.Second, func() bool {
		return gauge(t, reg, "n3d_statesync_stage") == 0 && gauge(t, reg, "n3d_statesync_mpt_nodes_missing") == 0
	}, "state sync gauges back to 0")
}

// dialRawAt is dialRaw with a start height in the version.
func dialRawAt(t *testing.T, n *node, nonce, height uint32) *rawPeer {
	c := n.dialConn(t)
	p := &rawPeer{t: t, c: c, r: bufio.NewReader(c)}
	m, err := message.New(message.CmdVersion, &payload.Version{Network: n.srv.cfg.Magic, Timestamp: uint32(time.Now().Unix()),
		Nonce: nonce, UserAgent: "/raw/", Capabilities: capability.Capabilities{capability.NewFullNode(height)}})
	require.NoError(t, err)
	_, err = c.Write(m.Bytes(true))
	require.NoError(t, err)
	p.send(message.CmdVerack, nil)
	p.expect(message.CmdVersion)
	p.expect(message.CmdVerack)
	return p
}

// serveHeaders answers getheaders from c until the connection closes;
// the first getmptdata calls asked, and each is answered with mpt (nil:
// not answered). It runs in its own goroutine: no test assertions.
func (p *rawPeer) serveHeaders(c *chain.Chain, asked func(), mpt *payload.MPTData) {
	var once sync.Once
	for {
		m, err := message.Read(p.r)
		if err != nil {
			return
		}
		var reply *message.Message
		switch m.Command {
		case message.CmdGetHeaders:
			req := m.Payload.(*payload.GetBlockByIndex)
			var hs payload.Headers
			for i := req.IndexStart; i < req.IndexStart+payload.MaxHeadersCount; i++ {
				h, ok := c.GetHeaderHash(i)
				if !ok {
					break
				}
				hdr, err := c.GetHeader(h)
				if err != nil {
					return
				}
				hs.Headers = append(hs.Headers, hdr)
			}
			reply, err = message.New(message.CmdHeaders, &hs)
		case message.CmdGetMPTData:
			once.Do(asked)
			if mpt != nil {
				reply, err = message.New(message.CmdMPTData, mpt)
			}
		}
		if err != nil {
			return
		}
		if reply != nil {
			if _, err := p.c.Write(reply.Bytes(true)); err != nil && !errors.Is(err, net.ErrClosed) {
				return
			}
		}
	}
}

// counter is the value of counter name in reg (-1 when absent).
func counter(t *testing.T, reg *prometheus.Registry, name string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() == name {
			return mf.GetMetric()[0].GetCounter().GetValue()
		}
	}
	return -1
}

// TestStateSyncInitFailure: a module that cannot start is reported to
// OnFailed once and the stage gauge says so.
func TestStateSyncInitFailure(t *testing.T) {
	m := newMemNet(t, false)
	newNode(t, nodeOpts{restore: true, mem: m, host: 1, cfg: serveState})
	reg := prometheus.NewRegistry()
	failed := make(chan error, 4)
	var fs *fakeSync
	syncingNode(t, &fs, nil, nodeOpts{mem: m, host: 2, seeds: []string{m.addr(1)}}, func(f *fakeSync, c *Config) {
		c.Registerer = reg
		f.initErr = errors.New("drop the database")
		c.StateExchange.OnFailed = func(err error) { failed <- err }
	})
	select {
	case err := <-failed:
		require.ErrorContains(t, err, "drop the database")
	case <-time.After(30 * time.Second):
		t.Fatal("OnFailed not called")
	}
	require.Equal(t, float64(ssFailed), gauge(t, reg, "n3d_statesync_stage"))
	require.Empty(t, failed, "OnFailed called again")
}

// stubSync is a StateSync in the window-blocks stage: the trie is whole,
// so trie nodes are refused as the chain's module refuses them.
type stubSync struct{}

func (stubSync) IsInitialized() bool                { return true }
func (stubSync) Init(uint32) error                  { return nil }
func (stubSync) IsActive() bool                     { return true }
func (stubSync) SyncPoint() uint32                  { return 40 }
func (stubSync) NeedHeaders() bool                  { return false }
func (stubSync) HeaderHeight() uint32               { return 41 }
func (stubSync) AddHeaders([]*block.Header) error   { return nil }
func (stubSync) NeedMPTNodes() bool                 { return false }
func (stubSync) UnknownMPTNodes(int) []util.Uint256 { return nil }
func (stubSync) MissingMPTNodes() int               { return 0 }
func (stubSync) NeedBlocks() bool                   { return true }
func (stubSync) BlockHeight() uint32                { return 30 }
func (stubSync) AddMPTNodes([][]byte) error         { return errors.New("stub: trie nodes were not asked for") }
func (stubSync) Put(*block.Block) error             { return nil }
func (s stubSync) WalkNodes(util.Uint256, func(util.Uint256, []byte) mpt.WalkAction) error {
	return nil
}

// TestLateMPTDataKeepsPeer: a reply to a getmptdata that comes after the
// trie is whole (another peer completed it) is ignored, not held against
// its sender.
func TestLateMPTDataKeepsPeer(t *testing.T) {
	var st stubSync
	n := newNode(t, nodeOpts{cfg: func(c *Config) {
		c.StateExchange = &StateExchangeConfig{Sync: st, Blocks: st, WalkNodes: st.WalkNodes}
	}})
	c1, c2 := net.Pipe()
	defer c1.Close()
	defer c2.Close()
	p := newPeer(n.srv, c1, "")
	node := []byte{0x04} // any bytes: the batch asked for their hash
	y := n.srv.ssync
	y.mu.Lock()
	y.mu.mpt[p] = []*mptReq{{hashes: []util.Uint256{hash.DoubleSha256(node)}, sent: time.Now()}}
	y.mu.Unlock()
	require.NoError(t, y.onMPTData(p, [][]byte{node}))
}
