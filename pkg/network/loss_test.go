package network

import (
	"bufio"
	"io"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"
)

// refTxs returns the transactions of the reference chain.
func refTxs(t *testing.T) []*transaction.Transaction {
	src := openChain(t, refChain(t), true)
	defer src.Close()
	var txs []*transaction.Transaction
	for i := uint32(1); i <= src.BlockHeight(); i++ {
		b, err := src.GetBlockByIndex(i)
		require.NoError(t, err)
		txs = append(txs, b.Transactions...)
	}
	require.NotEmpty(t, txs)
	return txs
}

// dropFirst is an OnTransaction for node n that drops the first arrival
// of every third transaction, as a busy ingress pipeline does when a
// peer's queue is full (the hash is then no longer in flight).
func dropFirst(n **node, txs []*transaction.Transaction) func(uint64, *transaction.Transaction) {
	victims := make(map[util.Uint256]bool)
	for i, tx := range txs {
		if i%3 == 0 {
			victims[tx.Hash()] = true
		}
	}
	var mu sync.Mutex
	return func(_ uint64, tx *transaction.Transaction) {
		mu.Lock()
		drop := victims[tx.Hash()]
		delete(victims, tx.Hash())
		mu.Unlock()
		if !drop {
			(*n).pool.add(tx)
		}
	}
}

// lossyLink is a TCP proxy to target whose target-to-client direction
// drops every other transaction inventory: a link that loses
// announcements.
func lossyLink(t *testing.T, target string) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		conns []net.Conn
	)
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			up, err := net.Dial("tcp", target)
			if err != nil {
				c.Close()
				continue
			}
			mu.Lock()
			conns = append(conns, c, up)
			mu.Unlock()
			wg.Add(2)
			go func() { defer wg.Done(); _, _ = io.Copy(up, c); up.Close() }()
			go func() {
				defer wg.Done()
				defer c.Close()
				r := bufio.NewReader(up)
				for n := 0; ; {
					m, err := message.Read(r)
					if err != nil {
						return
					}
					if inv, ok := m.Payload.(*payload.Inventory); ok && m.Command == message.CmdInv && inv.Type == payload.InvTX {
						if n++; n%2 == 1 {
							continue // lost on the way
						}
					}
					if _, err := c.Write(m.Bytes(false)); err != nil {
						return
					}
				}
			}()
		}
	}()
	return l.Addr().String()
}

// TestNoTxLostOnLossyRelay reproduces the 4+1 neo-bench loss: an RPC-like
// node (src) holds transactions its peers (three validators) must get.
// One validator drops the first delivery of a third of them (a full
// per-peer queue); another is told of every hash first by a peer that
// never answers getdata; the third is linked to src through a link that
// loses every other transaction inventory. Each transaction is announced
// once by src. Every transaction must still reach every validator.
func TestNoTxLostOnLossyRelay(t *testing.T) {
	txs := refTxs(t)
	src := newNode(t, nodeOpts{})
	var v1 *node
	v1 = newNode(t, nodeOpts{seeds: []string{src.addr()}, cfg: func(c *Config) {
		c.OnTransaction = dropFirst(&v1, txs)
	}})
	v2 := newNode(t, nodeOpts{seeds: []string{src.addr()}})
	v3 := newNode(t, nodeOpts{seeds: []string{lossyLink(t, src.addr())}})
	require.Eventually(t, func() bool {
		// The validators may also find each other (getaddr).
		return src.handshaked() == 3 && v1.handshaked() >= 1 && v2.handshaked() >= 1 && v3.handshaked() >= 1
	}, waitFor, 10*time.Millisecond)

	hashes := make([]util.Uint256, len(txs))
	for i, tx := range txs {
		hashes[i] = tx.Hash()
	}
	// A silent peer announces every hash to v2 first and never answers.
	silent := dialRaw(t, v2, 0x5111e47)
	silent.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: hashes})
	silent.expect(message.CmdGetData)

	for _, tx := range txs {
		src.pool.add(tx)
	}
	src.srv.RelayTxs(true, hashes...)
	for i, v := range []*node{v1, v2, v3} {
		require.Eventually(t, func() bool { return v.pool.len() == len(txs) }, waitFor, 10*time.Millisecond,
			"validator %d did not get all %d transactions", i+1, len(txs))
	}
	for _, h := range hashes {
		for _, v := range []*node{v1, v2, v3} {
			require.True(t, v.pool.ContainsTx(h))
		}
	}
}

// getDataFor reads messages until a getdata naming h arrives.
func (p *rawPeer) getDataFor(h util.Uint256) {
	p.t.Helper()
	for {
		inv := p.expect(message.CmdGetData).Payload.(*payload.Inventory)
		if slices.Contains(inv.Hashes, h) {
			return
		}
	}
}

// TestGetDataAskedFromAnotherAnnouncer: a hash announced by two peers is
// asked from the first; when that one does not answer (or answers
// notfound) it is asked from the second, which delivers it. Re-announcement
// by the owner is off (a long threshold), so only the retry can deliver.
//
// The node runs on an in-memory network and a fake clock: the request
// timeout passes when the test advances the clock, once the second
// announcement has been taken.
func TestGetDataAskedFromAnotherAnnouncer(t *testing.T) {
	txs := refTxs(t)
	mem := newMemNet(t, true)
	v := newNode(t, nodeOpts{mem: mem, host: 1, cfg: func(c *Config) { c.TxResendThreshold = 1000 }})
	mute, honest := dialRaw(t, v, 21), dialRaw(t, v, 22)
	require.Eventually(t, func() bool { return v.handshaked() == 2 }, waitFor, time.Millisecond)
	// request inspects the node's getdata record of h.
	record := func(h util.Uint256, cond func(r *request) bool) func() bool {
		return func() bool {
			v.srv.seen.mu.Lock()
			defer v.srv.seen.mu.Unlock()
			r := v.srv.seen.m[h]
			return r != nil && cond(r)
		}
	}

	t.Run("no answer", func(t *testing.T) {
		h := txs[0].Hash()
		mute.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{h}})
		mute.getDataFor(h)
		honest.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{h}})
		require.Eventually(t, record(h, func(r *request) bool { return len(r.others) == 1 }), waitFor, time.Millisecond)
		mem.fake.Advance(v.srv.cfg.requestTimeout())
		honest.getDataFor(h) // after the request timeout
		honest.send(message.CmdTransaction, txs[0])
		require.Eventually(t, func() bool { return v.pool.ContainsTx(h) }, waitFor, 10*time.Millisecond)
	})
	t.Run("notfound", func(t *testing.T) {
		h := txs[1].Hash()
		mute.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{h}})
		mute.getDataFor(h)
		honest.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{h}})
		require.Eventually(t, record(h, func(r *request) bool { return len(r.others) == 1 }), waitFor, time.Millisecond)
		mute.send(message.CmdNotFound, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{h}})
		// notfound expires the request at once: the next retry round
		// (a quarter of the timeout) asks the other announcer.
		require.Eventually(t, record(h, func(r *request) bool { return r.expiry.IsZero() }), waitFor, time.Millisecond)
		mem.fake.Advance(v.srv.cfg.requestTimeout() / 4)
		honest.getDataFor(h)
		honest.send(message.CmdTransaction, txs[1])
		require.Eventually(t, func() bool { return v.pool.ContainsTx(h) }, waitFor, 10*time.Millisecond)
	})
}

// TestTxAgesBackoff: a pooled transaction is due for announcement at
// the threshold age, then at 2, 4, 8 times it; without peers nothing is
// postponed; a transaction that left the pool is forgotten.
func TestTxAgesBackoff(t *testing.T) {
	const th = 5 * time.Second
	a := newTxAges()
	h1, h2 := util.Uint256{1}, util.Uint256{2}
	t0 := time.Unix(1_000_000, 0)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	var dueAt []int
	for s := 0; s <= 45; s++ {
		r := a.scan([]util.Uint256{h1}, at(s), th, true)
		if len(r.due) > 0 {
			require.Equal(t, []util.Uint256{h1}, r.due)
			dueAt = append(dueAt, s)
		}
		if s >= 5 {
			require.Equal(t, 1, r.stale, "second %d", s)
		} else {
			require.Zero(t, r.stale)
		}
	}
	require.Equal(t, []int{5, 10, 20, 40}, dueAt)

	// No peer to tell: due but not announced, and not postponed.
	a.scan([]util.Uint256{h1, h2}, at(50), th, true)
	r := a.scan([]util.Uint256{h1, h2}, at(80), th, false)
	require.Empty(t, r.due)
	require.Equal(t, 2, r.stale)
	require.Equal(t, 80*time.Second, r.oldest)
	r = a.scan([]util.Uint256{h1, h2}, at(81), th, true)
	require.ElementsMatch(t, []util.Uint256{h1, h2}, r.due)

	// h1 left the pool: forgotten; back later, it starts afresh.
	a.scan([]util.Uint256{h2}, at(82), th, true)
	require.NotContains(t, a.m, ageKey(h1))
	r = a.scan([]util.Uint256{h1, h2}, at(83), th, true)
	require.Empty(t, r.due)
	require.Equal(t, 1, r.stale)
}

// TestTxAgesShrink: the ages of a burst that left the pool do not keep
// their map's room: once a quarter of the peak is left, the map is made
// again, with the ages it holds.
func TestTxAgesShrink(t *testing.T) {
	const th = 5 * time.Second
	a := newTxAges()
	t0 := time.Unix(1_000_000, 0)
	burst := make([]util.Uint256, 2*remakeMin)
	for i := range burst {
		burst[i] = util.Uint256{byte(i), byte(i >> 8), byte(i >> 16), 0xB}
	}
	a.scan(burst, t0, th, true)
	require.Len(t, a.m, len(burst))
	a.scan(burst[:len(burst)/4+1], t0.Add(time.Second), th, true)
	require.Zero(t, a.remakes, "above a quarter of the peak")
	r := a.scan(burst[:10], t0.Add(6*time.Second), th, true)
	require.Equal(t, 1, a.remakes)
	require.Len(t, a.m, 10)
	require.Equal(t, 10, a.peak)
	require.Len(t, r.due, 10, "ages kept across the remake")
	require.Equal(t, 10, r.stale)
}

// TestStalePoolReported: a transaction left in the pool is announced
// again to the peers, counted in the stale-transactions gauge and the
// re-announcement counter, and reported by a WARN.
func TestStalePoolReported(t *testing.T) {
	tx := refTxs(t)[0]
	reg := prometheus.NewRegistry()
	core, logs := observer.New(zap.WarnLevel)
	n := newNode(t, nodeOpts{cfg: func(c *Config) {
		c.TxResendThreshold = 1
		c.Registerer = reg
		c.Log = zap.New(core)
	}})
	p := dialRaw(t, n, 31)
	n.pool.add(tx) // pooled, never announced by the pipeline
	inv := p.expect(message.CmdInv).Payload.(*payload.Inventory)
	require.Equal(t, payload.InvTX, inv.Type)
	require.Equal(t, []util.Uint256{tx.Hash()}, inv.Hashes)
	require.Eventually(t, func() bool {
		return logs.FilterMessage("transactions pending in the pool for several blocks").Len() == 1
	}, waitFor, 10*time.Millisecond)
	require.Equal(t, 1.0, metricValue(t, reg, "n3d_p2p_stale_pool_transactions"))
	require.GreaterOrEqual(t, metricValue(t, reg, "n3d_p2p_reannounced_transactions_total"), 1.0)
	require.GreaterOrEqual(t, n.srv.Traffic().Reannounced, uint64(1))
}

// metricValue is the value of a gauge or counter without labels.
func metricValue(t *testing.T, reg *prometheus.Registry, name string) float64 {
	mfs, err := reg.Gather()
	require.NoError(t, err)
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
		m := mf.GetMetric()[0]
		if g := m.GetGauge(); g != nil {
			return g.GetValue()
		}
		return m.GetCounter().GetValue()
	}
	t.Fatalf("metric %s not exported", name)
	return 0
}
