package node

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/consensus"
	"go.uber.org/zap"
)

// signLogSuffix names the consensus sign log: it lives next to the chain
// database, so it is per node and survives restarts with the chain.
const signLogSuffix = ".signlog"

// signLogPath is the sign log's path for the database section: the
// LevelDB directory or the BoltDB file with signLogSuffix; "" for the
// in-memory database. An in-memory chain starts from genesis on every
// start, so there is no earlier round of its to keep: such a node runs
// without a sign log (test networks and single-validator demos only).
// The path follows the configuration even when WithStore replaces the
// database.
func signLogPath(db config.DBConfiguration) string {
	switch db.Type {
	case config.DBLevelDB:
		return db.LevelDBOptions.DataDirectoryPath + signLogSuffix
	case config.DBBoltDB:
		return db.BoltDBOptions.FilePath + signLogSuffix
	default:
		return ""
	}
}

// wireConsensusState completes the dBFT service's Config with what makes a
// validator safe across restarts and at start-up (docs/consensus.md,
// "Consensus state on disk", "Start: the first round waits for peers"):
// the sign log, opened here (an error is a start-up error: a validator
// must not run without it) and closed by a stage of its own after the
// consensus stage has stopped; the handshaked peer count of the P2P
// server; the P2P section's MinPeers (0: the consensus default, M-1);
// and the node's metrics registerer.
func (n *Node) wireConsensusState(cfg *consensus.Config) error {
	cfg.Registerer = n.reg
	cfg.MinPeers = n.cfg.ApplicationConfiguration.P2P.MinPeers
	cfg.ConnectedPeers = func() int {
		if srv := n.p2p.Load(); srv != nil {
			_, handshaked := srv.PeerCount()
			return handshaked
		}
		return 0
	}
	path := signLogPath(n.cfg.ApplicationConfiguration.DBConfiguration)
	if path == "" {
		n.log.Info("consensus runs without a sign log (in-memory database)")
		return nil
	}
	sl, err := consensus.OpenSignLog(path)
	if err != nil {
		return fmt.Errorf("consensus: %w", err)
	}
	cfg.SignLog = sl
	// Added before the consensus stage, so stopped after it.
	n.st.add("signlog", sl.Close)
	n.log.Info("consensus sign log opened", zap.String("path", path))
	return nil
}

// notifyConsensusPeer tells the consensus service (when there is one) that
// a peer completed its handshake: the first round's wait for peers ends
// sooner than its poll.
func (n *Node) notifyConsensusPeer() {
	if n.cons != nil {
		n.cons.NotifyPeers()
	}
}
