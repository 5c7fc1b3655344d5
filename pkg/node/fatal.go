package node

import (
	"fmt"

	"go.uber.org/zap"
)

// chainFatal is the chain's OnFatal: a block failed after reaching the
// chain's write cache (chain.ErrBroken), so the chain accepts nothing
// more. It runs under the chain's block lock: it only logs and hands the
// error to Fatal's channel (once; it never blocks).
func (n *Node) chainFatal(err error) {
	n.log.Error("the chain cannot continue, the node must stop (a restart recovers from the block log)", zap.Error(err))
	select {
	case n.fatal <- fmt.Errorf("node: chain stopped: %w", err):
	default:
	}
}

// Fatal receives the error that stopped the chain for good (at most
// one): the node must then be stopped and the process exit non-zero; a
// restart recovers from the block log. Run does so itself; a program
// using Start and Stop selects on it beside its own signals.
func (n *Node) Fatal() <-chan error { return n.fatal }
