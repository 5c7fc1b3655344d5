package consensus

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/crypto/keys"
	"github.com/n3d-io/n3d/pkg/network/payload"
)

// A proposal that arrives after its block reached the chain (the block
// came from the network first, the service has not looked at the chain
// since) is stale: the backup must not verify it against a chain that
// already has the block and ask for a view change (TxInvalid), which is
// what it did before catching up with the chain ahead of every message.
func TestProposalForBlockInChainIsStale(t *testing.T) {
	n := fourValidators(t)
	n.startAll()
	n.waitHeight(2, 20*time.Second)
	for _, nd := range n.nodes {
		nd.stop()
	}
	src := n.nodes[0]
	vals, err := src.nextBlockValidators()
	require.NoError(t, err)
	all, err := validatorKeys()
	require.NoError(t, err)
	keyOf := func(i int) *keys.PrivateKey {
		for _, k := range all {
			if k.PublicKey().Equal(vals[i]) {
				return k
			}
		}
		t.Fatalf("no key for validator %d", i)
		return nil
	}
	blockAt := func(h uint32) *block.Block {
		b, err := src.chain.GetBlockByIndex(h)
		require.NoError(t, err)
		cp, err := block.NewBlockFromBytes(encode(t, b))
		require.NoError(t, err)
		return cp
	}
	signed := func(from int, msg Message) *payload.Extensible {
		msg.ValidatorIndex = byte(from)
		p := NewPayload(uint32(n.cfg.ProtocolConfiguration.Magic), msg)
		p.Sign(keyOf(from))
		e := p.Extensible
		return &e
	}

	// Validator 0 at height 1; 2 is the primary of height 2, view 0; 3's
	// recovery requests are answered by 0 (next in the F+1 range).
	late := n.newNode("late", keyOf(0))
	require.NoError(t, late.chain.AddBlock(blockAt(1)))
	sent := make(chan *Payload, 100)
	cfg := late.config()
	cfg.TimePerBlock = func() time.Duration { return time.Hour } // no timer fires
	cfg.Broadcast = func(e *payload.Extensible) {
		p, err := PayloadFromExtensible(uint32(cfg.Protocol.Magic), e)
		if err != nil {
			t.Errorf("own payload: %v", err)
			return
		}
		sent <- p
	}
	late.startWith(cfg)
	svc := late.svc()
	// barrier asks for recovery at height h and waits for the answer:
	// every payload queued before has been handled by then.
	barrier := func(h uint32) {
		rr := signed(3, Message{Type: RecoveryRequestType, BlockIndex: h,
			Body: &RecoveryRequest{TimestampMS: uint64(time.Now().UnixMilli())}})
		require.Eventually(t, func() bool { return svc.OnPayload(rr) == nil }, 5*time.Second, time.Millisecond)
		for p := range sent {
			require.NotEqual(t, ChangeViewType, p.Msg.Type, "change view at height %d", p.Msg.BlockIndex)
			if p.Msg.Type == RecoveryMessageType && p.Msg.BlockIndex == h {
				return
			}
		}
	}
	barrier(2) // the service runs its round for height 2

	b2 := blockAt(2)
	require.NoError(t, late.chain.AddBlock(b2)) // no NotifyBlock: it arrived "just now"
	prev := blockAt(1)
	req := signed(2, Message{Type: PrepareRequestType, BlockIndex: 2, Body: &PrepareRequest{
		PrevHash: prev.Hash(), TimestampMS: prev.Timestamp + 1, NonceValue: 7}})
	require.NoError(t, svc.OnPayload(req))
	barrier(3)
}
