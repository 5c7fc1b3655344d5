package consensus

import (
	"bytes"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/network/payload"
)

// nodeAt returns the node that is validator i of the next block.
func (n *testNet) nodeAt(i int) *testNode {
	for _, nd := range n.nodes {
		if nd.validatorIndex() == i {
			return nd
		}
	}
	n.t.Fatalf("no validator %d", i)
	return nil
}

// A validator that committed at height 1 (only it had the preparations,
// its Commit reached nobody) restarts, its sign log kept, while the
// others have moved to view 1, whose primary it is. It sends the same
// Commit again, proposes nothing and signs no other block; the others
// make block 1 in a later view and it follows.
func TestCommittedValidatorRestartsWithoutSigningAnotherBlock(t *testing.T) {
	n := fourValidators(t)
	x := n.nodeAt(0) // height 1: backup in view 0, primary in view 1
	n.setFilter(func(from, to *testNode, p *Payload) bool {
		switch p.Msg.Type {
		case PrepareResponseType, RecoveryMessageType: // recoveries carry responses
			return to == x
		case CommitType:
			return from != x
		}
		return true
	})
	n.startAll()
	commit := n.waitSent(x, CommitType, 1) // in view 0 unless the machine is slow
	x.stop()
	before := n.sentBy(x, 0, func(p *Payload) bool { return p.Msg.Type == PrepareRequestType })
	// The three others agree to leave view 0.
	require.Eventually(t, func() bool {
		for _, nd := range n.nodes {
			if nd != x && len(n.sentBy(nd, 0, func(p *Payload) bool {
				return p.Msg.Type == ChangeViewType && p.Msg.BlockIndex == 1
			})) == 0 {
				return false
			}
		}
		return true
	}, 30*time.Second, time.Millisecond)
	require.Zero(t, x.chain.BlockHeight())

	n.setFilter(nil)
	mark := n.logLen()
	x.start()
	n.waitHeight(1, 30*time.Second)
	n.requireSameChains(1)

	after := n.sentBy(x, mark, func(p *Payload) bool { return p.Msg.BlockIndex == 1 })
	var resent bool
	for _, p := range after {
		switch p.Msg.Type {
		case PrepareRequestType:
			require.True(t, slices.ContainsFunc(before, func(b *Payload) bool { return bytes.Equal(b.Data, p.Data) }),
				"x proposed a new block at height 1 after its Commit")
		case CommitType:
			require.Equal(t, commit.Data, p.Data, "x signed another Commit at height 1")
			resent = true
		}
	}
	require.True(t, resent, "x did not send its Commit again")
}

// A primary that restarts after its PrepareRequest proposes the same
// block again (same timestamp, nonce and transactions), not a new one.
func TestRestartedPrimaryReissuesItsProposal(t *testing.T) {
	n := fourValidators(t)
	ks, _ := validatorKeys()
	tx := n.bftTransfer(1, ks)
	for _, nd := range n.nodes {
		nd.pool.add(tx)
	}
	p := n.nodeAt(1) // primary of height 1, view 0
	// Nothing reaches the others until p has restarted.
	n.setFilter(func(from, to *testNode, pl *Payload) bool { return false })
	n.startAll()
	req := n.waitSent(p, PrepareRequestType, 1)
	p.stop()
	p.pool = new(testPool) // its pool is lost in the restart
	p.pool.add(n.bftTransfer(2, ks))
	n.setFilter(nil)
	mark := n.logLen()
	p.start()
	again := n.waitSentAfter(p, mark, func(pl *Payload) bool { return pl.Msg.Type == PrepareRequestType })
	require.Equal(t, req.Data, again.Data, "the proposal is re-issued at the start")
	n.waitHeight(1, 30*time.Second)
	n.requireSameChains(1)
	b, err := n.nodes[0].chain.GetBlockByIndex(1)
	require.NoError(t, err)
	require.Len(t, b.Transactions, 1)
	require.Equal(t, tx.Hash(), b.Transactions[0].Hash())
}

// Validators restarted at moments in the middle of rounds (right after
// they sent a proposal, a response or a commit) rejoin, the network goes
// on, and no validator signs a message conflicting with one it sent
// (the net's signChecker).
func TestValidatorsRestartMidRound(t *testing.T) {
	n := fourValidators(t)
	n.startAll()
	n.waitHeight(1, 30*time.Second)
	types := []MessageType{CommitType, PrepareResponseType, PrepareRequestType, CommitType, PrepareResponseType, CommitType}
	for i, typ := range types {
		nd := n.nodes[i%len(n.nodes)]
		h := nd.chain.BlockHeight() + 1
		mark := n.logLen()
		require.Eventually(t, func() bool {
			return len(n.sentBy(nd, mark, func(p *Payload) bool { return p.Msg.Type == typ })) > 0
		}, 60*time.Second, time.Millisecond, "%s sent no %s", nd.name, typ)
		nd.stop()
		other := n.nodes[(i+1)%len(n.nodes)]
		nd.syncFrom(other)
		nd.start()
		n.waitHeight(h+1, 60*time.Second)
	}
	top := n.nodes[0].chain.BlockHeight()
	n.waitHeight(top+1, 60*time.Second)
	for _, nd := range n.nodes {
		nd.stop()
	}
	n.requireSameChains(top + 1)
}

// A validator that was down while the others made blocks restarts with
// none of them: as with P2P sync, the blocks relayed after its restart
// bring its chain up to theirs, and it takes part in the next rounds.
// (The harness once gave a node only a block that was exactly its next
// one: a validator stopped just before a block was made, and synced from
// a peer that did not have it yet, stayed one block behind for good.)
func TestRestartedValidatorCatchesUpMissedBlocks(t *testing.T) {
	n := fourValidators(t)
	n.startAll()
	n.waitHeight(1, 30*time.Second)
	x := n.nodes[0]
	x.stop()
	others := n.nodes[1:]
	h := x.chain.BlockHeight()
	n.waitHeight(h+2, 30*time.Second, others...) // three of four make blocks
	x.start()
	top := n.nodes[1].chain.BlockHeight()
	n.waitHeight(top+1, 30*time.Second)
	for _, nd := range n.nodes {
		nd.stop()
	}
	n.requireSameChains(top + 1)
}

// failingLog refuses every write and counts the attempts.
type failingLog struct{ appends chan MessageType }

var errDiskFull = errors.New("disk full")

func (l failingLog) Append(_ uint32, es ...LogEntry) error {
	var e payload.Extensible
	decodeExtensible(es[len(es)-1].Data, &e)
	l.appends <- MessageType(e.Data[0])
	return errDiskFull
}
func (failingLog) Entries(uint32) []LogEntry { return nil }
func (failingLog) Prune(uint32) error        { return nil }

func decodeExtensible(b []byte, e *payload.Extensible) {
	r := io.NewBinReaderFromBuf(b)
	e.DecodeBinary(r)
}

// A validator whose sign log cannot be written sends nothing it would
// have to record (here: its proposal, tried again at every timeout), so
// a single validator makes no block.
func TestUnrecordedMessagesAreNotSent(t *testing.T) {
	ks, err := validatorKeys()
	require.NoError(t, err)
	n := newTestNet(t, "protocol.privnet.single.yml", []*keys.PrivateKey{ks[0]})
	clock := newFakeClock(time.Now())
	n.clock = clock
	nd := n.nodes[0]
	cfg := nd.config()
	log := failingLog{appends: make(chan MessageType, 10)}
	sent := make(chan MessageType, 10)
	cfg.SignLog = log
	cfg.Broadcast = func(e *payload.Extensible) { sent <- MessageType(e.Data[0]) }
	cfg.ProcessBlock = func(b *block.Block) error {
		t.Errorf("block %d made without a recorded commit", b.Index)
		return nil
	}
	nd.startWith(cfg)
	for range 3 {
		select {
		case typ := <-log.appends:
			require.Equal(t, PrepareRequestType, typ)
		case <-time.After(10 * time.Second):
			t.Fatal("no proposal tried")
		}
		clock.waitPending(t, 1, 0)
		clock.Advance(testTimePerBlock)
	}
	nd.stop()
	require.Empty(t, sent)
	require.Zero(t, nd.chain.BlockHeight())
}

// A validator that committed in view 1 (2 on a slow machine) restarts:
// the change views it recorded bring dBFT back to that view with the
// proposal and its Commit.
func TestRestartRebuildsTheView(t *testing.T) {
	n := fourValidators(t)
	p0 := n.nodeAt(1) // primary of height 1, view 0: silent
	x := n.nodeAt(2)  // backup in views 0 and 1
	n.setFilter(func(from, to *testNode, p *Payload) bool {
		switch {
		case from == p0:
			return false
		case p.Msg.Type == PrepareResponseType || p.Msg.Type == RecoveryMessageType:
			return to == x
		case p.Msg.Type == CommitType:
			return from != x
		}
		return true
	})
	n.startAll()
	commit := n.waitSent(x, CommitType, 1)
	require.Positive(t, commit.Msg.ViewNumber, "view 0 has no proposal")
	x.stop()

	n.setFilter(nil)
	core, logs := observer.New(zap.InfoLevel)
	cfg := x.config()
	cfg.Logger = zap.New(core)
	mark := n.logLen()
	x.startWith(cfg)
	n.waitSentAfter(x, mark, func(p *Payload) bool { return p.Msg.Type == CommitType })
	restored := logs.FilterMessage("consensus state restored from the sign log").All()
	require.Len(t, restored, 1)
	fields := restored[0].ContextMap()
	require.EqualValues(t, commit.Msg.ViewNumber, fields["view"], "dBFT back in the Commit's view")
	require.Equal(t, true, fields["committed"])
	n.waitHeight(1, 30*time.Second)
	n.requireSameChains(1)
	for _, p := range n.sentBy(x, mark, func(p *Payload) bool { return p.Msg.Type == CommitType }) {
		require.Equal(t, commit.Data, p.Data)
	}
}

// A crash may cost a validator the last blocks of its chain (made, not
// yet persisted). Restarted below a height it committed at, with its
// sign log, it sends that same Commit again and signs nothing else there.
func TestRestartBelowACommittedHeight(t *testing.T) {
	n := fourValidators(t)
	n.startAll()
	n.waitHeight(3, 30*time.Second)
	x := n.nodes[0]
	x.stop()
	var commit *Payload
	for _, p := range n.sentBy(x, 0, func(p *Payload) bool { return p.Msg.Type == CommitType }) {
		if p.Msg.BlockIndex <= x.chain.BlockHeight() {
			commit = p
		}
	}
	require.NotNil(t, commit, "x committed to none of its blocks")
	h := commit.Msg.BlockIndex

	// The same key and sign log on a chain that has lost the blocks from h on.
	y := n.newNode("node0-restarted", x.key)
	require.NoError(t, y.signLog.Close())
	y.signLog = x.signLog
	require.NoError(t, y.catchUpFrom(x, h-1))
	n.nodes[0] = y
	// Its first round is what is looked at: the blocks it lost must not
	// come back (the relay's catch-up) before it starts.
	y.unsynced.Store(true)
	mark := n.logLen()
	y.start()
	again := n.waitSentAfter(y, mark, func(p *Payload) bool {
		return p.Msg.Type == CommitType && p.Msg.BlockIndex == h
	})
	require.Equal(t, commit.Data, again.Data)
	for _, nd := range n.nodes {
		nd.stop()
	}
	for _, p := range n.sentBy(y, mark, func(p *Payload) bool { return p.Msg.BlockIndex == h }) {
		if p.Msg.Type == CommitType {
			require.Equal(t, commit.Data, p.Data)
		}
	}
}
