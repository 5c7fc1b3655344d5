package node

import (
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/network"
	"github.com/n3d-io/n3d/pkg/util"
)

// stateExchange is the P2P state exchange of a node whose network has
// P2PStateExchangeExtensions: it serves getmptdata from the chain's state
// trie. Synchronising state itself (the receiving side) is not wired yet:
// mptdata from peers is dropped. Nil when the extension is off.
func (n *Node) stateExchange() *network.StateExchangeConfig {
	if !n.cfg.ProtocolConfiguration.P2PStateExchangeExtensions {
		return nil
	}
	return &network.StateExchangeConfig{WalkNodes: n.chain.WalkStateNodes}
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
