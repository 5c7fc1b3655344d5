package node

import (
	"github.com/n3d-io/n3d/pkg/network"
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
