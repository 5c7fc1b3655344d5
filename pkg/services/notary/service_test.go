package notary

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/hash"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/vm/opcode"
)

const magic = 42

type fakeLedger struct {
	height atomic.Uint32
	nodes  keys.PublicKeys
}

func (l *fakeLedger) BlockHeight() uint32                   { return l.height.Load() }
func (l *fakeLedger) NotaryNodes() (keys.PublicKeys, error) { return l.nodes, nil }

func newKey(t *testing.T) *keys.PrivateKey {
	k, err := keys.NewPrivateKey()
	require.NoError(t, err)
	return k
}

func push(sig []byte) []byte { return append([]byte{byte(opcode.PUSHDATA1), 64}, sig...) }

// parties is an m-of-n account.
type parties struct {
	keys  []*keys.PrivateKey
	verif []byte
}

func newParties(t *testing.T, m, n int) *parties {
	p := &parties{}
	var pubs keys.PublicKeys
	for range n {
		k := newKey(t)
		p.keys = append(p.keys, k)
		pubs = append(pubs, k.PublicKey())
	}
	var err error
	p.verif, err = scripts.MultiSigContract(m, pubs)
	require.NoError(t, err)
	return p
}

func (p *parties) main(nonce uint32) *transaction.Transaction {
	return &transaction.Transaction{Nonce: nonce, ValidUntilBlock: 100, Script: []byte{byte(opcode.PUSH1)},
		Signers: []transaction.Signer{{Account: scripts.ScriptHash(p.verif)}, {Account: NotaryHash}},
		Attributes: []transaction.Attribute{{Type: transaction.AttrNotaryAssisted,
			Value: &transaction.NotaryAssisted{NKeys: uint8(len(p.keys))}}},
		Witnesses: []transaction.Witness{{VerificationScript: p.verif}, {}}}
}

// request is party i's request (sig: its signature or another's bytes).
func (p *parties) request(main *transaction.Transaction, sig []byte, nvb uint32, nonce uint32) *payload.P2PNotaryRequest {
	m := main.Copy()
	m.Witnesses[0].InvocationScript = push(sig)
	fb := &transaction.Transaction{Nonce: nonce, ValidUntilBlock: main.ValidUntilBlock, Script: []byte{byte(opcode.RET)},
		Signers: []transaction.Signer{{Account: NotaryHash}, {Account: p.keys[0].ScriptHash()}},
		Attributes: []transaction.Attribute{
			{Type: transaction.AttrNotValidBefore, Value: &transaction.NotValidBefore{Height: nvb}},
			{Type: transaction.AttrConflicts, Value: &transaction.Conflicts{Hash: main.Hash()}},
			{Type: transaction.AttrNotaryAssisted, Value: &transaction.NotaryAssisted{}},
		},
		Witnesses: []transaction.Witness{{InvocationScript: push(make([]byte, 64)), VerificationScript: []byte{}}, {}}}
	return &payload.P2PNotaryRequest{MainTransaction: m, FallbackTransaction: fb}
}

func newService(t *testing.T, notary *keys.PrivateKey, designated ...*keys.PrivateKey) (*Service, *fakeLedger) {
	l := &fakeLedger{}
	for _, k := range designated {
		l.nodes = append(l.nodes, k.PublicKey())
	}
	l.height.Store(10)
	s, err := New(Config{Magic: magic, Keys: []*keys.PrivateKey{notary}, Ledger: l,
		Relay: func(context.Context, *transaction.Transaction) error { return nil }, Registerer: prometheus.NewRegistry()})
	require.NoError(t, err)
	require.NoError(t, s.UpdateKey())
	return s, l
}

// queued returns the transactions waiting for relay.
func queued(s *Service) []*transaction.Transaction {
	var out []*transaction.Transaction
	for {
		select {
		case c := <-s.out:
			out = append(out, c.tx)
		default:
			return out
		}
	}
}

// requireNotarySigned checks tx's Notary witness is notary's signature.
func requireNotarySigned(t *testing.T, tx *transaction.Transaction, notary *keys.PrivateKey) {
	t.Helper()
	for i, s := range tx.Signers {
		if s.Account == NotaryHash {
			w := tx.Witnesses[i]
			require.Empty(t, w.VerificationScript)
			require.Len(t, w.InvocationScript, 66)
			d := hash.Sha256(tx.SignData(magic))
			require.True(t, notary.PublicKey().Verify(w.InvocationScript[2:], d[:]), "Notary witness")
			return
		}
	}
	t.Fatal("no Notary signer")
}

// TestMainCompletedWithEnoughSignatures: a 2-of-3 main transaction is
// queued once two valid signatures arrived (a bad one does not count),
// with the signatures in key order and the Notary witness of the
// designated key; the CheckMultisig of its witness passes.
func TestMainCompletedWithEnoughSignatures(t *testing.T) {
	notary := newKey(t)
	s, _ := newService(t, notary, notary)
	p := newParties(t, 2, 3)
	main := p.main(1)
	d := hash.Sha256(main.SignData(magic))
	sign := func(i int) []byte { return p.keys[i].SignHash(d) }

	s.OnNewRequest(p.request(main, sign(2), 50, 1))
	s.OnNewRequest(p.request(main, newKey(t).SignHash(d), 50, 2)) // not one of the account's keys
	require.Empty(t, queued(s))
	s.OnNewRequest(p.request(main, sign(0), 50, 3))
	out := queued(s)
	require.Len(t, out, 1)
	done := out[0]
	require.Equal(t, main.Hash(), done.Hash())
	_, pubs, ok := scripts.ParseMultiSigContract(p.verif)
	require.True(t, ok)
	var want []byte
	for _, pub := range pubs { // the script's (sorted) key order
		for _, i := range []int{0, 2} {
			if p.keys[i].PublicKey().Equal(pub) {
				want = append(want, push(sign(i))...)
			}
		}
	}
	require.Equal(t, want, done.Witnesses[0].InvocationScript, "signatures in the order of the keys")
	requireNotarySigned(t, done, notary)
	require.Empty(t, main.Witnesses[0].InvocationScript, "the pooled transaction is not changed")
}

// TestFallbackAfterNotValidBefore: a main transaction missing signatures is
// not sent; its fallback is completed once the height reaches its
// NotValidBefore, and a fallback the pool dropped is not.
func TestFallbackAfterNotValidBefore(t *testing.T) {
	notary := newKey(t)
	s, l := newService(t, notary, notary)
	p := newParties(t, 2, 3)
	main := p.main(1)
	d := hash.Sha256(main.SignData(magic))
	r1 := p.request(main, p.keys[0].SignHash(d), 12, 1)
	r2 := p.request(main, p.keys[0].SignHash(d), 13, 2)
	s.OnNewRequest(r1)
	s.OnNewRequest(r2)
	s.OnBlock()
	require.Empty(t, queued(s), "height 10 is below both NotValidBefore")
	s.OnRequestRemoval(r2)
	l.height.Store(13)
	s.OnBlock()
	out := queued(s)
	require.Len(t, out, 1, "r2 was dropped by the pool")
	require.Equal(t, r1.FallbackTransaction.Hash(), out[0].Hash())
	requireNotarySigned(t, out[0], notary)
	require.Equal(t, push(make([]byte, 64)), r1.FallbackTransaction.Witnesses[0].InvocationScript,
		"the pooled fallback is not changed")
}

// TestNotDesignatedSignsNothing: without a designated key the service
// ignores requests; a later designation enables it.
func TestNotDesignatedSignsNothing(t *testing.T) {
	notary := newKey(t)
	s, l := newService(t, notary, newKey(t))
	p := newParties(t, 1, 1)
	main := p.main(1)
	d := hash.Sha256(main.SignData(magic))
	s.OnNewRequest(p.request(main, p.keys[0].SignHash(d), 50, 1))
	s.OnBlock()
	require.Empty(t, queued(s))
	l.nodes = keys.PublicKeys{notary.PublicKey()}
	s.OnBlock()
	s.OnNewRequest(p.request(main, p.keys[0].SignHash(d), 50, 2))
	require.Len(t, queued(s), 1)
}

// TestRunRelaysOnce: Run relays a completed main transaction and marks it
// sent, so the next block does not queue it again.
func TestRunRelaysOnce(t *testing.T) {
	notary := newKey(t)
	l := &fakeLedger{nodes: keys.PublicKeys{notary.PublicKey()}}
	l.height.Store(10)
	relayed := make(chan *transaction.Transaction, 4)
	s, err := New(Config{Magic: magic, Keys: []*keys.PrivateKey{notary}, Ledger: l,
		Relay: func(_ context.Context, tx *transaction.Transaction) error { relayed <- tx; return nil }})
	require.NoError(t, err)
	require.NoError(t, s.UpdateKey())
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- s.Run(ctx) }()
	p := newParties(t, 1, 1)
	main := p.main(1)
	d := hash.Sha256(main.SignData(magic))
	s.OnNewRequest(p.request(main, p.keys[0].SignHash(d), 50, 1))
	tx := <-relayed
	require.Equal(t, main.Hash(), tx.Hash())
	cancel()
	require.NoError(t, <-done)
	s.OnBlock()
	require.Empty(t, queued(s), "a sent main transaction is not queued again")
}

func TestParseSlots(t *testing.T) {
	p := newParties(t, 2, 3)
	single := newKey(t)
	ok := p.main(1)
	_, err := parseSlots(ok, NotaryHash, 3)
	require.NoError(t, err)
	_, err = parseSlots(ok, NotaryHash, 2)
	require.ErrorContains(t, err, "NKeys")

	two := p.main(2)
	two.Signers = append([]transaction.Signer{{Account: single.ScriptHash()}}, two.Signers...)
	two.Witnesses = append([]transaction.Witness{{VerificationScript: single.PublicKey().VerificationScript()}}, two.Witnesses...)
	sl, err := parseSlots(two, NotaryHash, 4)
	require.NoError(t, err)
	require.Equal(t, []witnessKind{kindSignature, kindMultiSig, kindContract}, []witnessKind{sl[0].kind, sl[1].kind, sl[2].kind})
	require.Equal(t, []int{1, 2, 0}, []int{sl[0].left, sl[1].left, sl[2].left})

	for name, edit := range map[string]func(tx *transaction.Transaction){
		"one signer":   func(tx *transaction.Transaction) { tx.Signers, tx.Witnesses = tx.Signers[:1], tx.Witnesses[:1] },
		"no Notary":    func(tx *transaction.Transaction) { tx.Signers[1].Account = single.ScriptHash() },
		"hash":         func(tx *transaction.Transaction) { tx.Signers[0].Account = single.ScriptHash() },
		"contract inv": func(tx *transaction.Transaction) { tx.Witnesses[1].InvocationScript = []byte{1} },
		"inv length":   func(tx *transaction.Transaction) { tx.Witnesses[0].InvocationScript = push(make([]byte, 63)) },
		"custom":       func(tx *transaction.Transaction) { tx.Witnesses[0].VerificationScript = []byte{byte(opcode.PUSH1)} },
	} {
		tx := p.main(3)
		edit(tx)
		_, err := parseSlots(tx, NotaryHash, 3)
		require.Error(t, err, name)
	}
}
