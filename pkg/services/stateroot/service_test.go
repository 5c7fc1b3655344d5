package stateroot

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/smartcontract/scripts"
	"github.com/n3d-io/n3d/pkg/util"
	"github.com/stretchr/testify/require"
)

const testMagic = 42

// fakeLedger is a chain of height blocks whose local root i is {i}, with
// fixed state validators.
type fakeLedger struct {
	mu        sync.Mutex
	height    uint32
	svs       keys.PublicKeys
	validated map[uint32]*chain.StateRoot
}

func newFakeLedger(height uint32, svs keys.PublicKeys) *fakeLedger {
	sorted := svs.Copy()
	sorted.Sort()
	return &fakeLedger{height: height, svs: sorted, validated: map[uint32]*chain.StateRoot{}}
}

func localRoot(i uint32) util.Uint256 { return util.Uint256{byte(i), byte(i >> 8), 0xaa} }

func (l *fakeLedger) BlockHeight() uint32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.height
}

func (l *fakeLedger) setHeight(h uint32) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.height = h
}

func (l *fakeLedger) StateRoot(i uint32) (*chain.StateRoot, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if i > l.height {
		return nil, chain.ErrNotFound
	}
	if sr := l.validated[i]; sr != nil {
		return sr, nil
	}
	return &chain.StateRoot{Index: i, Root: localRoot(i)}, nil
}

func (l *fakeLedger) AddValidatedStateRoot(sr *chain.StateRoot) error {
	if sr.Root != localRoot(sr.Index) {
		return fmt.Errorf("%w: %d", chain.ErrStateRootMismatch, sr.Index)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.validated[sr.Index] == nil {
		l.validated[sr.Index] = sr
	}
	return nil
}

func (l *fakeLedger) StateValidators(uint32) (keys.PublicKeys, error) { return l.svs.Copy(), nil }

func (l *fakeLedger) root(i uint32) *chain.StateRoot {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.validated[i]
}

func newKeys(t *testing.T, n int) ([]*keys.PrivateKey, keys.PublicKeys) {
	var ks []*keys.PrivateKey
	var pubs keys.PublicKeys
	for range n {
		k, err := keys.NewPrivateKey()
		require.NoError(t, err)
		ks = append(ks, k)
		pubs = append(pubs, k.PublicKey())
	}
	return ks, pubs
}

// network is n validators, each with its own ledger and service, whose
// broadcasts reach the others' OnPayload at once (in the broadcaster's
// goroutine) and are recorded.
type network struct {
	t        *testing.T
	ledgers  []*fakeLedger
	services []*Service
	mu       sync.Mutex
	sent     []*payload.Extensible
	drop     func(from int, e *payload.Extensible) bool // optional
	rootOut  chan struct{}                              // signalled when a StateRoot message is delivered
}

func newNetwork(t *testing.T, ks []*keys.PrivateKey, svs keys.PublicKeys, height uint32, clock Clock) *network {
	n := &network{t: t, rootOut: make(chan struct{}, 16)}
	for i, k := range ks {
		l := newFakeLedger(height, svs)
		s, err := New(Config{Magic: testMagic, Ledger: l, Keys: []*keys.PrivateKey{k}, Clock: clock,
			TimePerBlock: func() time.Duration { return time.Second },
			Broadcast:    func(e *payload.Extensible) { n.deliver(i, e) }})
		require.NoError(t, err)
		n.ledgers = append(n.ledgers, l)
		n.services = append(n.services, s)
	}
	return n
}

func (n *network) deliver(from int, e *payload.Extensible) {
	n.mu.Lock()
	n.sent = append(n.sent, e)
	drop := n.drop != nil && n.drop(from, e)
	n.mu.Unlock()
	if drop {
		return
	}
	for i, s := range n.services {
		if i != from {
			require.NoError(n.t, s.OnPayload(e))
		}
	}
	if m, err := DecodeMessage(e.Data); err == nil && m.Type == RootT {
		n.rootOut <- struct{}{}
	}
}

func (n *network) count(typ MessageType) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	c := 0
	for _, e := range n.sent {
		m, err := DecodeMessage(e.Data)
		require.NoError(n.t, err)
		if m.Type == typ {
			c++
		}
	}
	return c
}

func requireValidated(t *testing.T, l *fakeLedger, i uint32) {
	sr := l.root(i)
	require.NotNil(t, sr, "root %d not validated", i)
	require.NoError(t, verifyRoot(testMagic, sr, l.svs))
}

func TestOneValidator(t *testing.T) {
	ks, svs := newKeys(t, 1)
	n := newNetwork(t, ks, svs, 5, newFakeClock())
	n.services[0].onBlocks()
	requireValidated(t, n.ledgers[0], 5)
	require.Equal(t, 1, n.count(RootT))
	require.Zero(t, n.count(VoteT))
	w := n.ledgers[0].root(5).Witnesses[0]
	verif, err := scripts.DefaultMultiSigContract(svs)
	require.NoError(t, err)
	require.Equal(t, verif, w.VerificationScript)
	require.Len(t, w.InvocationScript, 2+SignatureLen)
}

func TestNotSyncedSignsNothing(t *testing.T) {
	ks, svs := newKeys(t, 1)
	l := newFakeLedger(5, svs)
	synced := false
	var sent []*payload.Extensible
	s, err := New(Config{Magic: testMagic, Ledger: l, Keys: ks, Clock: newFakeClock(), Synced: func() bool { return synced },
		Broadcast: func(e *payload.Extensible) { sent = append(sent, e) }})
	require.NoError(t, err)
	s.onBlocks()
	require.Empty(t, sent)
	require.Nil(t, l.root(5))
	synced = true
	l.setHeight(6)
	s.onBlocks()
	require.Len(t, sent, 1)
	requireValidated(t, l, 6)
	synced = false // asked no more once in sync
	l.setHeight(7)
	s.onBlocks()
	requireValidated(t, l, 7)
}

func TestFourValidators(t *testing.T) {
	ks, svs := newKeys(t, 4)
	n := newNetwork(t, ks, svs, 9, newFakeClock())
	for _, s := range n.services {
		s.onBlocks()
	}
	for _, l := range n.ledgers {
		requireValidated(t, l, 9)
		sigs, ok := parseSignatures(l.root(9).Witnesses[0].InvocationScript)
		require.True(t, ok)
		require.Len(t, sigs, 3, "m = 3 of 4")
	}
	require.Equal(t, 1, n.count(RootT), "one sender: validator 9 mod 4")
	// The sender needs the votes of two others; who signs after the root is
	// out does not vote (as neo-go), so 2 or 3 votes depending on where the
	// sender is in the signing order.
	votes := n.count(VoteT)
	require.True(t, votes == 2 || votes == 3, "%d votes", votes)

	// The next blocks, validators signing in another order.
	for _, l := range n.ledgers {
		l.setHeight(11)
	}
	for i := 3; i >= 0; i-- {
		n.services[i].onBlocks()
	}
	for _, l := range n.ledgers {
		requireValidated(t, l, 10)
		requireValidated(t, l, 11)
	}
	require.Equal(t, 3, n.count(RootT))
}

// TestResendRotatesSender: the sender of block 8 (8 mod 4 = 0) is silent;
// resent votes make the next validator the sender.
func TestResendRotatesSender(t *testing.T) {
	ks, svs := newKeys(t, 4)
	clock := newFakeClock()
	n := newNetwork(t, ks, svs, 8, clock)
	sorted := svs.Copy()
	sorted.Sort()
	silent := -1
	for i, k := range ks {
		if k.PublicKey().Equal(sorted[0]) {
			silent = i
		}
	}
	n.drop = func(from int, _ *payload.Extensible) bool { return from == silent }
	var ctx, cancel = context.WithCancel(context.Background())
	done := make(chan error, 1)
	active := n.services[(silent+1)%4]
	go func() { done <- active.Run(ctx) }()
	defer func() {
		cancel()
		require.NoError(t, <-done)
	}()
	waitFor(t, clock.waiting) // the active validator's vote is out, its resend scheduled
	for i, s := range n.services {
		if s != active && i != silent {
			s.onBlocks()
		}
	}
	n.services[silent].onBlocks()
	require.Nil(t, n.ledgers[(silent+1)%4].root(8), "validator 0 sends, but it is cut off")
	// Each resend moves the sender one validator back: (8 - retries) mod 4.
	for resends := 0; ; resends++ {
		require.Less(t, resends, maxRetries, "no root after every resend")
		clock.Advance(time.Minute)
		select {
		case <-n.rootOut:
			requireValidated(t, n.ledgers[(silent+1)%4], 8)
			for i, l := range n.ledgers {
				if i != silent {
					requireValidated(t, l, 8)
				}
			}
			return
		case <-clock.waiting: // resent, next resend scheduled
		case <-time.After(10 * time.Second):
			t.Fatal("timed out")
		}
	}
}

func waitFor(t *testing.T, c <-chan struct{}) {
	select {
	case <-c:
	case <-time.After(10 * time.Second):
		t.Fatal("timed out")
	}
}

func signedRoot(t *testing.T, ks []*keys.PrivateKey, svs keys.PublicKeys, index uint32, root util.Uint256) *chain.StateRoot {
	sr := &chain.StateRoot{Index: index, Root: root}
	sorted := svs.Copy()
	sorted.Sort()
	var sigs [][]byte
	for _, pub := range sorted {
		for _, k := range ks {
			if k.PublicKey().Equal(pub) && len(sigs) < scripts.BFTThreshold(len(svs)) {
				sigs = append(sigs, k.Sign(RootSignData(testMagic, sr)))
			}
		}
	}
	w, err := rootWitness(sorted, sigs)
	require.NoError(t, err)
	sr.Witnesses = append(sr.Witnesses, w)
	return sr
}

func TestRejects(t *testing.T) {
	ks, svs := newKeys(t, 4)
	l := newFakeLedger(20, svs)
	s, err := New(Config{Magic: testMagic, Ledger: l})
	require.NoError(t, err)
	good := signedRoot(t, ks, svs, 20, localRoot(20))
	payloadOf := func(k *keys.PrivateKey, m *Message) *payload.Extensible {
		e, err := newExtensible(testMagic, k, 20, 30, m)
		require.NoError(t, err)
		return e
	}

	outsider, _ := newKeys(t, 1)
	require.ErrorIs(t, s.OnPayload(payloadOf(outsider[0], &Message{Type: RootT, Root: good})), ErrInvalidPayload)

	e := payloadOf(ks[0], &Message{Type: RootT, Root: good})
	e.Witness.InvocationScript = payloadOf(ks[0], &Message{Type: RootT, Root: signedRoot(t, ks, svs, 19, localRoot(19))}).Witness.InvocationScript
	require.ErrorIs(t, s.OnPayload(e), ErrInvalidPayload, "witness of another payload")
	e = payloadOf(ks[0], &Message{Type: RootT, Root: good})
	e.Witness.VerificationScript = ks[1].PublicKey().VerificationScript()
	require.ErrorIs(t, s.OnPayload(e), ErrInvalidPayload, "another key's script")

	forged := signedRoot(t, ks, svs, 20, localRoot(20))
	forged.Witnesses[0].InvocationScript = signedRoot(t, ks, svs, 20, util.Uint256{1}).Witnesses[0].InvocationScript
	require.ErrorIs(t, s.OnPayload(payloadOf(ks[0], &Message{Type: RootT, Root: forged})), ErrInvalidPayload)
	few := signedRoot(t, ks[:2], svs, 20, localRoot(20))
	require.ErrorIs(t, s.OnPayload(payloadOf(ks[0], &Message{Type: RootT, Root: few})), ErrInvalidPayload, "2 of 4")
	other, otherPubs := newKeys(t, 4)
	require.ErrorIs(t, s.OnPayload(payloadOf(ks[0], &Message{Type: RootT, Root: signedRoot(t, other, otherPubs, 20, localRoot(20))})),
		ErrInvalidPayload, "signed by others")

	bad := payloadOf(ks[0], &Message{Type: RootT, Root: good})
	bad.Data = []byte{7}
	bad.InvalidateCache()
	bad.Witness.InvocationScript = pushSignatures(ks[0].Sign(bad.SignData(testMagic)))
	require.ErrorIs(t, s.OnPayload(bad), ErrInvalidMessage)

	late, err := newExtensible(testMagic, ks[0], 5, 20, &Message{Type: RootT, Root: good})
	require.NoError(t, err)
	require.ErrorIs(t, s.OnPayload(late), ErrNotValidNow)
	ahead := signedRoot(t, ks, svs, 21, localRoot(21))
	require.ErrorIs(t, s.OnPayload(payloadOf(ks[0], &Message{Type: RootT, Root: ahead})), ErrNotValidNow)
	farAhead, err := newExtensible(testMagic, ks[0], 22, 30, &Message{Type: RootT, Root: signedRoot(t, ks, svs, 22, localRoot(22))})
	require.NoError(t, err)
	require.ErrorIs(t, s.OnPayload(farAhead), ErrNotValidNow)
	// A root that comes just before its block is checked, kept and stored
	// when the block arrives.
	early, err := newExtensible(testMagic, ks[0], 21, 30, &Message{Type: RootT, Root: ahead})
	require.NoError(t, err)
	require.ErrorIs(t, s.OnPayload(early), ErrNotValidNow)
	earlyBad, err := newExtensible(testMagic, ks[0], 21, 30, &Message{Type: RootT, Root: few})
	require.NoError(t, err)
	require.ErrorIs(t, s.OnPayload(earlyBad), ErrNotValidNow, "index 20 in a payload from 21")
	earlyVote, err := newExtensible(testMagic, ks[0], 21, 30, &Message{Type: VoteT, Vote: &Vote{Height: 21}})
	require.NoError(t, err)
	require.ErrorIs(t, s.OnPayload(earlyVote), ErrNotValidNow)
	forgedEarly := signedRoot(t, ks, svs, 21, localRoot(21))
	forgedEarly.Witnesses[0].InvocationScript = few.Witnesses[0].InvocationScript
	e21, err := newExtensible(testMagic, ks[0], 21, 30, &Message{Type: RootT, Root: forgedEarly})
	require.NoError(t, err)
	require.ErrorIs(t, s.OnPayload(e21), ErrInvalidPayload)
	require.Nil(t, l.root(21))
	l.setHeight(21)
	s.onBlocks()
	require.Equal(t, ahead, l.root(21))
	l.setHeight(20)

	mismatch := signedRoot(t, ks, svs, 20, util.Uint256{9})
	require.NoError(t, s.OnPayload(payloadOf(ks[0], &Message{Type: RootT, Root: mismatch})), "logged, not the sender's fault")
	require.Nil(t, l.root(20))
	require.NoError(t, s.OnPayload(payloadOf(ks[0], &Message{Type: RootT, Root: good})))
	require.Equal(t, good, l.root(20))
}

func TestRejectVotes(t *testing.T) {
	ks, svs := newKeys(t, 4)
	sorted := svs.Copy()
	sorted.Sort()
	keyAt := func(i int) *keys.PrivateKey {
		for _, k := range ks {
			if k.PublicKey().Equal(sorted[i]) {
				return k
			}
		}
		return nil
	}
	l := newFakeLedger(20, svs)
	s, err := New(Config{Magic: testMagic, Ledger: l, Keys: []*keys.PrivateKey{keyAt(0)}, Clock: newFakeClock(),
		Broadcast: func(*payload.Extensible) {}})
	require.NoError(t, err)
	s.onBlocks() // signs 20: votes of 20 are checked at once
	vote := func(from *keys.PrivateKey, idx int32, sig []byte) *payload.Extensible {
		e, err := newExtensible(testMagic, from, 20, 30, &Message{Type: VoteT, Vote: &Vote{ValidatorIndex: idx, Height: 20, Signature: sig}})
		require.NoError(t, err)
		return e
	}
	sr := &chain.StateRoot{Index: 20, Root: localRoot(20)}
	sig1 := keyAt(1).Sign(RootSignData(testMagic, sr))
	require.ErrorIs(t, s.OnPayload(vote(keyAt(1), 2, sig1)), ErrInvalidPayload, "index of another validator")
	require.ErrorIs(t, s.OnPayload(vote(keyAt(1), 4, sig1)), ErrInvalidPayload, "index out of range")
	require.ErrorIs(t, s.OnPayload(vote(keyAt(1), 1, keyAt(2).Sign(RootSignData(testMagic, sr)))), ErrInvalidPayload, "bad signature")
	require.NoError(t, s.OnPayload(vote(keyAt(1), 1, sig1)))
	digest := sha256.Sum256(RootSignData(testMagic, sr))
	require.True(t, sorted[1].Verify(sig1, digest[:]))
}

func TestNewChecksConfig(t *testing.T) {
	_, err := New(Config{})
	require.ErrorIs(t, err, ErrBadConfig)
	ks, svs := newKeys(t, 1)
	_, err = New(Config{Ledger: newFakeLedger(1, svs), Keys: ks})
	require.ErrorIs(t, err, ErrBadConfig)
}
