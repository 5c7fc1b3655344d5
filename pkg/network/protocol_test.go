package network

import (
	"bufio"
	"net"
	"slices"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// rawPeer is a hand-driven peer speaking the wire protocol to a node.
type rawPeer struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

// dialRaw connects to n and completes the handshake.
func dialRaw(t *testing.T, n *node, nonce uint32) *rawPeer {
	c := n.dialConn(t)
	p := &rawPeer{t: t, c: c, r: bufio.NewReader(c)}
	_, err := c.Write(versionFrame(t, n.srv.cfg.Magic, nonce))
	require.NoError(t, err)
	p.send(message.CmdVerack, nil)
	v := p.expect(message.CmdVersion).Payload.(*payload.Version)
	require.Equal(t, n.srv.Nonce(), v.Nonce)
	require.Equal(t, n.srv.cfg.Magic, v.Network)
	require.Equal(t, "/n3d-test/", v.UserAgent)
	h, ok := v.Capabilities.StartHeight()
	require.True(t, ok)
	require.Equal(t, n.chain.BlockHeight(), h)
	bound, ok := addrPortOf(n.srv.Addrs()[0])
	require.True(t, ok)
	require.Equal(t, bound.Port(), v.Capabilities.TCPPort())
	p.expect(message.CmdVerack)
	return p
}

func (p *rawPeer) send(cmd message.Command, pl io.Serializable) {
	m, err := message.New(cmd, pl)
	require.NoError(p.t, err)
	_, err = p.c.Write(m.Bytes(true))
	require.NoError(p.t, err)
}

// expect reads messages until one with cmd arrives (others are skipped).
func (p *rawPeer) expect(cmd message.Command) *message.Message {
	p.t.Helper()
	require.NoError(p.t, p.c.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		m, err := message.Read(p.r)
		require.NoError(p.t, err, "waiting for %s", cmd)
		if m.Command == cmd {
			return m
		}
	}
}

func TestServesRequests(t *testing.T) {
	a := newNode(t, nodeOpts{restore: true})
	var tx *transaction.Transaction
	for i := uint32(1); tx == nil; i++ {
		b, err := a.chain.GetBlockByIndex(i)
		require.NoError(t, err)
		if len(b.Transactions) > 0 {
			tx = b.Transactions[0]
		}
	}
	a.pool.add(tx)
	p := dialRaw(t, a, 1)
	hashAt := func(i uint32) util.Uint256 {
		h, ok := a.chain.GetHeaderHash(i)
		require.True(t, ok)
		return h
	}

	t.Run("ping", func(t *testing.T) {
		p.send(message.CmdPing, &payload.Ping{LastBlockIndex: 7, Nonce: 0xabcdef})
		pong := p.expect(message.CmdPong).Payload.(*payload.Ping)
		require.Equal(t, a.chain.BlockHeight(), pong.LastBlockIndex)
		require.EqualValues(t, 0xabcdef, pong.Nonce)
	})
	t.Run("getheaders", func(t *testing.T) {
		p.send(message.CmdGetHeaders, &payload.GetBlockByIndex{IndexStart: 45, Count: -1})
		hs := p.expect(message.CmdHeaders).Payload.(*payload.Headers).Headers
		require.Len(t, hs, int(a.chain.BlockHeight())-45+1)
		for i, h := range hs {
			require.Equal(t, hashAt(uint32(45+i)), h.Hash())
		}
	})
	t.Run("getblockbyindex", func(t *testing.T) {
		p.send(message.CmdGetBlockByIndex, &payload.GetBlockByIndex{IndexStart: 3, Count: 4})
		for i := uint32(3); i < 7; i++ {
			b := p.expect(message.CmdBlock).Payload.(*block.Block)
			require.Equal(t, hashAt(i), b.Hash())
		}
	})
	t.Run("getblocks", func(t *testing.T) {
		p.send(message.CmdGetBlocks, &payload.GetBlocks{HashStart: hashAt(10), Count: 5})
		inv := p.expect(message.CmdInv).Payload.(*payload.Inventory)
		require.Equal(t, payload.InvBlock, inv.Type)
		require.Equal(t, []util.Uint256{hashAt(11), hashAt(12), hashAt(13), hashAt(14), hashAt(15)}, inv.Hashes)
	})
	t.Run("getdata", func(t *testing.T) {
		unknown := util.Uint256{1, 2, 3}
		p.send(message.CmdGetData, &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{hashAt(20), unknown}})
		require.Equal(t, hashAt(20), p.expect(message.CmdBlock).Payload.(*block.Block).Hash())
		nf := p.expect(message.CmdNotFound).Payload.(*payload.Inventory)
		require.Equal(t, []util.Uint256{unknown}, nf.Hashes)

		p.send(message.CmdGetData, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{unknown, tx.Hash()}})
		require.Equal(t, tx.Hash(), p.expect(message.CmdTransaction).Payload.(*transaction.Transaction).Hash())
		require.Equal(t, []util.Uint256{unknown}, p.expect(message.CmdNotFound).Payload.(*payload.Inventory).Hashes)
	})
	t.Run("mempool", func(t *testing.T) {
		p.send(message.CmdMempool, nil)
		inv := p.expect(message.CmdInv).Payload.(*payload.Inventory)
		require.Equal(t, payload.InvTX, inv.Type)
		require.Equal(t, []util.Uint256{tx.Hash()}, inv.Hashes)
	})
	t.Run("inv requests unknown items once", func(t *testing.T) {
		fresh := util.Uint256{9, 9}
		p.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{tx.Hash(), fresh}})
		gd := p.expect(message.CmdGetData).Payload.(*payload.Inventory)
		require.Equal(t, []util.Uint256{fresh}, gd.Hashes) // the pooled one is known
		// Announced again (by another peer, or this one): not asked twice
		// while the first request is in flight; a block hash on chain is
		// never asked.
		q := dialRaw(t, a, 2)
		q.send(message.CmdInv, &payload.Inventory{Type: payload.InvTX, Hashes: []util.Uint256{fresh}})
		freshBlock := util.Uint256{8, 8}
		q.send(message.CmdInv, &payload.Inventory{Type: payload.InvBlock, Hashes: []util.Uint256{hashAt(3), freshBlock}})
		gd = q.expect(message.CmdGetData).Payload.(*payload.Inventory)
		require.Equal(t, payload.InvBlock, gd.Type)
		require.Equal(t, []util.Uint256{freshBlock}, gd.Hashes)
	})
	t.Run("getaddr", func(t *testing.T) {
		// b is a real node connected to a: a shares b's listening address.
		b := newNode(t, nodeOpts{seeds: []string{a.addr()}})
		require.Eventually(t, func() bool { return b.handshaked() == 1 }, waitFor, 10*time.Millisecond)
		p.send(message.CmdGetAddr, nil)
		addrs := p.expect(message.CmdAddr).Payload.(*payload.AddrList).Addrs
		var got []string
		for i := range addrs {
			got = append(got, addrs[i].AddrPort().String())
		}
		require.True(t, slices.Contains(got, b.addr()), "%v lacks %s", got, b.addr())
	})
}

func TestBlockRelayByInv(t *testing.T) {
	// a has the reference chain up to 30 and b syncs to it; the rest of
	// the blocks then reach a one by one (as from consensus) and b learns
	// of each through a's inv (b never pings: only the relay tells it).
	ref := readSummary(t)
	a := newNode(t, nodeOpts{restore: true, restoreCount: 30})
	b := newNode(t, nodeOpts{seeds: []string{a.addr()}})
	require.Eventually(t, func() bool { return b.chain.BlockHeight() == 30 }, waitFor, 10*time.Millisecond)
	restoreRest(t, a)
	require.Equal(t, ref.Height, a.chain.BlockHeight())
	require.Eventually(t, func() bool { return b.chain.BlockHeight() == ref.Height }, waitFor, 10*time.Millisecond)
	requireSameChain(t, a, b, ref)
}

func TestExtensibleRelay(t *testing.T) {
	got := make(chan *payload.Extensible, 4)
	accept := func(c *Config) {
		c.OnExtensible = func(e *payload.Extensible) error { got <- e; return nil }
	}
	a := newNode(t, nodeOpts{cfg: accept})
	b := newNode(t, nodeOpts{seeds: []string{a.addr()}, cfg: accept})
	c := newNode(t, nodeOpts{seeds: []string{b.addr()}, cfg: func(c *Config) {
		accept(c)
		c.MaxPeers = 1 // c stays behind b only
	}})
	require.Eventually(t, func() bool { return b.handshaked() == 2 && c.handshaked() == 1 }, waitFor, 10*time.Millisecond)
	e := &payload.Extensible{Category: ConsensusCategory, ValidBlockEnd: 100, Data: []byte{1, 2, 3},
		Witness: transaction.Witness{InvocationScript: []byte{0x0c, 0}, VerificationScript: []byte{0x11}}}
	a.srv.RelayExtensible(e)
	for range 2 { // b, then c through b
		select {
		case r := <-got:
			require.Equal(t, e.Hash(), r.Hash())
		case <-time.After(waitFor):
			t.Fatal("extensible payload not relayed")
		}
	}
	select {
	case r := <-got:
		t.Fatalf("payload delivered a third time: %v", r.Hash())
	case <-time.After(200 * time.Millisecond):
	}
}

func TestPingPong(t *testing.T) {
	a := newNode(t, nodeOpts{cfg: func(c *Config) {
		c.PingInterval = 100 * time.Millisecond
		c.PingTimeout = 400 * time.Millisecond
	}})
	t.Run("answered pings keep the peer and update its height", func(t *testing.T) {
		p := dialRaw(t, a, 1)
		for h := uint32(70); h < 73; h++ {
			ping := p.expect(message.CmdPing).Payload.(*payload.Ping)
			require.Equal(t, a.chain.BlockHeight(), ping.LastBlockIndex)
			p.send(message.CmdPong, &payload.Ping{LastBlockIndex: h, Nonce: ping.Nonce})
			require.Eventually(t, func() bool {
				ps := a.srv.ConnectedPeers()
				return len(ps) == 1 && ps[0].Height == h
			}, waitFor, 5*time.Millisecond)
		}
		require.Equal(t, 1, a.handshaked())
		require.NoError(t, p.c.Close())
		require.Eventually(t, func() bool { n, _ := a.srv.PeerCount(); return n == 0 }, waitFor, 5*time.Millisecond)
	})
	t.Run("unanswered ping disconnects", func(t *testing.T) {
		p := dialRaw(t, a, 2)
		p.expect(message.CmdPing)
		start := time.Now()
		closedByPeer(t, p.c, 5*time.Second)
		require.Less(t, time.Since(start), 2*time.Second)
	})
}
