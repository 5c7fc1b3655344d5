package node

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/core/block"
	"github.com/n3d-io/n3d/pkg/core/blockqueue"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/util"
	"go.uber.org/zap"
)

// syncModule is the chain's state synchronisation module
// (chain.StateSync) as the node drives it through the network server.
type syncModule interface {
	IsInitialized() bool
	Init(peerHeight uint32) error
	IsActive() bool
	SyncPoint() uint32
	NeedHeaders() bool
	HeaderHeight() uint32
	AddHeaders(hdrs ...*block.Header) error
	NeedMPTNodes() bool
	UnknownMPTNodes(limit int) []util.Uint256
	MissingMPTNodes() int
	AddMPTNodes(nodes [][]byte) error
	NeedBlocks() bool
	// BlockRange is the indexes of the window blocks still to store
	// (from..to); ok is false outside the blocks stage.
	BlockRange() (from, to uint32, ok bool)
	AddBlock(b *block.Block) error
}

// syncAdapter fits the chain's module to network.StateSync and, for the
// block queue ordering the window's blocks, to blockqueue.Ledger.
type syncAdapter struct{ syncModule }

var (
	_ network.StateSync = syncAdapter{}
	_ blockqueue.Ledger = syncAdapter{}
)

// AddHeaders implements network.StateSync.
func (a syncAdapter) AddHeaders(hs []*block.Header) error { return a.syncModule.AddHeaders(hs...) }

// BlockHeight is the last window block stored: the one below the range
// still to store; outside the blocks stage the sync point, so that no
// window block is requested or queued.
func (a syncAdapter) BlockHeight() uint32 {
	from, _, ok := a.BlockRange()
	if !ok {
		return a.SyncPoint()
	}
	return from - 1
}

// stateExchange is the P2P state exchange of a node whose network has
// P2PStateExchangeExtensions: it serves getmptdata from the chain's state
// trie and, when mod is not nil, synchronises the state from peers when
// the node starts far behind them (the blocks of the window go through a
// block queue of their own, whose Run the caller starts). Nil when the
// extension is off.
func (n *Node) stateExchange(mod syncModule, log *zap.Logger) (*network.StateExchangeConfig, *blockqueue.Queue, error) {
	if !n.cfg.ProtocolConfiguration.P2PStateExchangeExtensions {
		return nil, nil, nil
	}
	se := &network.StateExchangeConfig{WalkNodes: n.chain.WalkStateNodes}
	if mod == nil {
		return se, nil, nil
	}
	a := syncAdapter{mod}
	q, err := blockqueue.New(blockqueue.Config{Ledger: a, Log: log})
	if err != nil {
		return nil, nil, err
	}
	se.Sync, se.Blocks, se.OnFailed = a, q, n.stateSyncFatal
	return se, q, nil
}

// stateSyncFatal: the state sync cannot start (the database must be
// dropped, or the store failed); the node stops as on a chain failure.
func (n *Node) stateSyncFatal(err error) {
	select {
	case n.fatal <- fmt.Errorf("node: %w", err):
	default:
	}
}

// stateRootAt gives consensus the local state root after a block (the
// previous state root its proposals and blocks carry with
// StateRootInHeader).
func stateRootAt(c *chain.Chain) func(uint32) (util.Uint256, error) {
	return func(index uint32) (util.Uint256, error) {
		sr, err := c.StateRoot(index)
		if err != nil {
			return util.Uint256{}, err
		}
		return sr.Root, nil
	}
}

// syncModule is the chain's state synchronisation module (inactive from
// the start unless RemoveUntraceableBlocks is on too, as in neo-go).
func (n *Node) syncModule() syncModule { return n.chain.StateSync() }
