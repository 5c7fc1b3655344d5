package network

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
	"github.com/stretchr/testify/require"
)

// extNode is a node whose extensible admission is the real one over its
// chain's witness check, with allowed as the allowed senders and
// handlers as the local services' categories.
func extNode(t *testing.T, allowed []util.Uint160, handlers map[string]func(*payload.Extensible) error) *node {
	return extNodeWith(t, allowed, handlers, nil)
}

// extNodeWith is extNode with edit applied to the server config.
func extNodeWith(t *testing.T, allowed []util.Uint160, handlers map[string]func(*payload.Extensible) error,
	edit func(*Config)) *node {
	var n *node
	n = newNode(t, nodeOpts{cfg: func(c *Config) {
		if edit != nil {
			edit(c)
		}
		adm, err := NewExtensibleAdmission(ExtensibleConfig{
			Height:  c.Ledger.BlockHeight,
			Senders: func() ([]util.Uint160, error) { return allowed, nil },
			VerifyWitness: func(e *payload.Extensible) error {
				_, err := n.chain.VerifyWitness(e.Sender, e, &e.Witness, 6_000_000)
				return err
			},
			Handlers: handlers,
		})
		require.NoError(t, err)
		c.OnExtensible = adm.Check
	}})
	return n
}

// signedExtensible is a payload of category cat signed by k, valid for
// blocks [0, 100).
func signedExtensible(t *testing.T, magic uint32, k *keys.PrivateKey, cat string, data byte) *payload.Extensible {
	e := &payload.Extensible{Category: cat, ValidBlockEnd: 100, Sender: k.ScriptHash(), Data: []byte{data}}
	sig := k.Sign(e.SignData(magic))
	e.Witness = transaction.Witness{
		InvocationScript:   append([]byte{byte(opcode.PUSHDATA1), byte(len(sig))}, sig...),
		VerificationScript: k.PublicKey().VerificationScript(),
	}
	return e
}

// announce sends an inv of h and then a ping, and reports whether the
// node asked for h before it answered the ping (a peer's messages are
// handled in order and the getdata and the pong share a queue).
func (p *rawPeer) announce(h util.Uint256) bool {
	p.t.Helper()
	p.send(message.CmdInv, &payload.Inventory{Type: payload.InvExtensible, Hashes: []util.Uint256{h}})
	p.send(message.CmdPing, &payload.Ping{Nonce: 77})
	asked := false
	require.NoError(p.t, p.c.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		m, err := message.Read(p.r)
		require.NoError(p.t, err)
		switch m.Command {
		case message.CmdPong:
			return asked
		case message.CmdGetData:
			inv := m.Payload.(*payload.Inventory)
			asked = asked || (inv.Type == payload.InvExtensible && len(inv.Hashes) == 1 && inv.Hashes[0] == h)
		}
	}
}

// expectGone reads until the node closes the connection.
func (p *rawPeer) expectGone() {
	p.t.Helper()
	require.NoError(p.t, p.c.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		_, err := message.Read(p.r)
		if err != nil {
			var ne net.Error
			require.False(p.t, errors.As(err, &ne) && ne.Timeout(), "the node kept the connection: %v", err)
			return
		}
	}
}

// TestRelaysExtensibleOfAnyCategory: a valid payload from an allowed
// sender is relayed whatever its category, although no local service
// handles it (as neo-go does), and served to a peer that asks for it.
func TestRelaysExtensibleOfAnyCategory(t *testing.T) {
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	n := extNode(t, []util.Uint160{k.ScriptHash()}, nil)
	from, to := dialRaw(t, n, 11), dialRaw(t, n, 12)
	require.Eventually(t, func() bool { return n.handshaked() == 2 }, waitFor, 10*time.Millisecond)

	e := signedExtensible(t, n.srv.cfg.Magic, k, "Oracle", 1)
	require.True(t, from.announce(e.Hash()), "the announced payload was not requested")
	from.send(message.CmdExtensible, e)
	inv := to.expect(message.CmdInv).Payload.(*payload.Inventory)
	require.Equal(t, payload.InvExtensible, inv.Type)
	require.Equal(t, []util.Uint256{e.Hash()}, inv.Hashes)
	to.send(message.CmdGetData, inv)
	got := to.expect(message.CmdExtensible).Payload.(*payload.Extensible)
	require.Equal(t, e.Hash(), got.Hash())
	require.Equal(t, "Oracle", got.Category)
	require.False(t, to.announce(e.Hash()), "a payload held is not requested")
}

// TestDropsSenderOfInvalidExtensible: a payload whose witness does not
// verify, or from a sender that is not allowed, disconnects the peer that
// sent it and is not relayed; its hash is not requested again from other
// peers. A payload a category's rule refuses, or one outside its height
// window, is dropped without dropping the peer, and not requested again
// at the same height.
func TestDropsSenderOfInvalidExtensible(t *testing.T) {
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	stranger, err := keys.NewPrivateKey()
	require.NoError(t, err)
	refused := errors.New("not for this round")
	n := extNode(t, []util.Uint160{k.ScriptHash()}, map[string]func(*payload.Extensible) error{
		"StateService": func(*payload.Extensible) error { return refused },
	})
	magic := n.srv.cfg.Magic
	other := dialRaw(t, n, 21)

	t.Run("bad witness", func(t *testing.T) {
		p := dialRaw(t, n, 22)
		e := signedExtensible(t, magic, k, "Oracle", 2)
		e.Witness.InvocationScript[10] ^= 0xff
		p.send(message.CmdExtensible, e)
		p.expectGone()
		require.False(t, other.announce(e.Hash()), "a payload with a bad witness was requested again")
	})
	t.Run("sender not allowed", func(t *testing.T) {
		p := dialRaw(t, n, 23)
		e := signedExtensible(t, magic, stranger, "Oracle", 3)
		p.send(message.CmdExtensible, e)
		p.expectGone()
		require.False(t, other.announce(e.Hash()), "a payload of a stranger was requested again")
	})
	t.Run("refused by its category", func(t *testing.T) {
		p := dialRaw(t, n, 24)
		e := signedExtensible(t, magic, k, "StateService", 4)
		require.True(t, p.announce(e.Hash()))
		p.send(message.CmdExtensible, e)
		// Still connected, and the payload is not asked for again, from
		// it or another announcer.
		require.False(t, p.announce(e.Hash()), "a refused payload was requested again")
		require.False(t, other.announce(e.Hash()), "a refused payload was requested again")
	})
	t.Run("outside its height window", func(t *testing.T) {
		p := dialRaw(t, n, 25)
		e := signedExtensible(t, magic, k, "Oracle", 5)
		e.ValidBlockStart, e.ValidBlockEnd = 10, 20
		e.Witness = signedExtensibleWitness(magic, k, e)
		p.send(message.CmdExtensible, e)
		require.False(t, p.announce(e.Hash()))
		require.False(t, other.announce(e.Hash()))
	})
	// None of these was relayed to the peer that stayed.
	other.send(message.CmdPing, &payload.Ping{Nonce: 1})
	require.NoError(t, other.c.SetReadDeadline(time.Now().Add(5*time.Second)))
	for {
		m, err := message.Read(other.r)
		require.NoError(t, err)
		require.NotEqual(t, message.CmdInv, m.Command, "an invalid payload was relayed")
		if m.Command == message.CmdPong {
			break
		}
	}
}

func signedExtensibleWitness(magic uint32, k *keys.PrivateKey, e *payload.Extensible) transaction.Witness {
	e.InvalidateCache()
	sig := k.Sign(e.SignData(magic))
	return transaction.Witness{
		InvocationScript:   append([]byte{byte(opcode.PUSHDATA1), byte(len(sig))}, sig...),
		VerificationScript: k.PublicKey().VerificationScript(),
	}
}

// TestRejectCache: an invalid payload stays refused; another is refused
// only at the height it was refused at; the oldest entry goes first.
func TestRejectCache(t *testing.T) {
	c := newRejectCache()
	a, b := util.Uint256{1}, util.Uint256{2}
	c.put(a, 5, true)
	c.put(b, 5, false)
	require.True(t, c.has(a, 5))
	require.True(t, c.has(a, 6))
	require.True(t, c.has(b, 5))
	require.False(t, c.has(b, 6))
	require.False(t, c.has(util.Uint256{3}, 5))
	for i := range maxRejected {
		c.put(util.Uint256{0xff, byte(i), byte(i >> 8)}, 5, true)
	}
	require.False(t, c.has(a, 5), "the oldest entry was not evicted")
	require.Len(t, c.m, maxRejected)
	require.Len(t, c.order, maxRejected)
}

// TestExtensibleAdmissionEarly: a payload valid from the next block on
// reaches its category's handler (which may keep it) but is not relayed;
// one of a category nobody handles is refused; the generic checks come
// first either way.
func TestExtensibleAdmissionEarly(t *testing.T) {
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	var seen []string
	witnessOK := true
	adm, err := NewExtensibleAdmission(ExtensibleConfig{
		Height:  func() uint32 { return 7 },
		Senders: func() ([]util.Uint160, error) { return []util.Uint160{k.ScriptHash()}, nil },
		VerifyWitness: func(*payload.Extensible) error {
			if !witnessOK {
				return errors.New("bad witness")
			}
			return nil
		},
		Handlers: map[string]func(*payload.Extensible) error{
			"StateService": func(e *payload.Extensible) error { seen = append(seen, e.Category); return nil },
		},
	})
	require.NoError(t, err)
	pl := func(cat string, start, end uint32) *payload.Extensible {
		return &payload.Extensible{Category: cat, ValidBlockStart: start, ValidBlockEnd: end, Sender: k.ScriptHash()}
	}
	require.ErrorIs(t, adm.Check(pl("StateService", 8, 20)), ErrExtensibleNotValidNow)
	require.Equal(t, []string{"StateService"}, seen)
	require.ErrorIs(t, adm.Check(pl("Oracle", 8, 20)), ErrExtensibleNotValidNow)
	require.ErrorIs(t, adm.Check(pl("StateService", 9, 20)), ErrExtensibleNotValidNow)
	require.ErrorIs(t, adm.Check(pl("StateService", 0, 7)), ErrExtensibleNotValidNow)
	require.Len(t, seen, 1)
	require.NoError(t, adm.Check(pl("Oracle", 7, 8)))
	require.NoError(t, adm.Check(pl("StateService", 0, 8)))
	require.Len(t, seen, 2)
	witnessOK = false
	require.ErrorIs(t, adm.Check(pl("StateService", 8, 20)), ErrInvalidExtensible)
	require.Len(t, seen, 2)
	other := pl("Oracle", 0, 8)
	other.Sender = util.Uint160{1}
	require.ErrorIs(t, adm.Check(other), ErrInvalidExtensible)
}
