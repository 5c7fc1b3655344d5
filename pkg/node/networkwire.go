package node

import (
	"errors"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/internal/promutil"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
	"github.com/n3d-io/n3d/pkg/network"
)

// txResendThreshold is the P2P server's TxResendThreshold for a network
// of validators validators: twice their number, at least
// network.DefaultTxResendThreshold (neo-go's rule: a transaction waits
// about one full rotation of primaries before it is announced again).
func txResendThreshold(validators int) int {
	return max(network.DefaultTxResendThreshold, 2*validators)
}

// wireNetwork completes the P2P server's Config with the node's metrics
// registerer, the transaction resend age, and the consensus notification
// of completed handshakes. It returns what the peers' transaction handler
// calls with the pipeline's answer: a full queue (txpipe.ErrQueueFull: the
// peer's queue or the pipeline's backlog) is counted in
// n3d_node_peer_tx_dropped_total and logged at debug level; the other
// refusals (a known transaction, a stopped pipeline) are expected.
func (n *Node) wireNetwork(cfg *network.Config) (submitted func(error), err error) {
	cfg.Registerer = n.reg
	c := n.chain
	cfg.TxResendThreshold = txResendThreshold(n.cfg.ProtocolConfiguration.ValidatorsCountAt(c.BlockHeight()))
	cfg.OnHandshake = n.notifyConsensusPeer
	m := promutil.NewSet(n.reg, "node")
	dropped := m.Counter("peer_tx_dropped_total",
		"Transactions from peers dropped because the ingress pipeline's queue was full.")
	if err := m.Err(); err != nil {
		return nil, err
	}
	log := n.log.Named("p2p")
	return func(err error) {
		if errors.Is(err, txpipe.ErrQueueFull) {
			dropped.Inc()
			log.Debug("peer transaction dropped", zap.Error(err))
		}
	}, nil
}
