package node

import (
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"go.uber.org/zap"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/core/transaction"
	"github.com/n3d-io/n3d/pkg/storage"
	"github.com/n3d-io/n3d/pkg/util"
)

// OpenChain opens the database cfg names and the chain in it, with the
// network's native contracts. onChanges, when set, receives each stored
// block's storage changes. The db commands of cmd/n3d use it; a node opens
// its chain in New.
func OpenChain(cfg config.Config, log *zap.Logger, onChanges func(uint32, []chain.StorageChange)) (*chain.Chain, error) {
	return openChain(cfg, log, nil, nil, onChanges, nil, nil)
}

// OpenChainOn is OpenChain on st instead of the database cfg names (the
// chain closes st): `db restore` opens the configured database itself,
// tuned for a batch job (StoreConfig, then a smaller memtable).
func OpenChainOn(cfg config.Config, log *zap.Logger, st storage.Store, onChanges func(uint32, []chain.StorageChange)) (*chain.Chain, error) {
	return openChain(cfg, log, st, nil, onChanges, nil, nil)
}

// openChain opens the chain on st, or on the configured database when st
// is nil; its metrics go to reg (nil: the default registry); onFatal
// receives a failure the chain cannot continue after (chain.ErrBroken);
// pooled is chain.Config.Pooled (the node's memory pool, nil without one).
func openChain(cfg config.Config, log *zap.Logger, st storage.Store, reg prometheus.Registerer,
	onChanges func(uint32, []chain.StorageChange), onFatal func(error),
	pooled func(util.Uint256) (*transaction.Transaction, bool)) (*chain.Chain, error) {
	natives, err := chain.NewNativeSet(&cfg.ProtocolConfiguration)
	if err != nil {
		return nil, err
	}
	if st == nil {
		if st, err = openStore(cfg.ApplicationConfiguration.DBConfiguration); err != nil {
			return nil, err
		}
	}
	c, err := chain.Open(chain.Config{
		Protocol:         cfg.ProtocolConfiguration,
		Ledger:           cfg.ApplicationConfiguration.Ledger,
		Store:            st,
		Log:              log,
		Natives:          natives,
		OnStorageChanges: onChanges,
		Registerer:       reg,
		OnFatal:          onFatal,
		Pooled:           pooled,
	})
	if err != nil {
		return nil, err // Open closed the store
	}
	return c, nil
}

// openStore opens the database of the DBConfiguration section.
func openStore(db config.DBConfiguration) (storage.Store, error) {
	st, err := storage.New(StoreConfig(db))
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	return st, nil
}

// StoreConfig is the storage configuration of the DBConfiguration section.
func StoreConfig(db config.DBConfiguration) storage.DBConfiguration {
	return storage.DBConfiguration{
		Type:           db.Type,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: db.LevelDBOptions.DataDirectoryPath, ReadOnly: db.LevelDBOptions.ReadOnly},
		BoltDBOptions:  storage.BoltDBOptions{FilePath: db.BoltDBOptions.FilePath, ReadOnly: db.BoltDBOptions.ReadOnly},
	}
}
