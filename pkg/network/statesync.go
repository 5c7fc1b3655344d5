package network

import (
	"errors"
	"fmt"

	"github.com/n3d-io/n3d/pkg/io"
	"github.com/n3d-io/n3d/pkg/mpt"
	"github.com/n3d-io/n3d/pkg/network/message"
	"github.com/n3d-io/n3d/pkg/network/payload"
	"github.com/n3d-io/n3d/pkg/util"
)

// StateExchangeConfig turns on neo-go's P2PStateExchangeExtensions: peers
// may ask for state trie nodes (getmptdata) and send them (mptdata).
type StateExchangeConfig struct {
	// WalkNodes walks the stored trie nodes under a node hash depth first
	// (mpt.Walk over the chain's trie, chain.WalkStateNodes); required.
	WalkNodes func(h util.Uint256, visit func(h util.Uint256, enc []byte) mpt.WalkAction) error
	// Sync is the chain's state synchronisation (statesync_client.go):
	// while it is active the server fetches headers, MPT nodes and the
	// window's blocks for it instead of syncing blocks. Nil: the node only
	// serves; mptdata and headers from peers are dropped.
	Sync StateSync
	// Blocks takes the blocks of the window below the sync point (a block
	// queue feeding the module's AddBlock in order); required with Sync.
	Blocks BlockSink
	// OnFailed is told when Sync cannot start (Init failed: the database
	// must be dropped, or the store failed); the node cannot synchronise
	// and should stop, as neo-go does. Optional.
	OnFailed func(error)
}

// errStateExchangeOff is a state exchange message on a node without the
// extension: the sender is dropped, as neo-go does.
var errStateExchangeOff = errors.New("network: state exchange message, but P2PStateExchangeExtensions are off")

// mptReplyBudget is what an mptdata may hold: the payload limit less the
// node count's var-int.
const mptReplyBudget = message.PayloadMaxSize - 9

// handleGetMPTData answers with the nodes under each requested hash, depth
// first and without repeats, as many as fit one message (neo-go's order and
// limit). Hashes we do not have end the walk with an error: the peer asked
// for a state we do not keep, and is dropped as neo-go does.
func (s *Server) handleGetMPTData(p *peer, inv *payload.MPTInventory) error {
	se := s.cfg.StateExchange
	if se == nil {
		return errStateExchangeOff
	}
	var reply payload.MPTData
	left := mptReplyBudget
	added := make(map[util.Uint256]struct{})
	for _, h := range inv.Hashes {
		if left <= 2 {
			break
		}
		err := se.WalkNodes(h, func(h util.Uint256, enc []byte) mpt.WalkAction {
			if _, ok := added[h]; ok {
				return mpt.WalkSkip
			}
			size := io.GetVarSize(len(enc)) + len(enc)
			if size > left {
				return mpt.WalkStop
			}
			reply.Nodes = append(reply.Nodes, append([]byte(nil), enc...))
			added[h] = struct{}{}
			left -= size
			return mpt.WalkOn
		})
		if errors.Is(err, mpt.ErrMissingNode) {
			// A state we do not keep (neo-go counts it like an
			// early extensible, tolerance.go).
			return fmt.Errorf("%w: getmptdata %s: %w", errTolerated, h.String(), err)
		}
		if err != nil {
			return fmt.Errorf("network: getmptdata %s: %w", h.String(), err)
		}
	}
	if len(reply.Nodes) == 0 {
		return nil
	}
	return p.sendNew(qDirect, message.CmdMPTData, &reply)
}

// handleMPTData passes received nodes to the state sync, if one runs.
func (s *Server) handleMPTData(p *peer, d *payload.MPTData) error {
	if s.cfg.StateExchange == nil {
		return errStateExchangeOff
	}
	if s.ssync == nil {
		return nil
	}
	return s.ssync.onMPTData(p, d.Nodes)
}

// handleHeaders passes headers to the state sync while it needs them;
// otherwise they are ignored (blocks are synchronised whole).
func (s *Server) handleHeaders(p *peer, h *payload.Headers) error {
	if s.ssync == nil {
		return nil
	}
	return s.ssync.onHeaders(p, h.Headers)
}
