package network

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// fakeNotaryPool is a notary request pool keyed by fallback hash whose
// admission is accept.
type fakeNotaryPool struct {
	mu     sync.Mutex
	m      map[util.Uint256]*payload.P2PNotaryRequest
	accept func(r *payload.P2PNotaryRequest) error
}

func newFakeNotaryPool() *fakeNotaryPool {
	return &fakeNotaryPool{m: make(map[util.Uint256]*payload.P2PNotaryRequest)}
}

func (f *fakeNotaryPool) ContainsKey(h util.Uint256) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.m[h]
	return ok
}

func (f *fakeNotaryPool) GetRequest(h util.Uint256) (*payload.P2PNotaryRequest, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	r, ok := f.m[h]
	return r, ok
}

func (f *fakeNotaryPool) add(r *payload.P2PNotaryRequest) error {
	if f.accept != nil {
		if err := f.accept(r); err != nil {
			return err
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[r.FallbackTransaction.Hash()] = r
	return nil
}

// notaryNode is a node relaying notary requests into pool (nil pool:
// P2PSigExtensions off).
func notaryNode(t *testing.T, pool *fakeNotaryPool, seeds ...string) *node {
	return newNode(t, nodeOpts{seeds: seeds, cfg: func(c *Config) {
		if pool != nil {
			c.Notary = &NotaryConfig{Pool: pool, OnRequest: pool.add}
		}
	}})
}

// notaryRequest builds a request following the payload's shape rules;
// nonce tells requests apart.
func notaryRequest(nonce uint32) *payload.P2PNotaryRequest {
	sender, notary := util.Uint160{9}, util.Uint160{0xc1}
	empty := transaction.Witness{InvocationScript: []byte{}, VerificationScript: []byte{}}
	main := &transaction.Transaction{Nonce: nonce, ValidUntilBlock: 100, Script: []byte{0x40},
		Signers:    []transaction.Signer{{Account: sender}, {Account: notary}},
		Attributes: []transaction.Attribute{{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{NKeys: 1}}},
		Witnesses:  []transaction.Witness{empty, empty}}
	dummy := transaction.Witness{InvocationScript: append([]byte{0x0c, 64}, make([]byte, 64)...), VerificationScript: []byte{}}
	fb := &transaction.Transaction{Nonce: nonce, ValidUntilBlock: 100, Script: []byte{0x40},
		Signers: []transaction.Signer{{Account: notary}, {Account: sender}},
		Attributes: []transaction.Attribute{
			{Type: transaction.AttrNotValidBefore, Value: &transaction.NotValidBefore{Height: 50}},
			{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: main.Hash()}},
			{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{}},
		},
		Witnesses: []transaction.Witness{dummy, empty}}
	return &payload.P2PNotaryRequest{MainTransaction: main, FallbackTransaction: fb, Witness: empty}
}

// TestNotaryRequestRelay: a request pooled on one server (as the RPC
// server does) is announced by its fallback hash, fetched by the other
// server (announced to its only peer), handed to its pool and served by
// it on getdata.
func TestNotaryRequestRelay(t *testing.T) {
	poolA, poolB := newFakeNotaryPool(), newFakeNotaryPool()
	a := notaryNode(t, poolA)
	b := notaryNode(t, poolB, a.addr())
	require.Eventually(t, func() bool { return a.handshaked() == 1 && b.handshaked() == 1 }, waitFor, 10*time.Millisecond)
	watcher := dialRaw(t, b, 31)
	require.Eventually(t, func() bool { return b.handshaked() == 2 }, waitFor, 10*time.Millisecond)

	r := notaryRequest(1)
	fb := r.FallbackTransaction.Hash()
	require.NoError(t, poolA.add(r))
	a.srv.RelayNotaryRequest(r)
	require.Eventually(t, func() bool { return poolB.ContainsKey(fb) }, waitFor, 10*time.Millisecond)
	got, _ := poolB.GetRequest(fb)
	require.Equal(t, r.Hash(), got.Hash())

	// B serves it to a peer that asks (whether B's own announcement,
	// sent to a fan-out of its peers, reached this one or not).
	watcher.send(message.CmdGetData, &payload.Inventory{Type: payload.InvP2PNotaryRequest, Hashes: []util.Uint256{fb}})
	served := watcher.expect(message.CmdP2PNotaryRequest).Payload.(*payload.P2PNotaryRequest)
	require.Equal(t, r.Hash(), served.Hash())
	require.Equal(t, r.Witness, served.Witness)

	// An unknown request is answered with notfound.
	missing := util.Uint256{7}
	watcher.send(message.CmdGetData, &payload.Inventory{Type: payload.InvP2PNotaryRequest, Hashes: []util.Uint256{missing}})
	nf := watcher.expect(message.CmdNotFound).Payload.(*payload.Inventory)
	require.Equal(t, []util.Uint256{missing}, nf.Hashes)
}

// TestNotaryRequestRejectedKeepsPeer: a request the pool refuses is
// dropped, its sender kept and nothing announced.
func TestNotaryRequestRejectedKeepsPeer(t *testing.T) {
	pool := newFakeNotaryPool()
	pool.accept = func(*payload.P2PNotaryRequest) error { return errors.New("bad witness") }
	n := notaryNode(t, pool)
	from, other := dialRaw(t, n, 41), dialRaw(t, n, 42)
	require.Eventually(t, func() bool { return n.handshaked() == 2 }, waitFor, 10*time.Millisecond)
	r := notaryRequest(2)
	from.send(message.CmdP2PNotaryRequest, r)
	from.send(message.CmdPing, &payload.Ping{Nonce: 1})
	from.expect(message.CmdPong)
	require.False(t, pool.ContainsKey(r.FallbackTransaction.Hash()))
	require.Equal(t, 2, n.handshaked())
	// other's inv would arrive before the pong of its own ping.
	other.send(message.CmdPing, &payload.Ping{Nonce: 2})
	other.expect(message.CmdPong)
}

// TestNotaryOffDropsPeer: without P2PSigExtensions, an inv, a getdata or
// a request of type 0x50 disconnects the peer (as neo-go does).
func TestNotaryOffDropsPeer(t *testing.T) {
	n := notaryNode(t, nil)
	fb := notaryRequest(3).FallbackTransaction.Hash()
	cases := map[string]func(p *rawPeer){
		"inv": func(p *rawPeer) {
			p.send(message.CmdInv, &payload.Inventory{Type: payload.InvP2PNotaryRequest, Hashes: []util.Uint256{fb}})
		},
		"getdata": func(p *rawPeer) {
			p.send(message.CmdGetData, &payload.Inventory{Type: payload.InvP2PNotaryRequest, Hashes: []util.Uint256{fb}})
		},
		"request": func(p *rawPeer) { p.send(message.CmdP2PNotaryRequest, notaryRequest(3)) },
	}
	nonce := uint32(50)
	for name, send := range cases {
		t.Run(name, func(t *testing.T) {
			nonce++
			p := dialRaw(t, n, nonce)
			send(p)
			p.expectGone()
		})
	}
}
