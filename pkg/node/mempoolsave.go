package node

import (
	"fmt"

	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/mempool"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/core/txpipe"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// savedPoolName is the saved pool's file suffix next to the database.
const savedPoolName = "mempool"

// savedPoolPath is the saved pool's file for the node's configuration: ""
// when MempoolPersistence is disabled or the database is in memory.
func (n *Node) savedPoolPath() string {
	a := n.cfg.ApplicationConfiguration
	if a.MempoolPersistence.Disabled {
		return ""
	}
	db := a.DBConfiguration
	return storage.SidecarPath(storage.DBConfiguration{Type: db.Type,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: db.LevelDBOptions.DataDirectoryPath},
		BoltDBOptions:  storage.BoltDBOptions{FilePath: db.BoltDBOptions.FilePath}}, savedPoolName)
}

// journaledPool is the pool as the ingress pipeline adds to it: an
// accepted transaction is staged in the saved pool as it is pooled, and
// written (flushSaved, one write for all staged so far) before RPC's
// sendrawtransaction reports it accepted and before it is announced. A
// transaction that cannot be staged is refused (ErrStorage) and leaves the
// pool: nothing is reported accepted that a restart would lose.
type journaledPool struct {
	*mempool.Pool
	j   *mempool.Journal
	log *zap.Logger
}

func (p journaledPool) Add(tx *transaction.Transaction, verifiedAt uint32) error {
	if err := p.Pool.Add(tx, verifiedAt); err != nil {
		return err
	}
	if err := p.j.Stage(tx); err != nil {
		p.Pool.Remove(tx.Hash())
		return fmt.Errorf("%w: transaction not saved: %w", chain.ErrStorage, err)
	}
	return nil
}

// flushSaved writes the transactions staged in the saved pool (nothing
// without one). On a failure the transactions stay pooled and staged, and
// the next flush tries them again; the caller reports it (SubmitTx to its
// client, the relay path in the log).
func (n *Node) flushSaved() error {
	if n.saved == nil {
		return nil
	}
	return n.saved.Flush()
}

// openSavedPool opens the saved pool of the configuration (none: nil
// pipeline pool wrapper, a no-op stop), puts its transactions still valid
// back into pool (verified against the chain; the others are dropped) and
// keeps the file in step with pool. It returns the pool the pipeline must
// add to, the hashes to announce once P2P runs, and the stop that saves
// the pool's transactions and closes the file (after the pipeline has
// stopped). An unreadable or unwritable file is a start-up error.
func (n *Node) openSavedPool(pool *mempool.Pool) (txpipe.Pool, []util.Uint256, func() error, error) {
	path := n.savedPoolPath()
	if path == "" {
		return pool, nil, func() error { return nil }, nil
	}
	log := n.log.Named("mempool")
	maxTx := n.cfg.ApplicationConfiguration.MempoolPersistence.MaxTransactions
	if maxTx <= 0 {
		maxTx = n.cfg.ProtocolConfiguration.MemPoolSize
	}
	j, saved, err := mempool.OpenJournal(mempool.JournalConfig{Path: path, MaxTransactions: maxTx, Log: log})
	if err != nil {
		return nil, nil, nil, fmt.Errorf("mempool: %w", err)
	}
	c := n.chain
	added, dropped := mempool.Reload(pool, saved, func(tx *transaction.Transaction) (uint32, error) {
		h := c.BlockHeight()
		return h, c.VerifyTxConcurrent(tx)
	})
	log.Info("saved pool reloaded", zap.String("path", path), zap.Int("pooled", len(added)), zap.Int("dropped", dropped))
	hashes := make([]util.Uint256, len(added))
	for i, tx := range added {
		hashes[i] = tx.Hash()
	}
	stopFollow := j.Follow(pool)
	stop := func() error {
		stopFollow()
		if err := j.Close(pool.GetVerifiedTransactions()); err != nil {
			return fmt.Errorf("saving the pool: %w", err)
		}
		return nil
	}
	n.saved = j
	return journaledPool{Pool: pool, j: j, log: log}, hashes, stop, nil
}

// announceReloaded announces the transactions the saved pool put back
// (once the P2P server runs; nothing without it).
func (n *Node) announceReloaded(hashes []util.Uint256) {
	if srv := n.p2p.Load(); srv != nil && len(hashes) != 0 {
		srv.AnnounceTxs(hashes)
	}
}
