package network

import (
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

// TestToleranceRing: size errors within one frame end the peer's stay;
// errors spread over more than a frame never do.
func TestToleranceRing(t *testing.T) {
	var tol tolerance
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 3 {
		require.True(t, tol.allow(t0.Add(time.Duration(i)*time.Millisecond), 4, time.Second), "error %d", i)
	}
	require.False(t, tol.allow(t0.Add(3*time.Millisecond), 4, time.Second))

	tol = tolerance{}
	for i := range 100 {
		// One error every 400 ms: 4 of them span more than a second.
		require.True(t, tol.allow(t0.Add(time.Duration(i)*400*time.Millisecond+time.Nanosecond), 4, time.Second), "error %d", i)
	}
}

// pongAfter sends a ping and reports whether the node answered it (the
// messages before it were handled without dropping the peer).
func pongAfter(p *rawPeer) {
	p.t.Helper()
	p.send(message.CmdPing, &payload.Ping{Nonce: 99})
	p.expect(message.CmdPong)
}

// TestTolerateUnknownMPTNodes: getmptdata for nodes we do not have is
// tolerated up to 30 per block time (one validator), then the peer is
// dropped, as neo-go does. The block time is an hour: every request falls
// in one frame whatever the machine's speed.
func TestTolerateUnknownMPTNodes(t *testing.T) {
	var n *node
	n = newNode(t, nodeOpts{restore: true, cfg: func(c *Config) {
		c.TimePerBlock = time.Hour
		c.StateExchange = &StateExchangeConfig{
			WalkNodes: func(h util.Uint256, visit func(util.Uint256, []byte) mpt.WalkAction) error {
				return n.chain.WalkStateNodes(h, visit)
			}}
	}})
	p := dialRaw(t, n, 31)
	for i := range toleratedPerValidator - 1 {
		p.send(message.CmdGetMPTData, &payload.MPTInventory{Hashes: []util.Uint256{{byte(i), 1}}})
	}
	pongAfter(p)
	p.send(message.CmdGetMPTData, &payload.MPTInventory{Hashes: []util.Uint256{{0xff, 1}}})
	p.expectGone()
}

// TestTolerateOutOfWindowExtensibles: payloads for other heights are
// dropped and counted; the 30th within a block time drops the sender.
// (A payload whose window has just ended, ValidBlockEnd = height, is not
// counted; the node here is at genesis, where no such payload exists.)
func TestTolerateOutOfWindowExtensibles(t *testing.T) {
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	n := extNodeWith(t, []util.Uint160{k.ScriptHash()}, nil, func(c *Config) { c.TimePerBlock = time.Hour })
	h := n.chain.BlockHeight()
	p := dialRaw(t, n, 32)
	future := func(i int) *payload.Extensible {
		e := signedExtensible(t, n.srv.cfg.Magic, k, "Oracle", byte(i))
		e.ValidBlockStart, e.ValidBlockEnd = h+10, h+20
		return resign(t, n.srv.cfg.Magic, k, e)
	}
	for i := range toleratedPerValidator - 1 {
		p.send(message.CmdExtensible, future(i))
	}
	pongAfter(p)
	p.send(message.CmdExtensible, future(200))
	p.expectGone()
}

// resign signs e again with k after its fields changed.
func resign(t *testing.T, magic uint32, k *keys.PrivateKey, e *payload.Extensible) *payload.Extensible {
	s := signedExtensible(t, magic, k, e.Category, 0)
	e.Sender = k.ScriptHash()
	sig := k.Sign(e.SignData(magic))
	e.Witness = s.Witness
	e.Witness.InvocationScript = append([]byte{s.Witness.InvocationScript[0], byte(len(sig))}, sig...)
	return e
}
