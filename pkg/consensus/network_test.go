package consensus

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
)

func fourValidators(t *testing.T) *testNet {
	ks, err := validatorKeys()
	require.NoError(t, err)
	return newTestNet(t, "protocol.privnet.yml", ks)
}

// Four validators of the privnet config make blocks all four chains
// accept (each verifies the M-of-N witness) with identical hashes; the
// proposal carries pool transactions, one backup lacks them and gets
// them through RequestTx and VerifyTx.
func TestFourValidatorsProduceBlocks(t *testing.T) {
	n := fourValidators(t)
	ks, _ := validatorKeys()
	var txs []*transaction.Transaction
	for i := range 3 {
		txs = append(txs, n.bftTransfer(uint32(i), ks))
	}
	// Block 1's primary is validator 1; validator 2 (a backup) has an empty pool.
	for _, nd := range n.nodes {
		if nd.validatorIndex() != 2 {
			nd.pool.add(txs...)
		}
	}
	n.startAll()
	const height = 5
	n.waitHeight(height, 20*time.Second)
	for _, nd := range n.nodes {
		nd.stop()
	}
	n.requireSameChains(height)

	b1, err := n.nodes[0].chain.GetBlockByIndex(1)
	require.NoError(t, err)
	require.Len(t, b1.Transactions, len(txs))
	for i, tx := range txs {
		require.Equal(t, tx.Hash(), b1.Transactions[i].Hash())
	}
	require.Equal(t, uint8(1), b1.PrimaryIndex)
	for h := uint32(1); h <= height; h++ {
		b, err := n.nodes[0].chain.GetBlockByIndex(h)
		require.NoError(t, err)
		prev, err := n.nodes[0].chain.GetBlockByIndex(h - 1)
		require.NoError(t, err)
		require.Greater(t, b.Timestamp, prev.Timestamp)
		require.Equal(t, prev.NextConsensus, b.NextConsensus, "validators do not change without votes")
		require.Len(t, b.Witness.InvocationScript, 3*invocationSize, "M signatures")
	}
}

// A silent primary is replaced: the block is made in view 1 by the next
// primary, and the network goes on once the node talks again.
func TestViewChangeWhenPrimarySilent(t *testing.T) {
	n := fourValidators(t)
	n.startAll()
	n.waitHeight(1, 10*time.Second)
	var mute *testNode
	// Mute the primary of the first height not being agreed yet.
	for mute == nil {
		h := n.nodes[0].chain.BlockHeight() + 2
		for _, nd := range n.nodes {
			if uint32(nd.validatorIndex()) == h%4 {
				mute = nd
			}
		}
		nd := mute
		nd.muted.Store(true)
		if n.nodes[0].chain.BlockHeight()+2 != h {
			nd.muted.Store(false) // raced with a block: try again
			mute = nil
			continue
		}
		var others []*testNode
		for _, o := range n.nodes {
			if o != nd {
				others = append(others, o)
			}
		}
		n.waitHeight(h, 20*time.Second, others...)
		b, err := others[0].chain.GetBlockByIndex(h)
		require.NoError(t, err)
		require.NotEqual(t, h%4, uint32(b.PrimaryIndex), "made by the silent primary")
		require.Equal(t, (h+3)%4, uint32(b.PrimaryIndex), "view 1 primary")
		for _, o := range others {
			require.GreaterOrEqual(t, o.metric("n3d_consensus_view_changes_total"), 1.0, o.name)
		}
		nd.muted.Store(false)
		n.waitHeight(h+2, 20*time.Second)
		n.requireSameChains(h + 2)
	}
}

// A validator stopped while the others go on, then restarted when the
// network cannot make blocks without it, rejoins the round in progress
// (change views, recovery) and blocks resume.
func TestRestartedNodeRecovers(t *testing.T) {
	n := fourValidators(t)
	n.startAll()
	n.waitHeight(2, 10*time.Second)
	a, b := n.nodes[3], n.nodes[2]
	a.stop()
	live := n.nodes[:3]
	h := live[0].chain.BlockHeight()
	n.waitHeight(h+2, 20*time.Second, live...)
	mark := n.logLen()
	b.stop()
	live = []*testNode{n.nodes[0], n.nodes[1]}
	// Two of four cannot agree: wait until both timed out in their round
	// (asked for a change view or for recovery).
	for _, nd := range live {
		n.waitSentAfter(nd, mark, func(p *Payload) bool {
			return p.Msg.BlockIndex > nd.chain.BlockHeight() &&
				(p.Msg.Type == ChangeViewType || p.Msg.Type == RecoveryRequestType)
		})
	}
	a.syncFrom(n.nodes[0])
	stalled := n.nodes[0].chain.BlockHeight()
	a.start()
	live = append(live, a)
	n.waitHeight(stalled+2, 30*time.Second, live...)
	n.requireSameChains(stalled+2, live...)
	// With two of four validators silent the others ask for recovery
	// rather than for a view change; the restarted node answers with
	// recovery messages and is answered with them.
	t.Logf("change views %d, recovery requests %d, recovery messages %d", n.sentCount(ChangeViewType),
		n.sentCount(RecoveryRequestType), n.sentCount(RecoveryMessageType))
	require.Positive(t, n.sentCount(RecoveryMessageType))
}

// A single validator (config/protocol.privnet.single.yml, what `make run`
// starts) makes blocks alone.
func TestSingleValidatorProducesBlocks(t *testing.T) {
	ks, err := validatorKeys()
	require.NoError(t, err)
	n := newTestNet(t, "protocol.privnet.single.yml", []*keys.PrivateKey{ks[0]})
	tx := n.bftTransfer(7, ks[:1])
	n.nodes[0].pool.add(tx)
	n.startAll()
	n.waitHeight(3, 10*time.Second)
	n.nodes[0].stop()
	b1, err := n.nodes[0].chain.GetBlockByIndex(1)
	require.NoError(t, err)
	require.Len(t, b1.Transactions, 1)
	require.Equal(t, tx.Hash(), b1.Transactions[0].Hash())
	require.Len(t, b1.Witness.InvocationScript, invocationSize)
}

// With MaxTimePerBlock (neo-go's dynamic block time) the primary waits
// for a transaction instead of making empty blocks every TimePerBlock;
// a mempool notification makes it propose at once. (dBFT proposes at
// once on start, as neo-go does.)
//
// The test steps a fake clock: after block 1 the primary's timer fires
// once (TimePerBlock), finds no transaction and waits for one up to
// MaxTimePerBlock; five more block times pass without a block.
func TestMaxTimePerBlockWaitsForTransactions(t *testing.T) {
	ks, err := validatorKeys()
	require.NoError(t, err)
	n := newTestNet(t, "protocol.privnet.single.yml", []*keys.PrivateKey{ks[0]})
	clock := newFakeClock(time.Now())
	n.clock = clock
	nd := n.nodes[0]
	cfg := nd.config()
	cfg.Protocol.MaxTimePerBlock = time.Minute
	nd.startWith(cfg)
	n.waitHeight(1, 5*time.Second)
	// Fire the round timer (there is one pending at a time) until it
	// waits for the rest of MaxTimePerBlock: the timer of height 2 has
	// fired and found no transaction.
	for i := 0; clock.pendingAfter(10*testTimePerBlock) == 0; i++ {
		require.Less(t, i, 10, "the primary does not wait for transactions")
		clock.waitPending(t, 1, 0)
		clock.Advance(testTimePerBlock)
	}
	clock.Advance(5 * testTimePerBlock)
	require.Equal(t, uint32(1), nd.chain.BlockHeight(), "no block without transactions")
	tx := n.bftTransfer(1, ks[:1])
	nd.pool.add(tx)
	nd.svc().NotifyPoolTransaction()
	n.waitHeight(2, 5*time.Second)
	b, err := nd.chain.GetBlockByIndex(2)
	require.NoError(t, err)
	require.Len(t, b.Transactions, 1)
	require.Equal(t, tx.Hash(), b.Transactions[0].Hash())
}
