package main

import (
	"fmt"

	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/storage"
	"go.uber.org/zap"
)

// openChain opens the configured database and the chain in it.
func openChain(cfg config.Config, log *zap.Logger, onChanges func(uint32, []chain.StorageChange)) (*chain.Chain, error) {
	natives, err := newNatives(&cfg.ProtocolConfiguration)
	if err != nil {
		return nil, err
	}
	db := cfg.ApplicationConfiguration.DBConfiguration
	st, err := storage.New(storage.DBConfiguration{
		Type:           db.Type,
		LevelDBOptions: storage.LevelDBOptions{DataDirectoryPath: db.LevelDBOptions.DataDirectoryPath, ReadOnly: db.LevelDBOptions.ReadOnly},
		BoltDBOptions:  storage.BoltDBOptions{FilePath: db.BoltDBOptions.FilePath, ReadOnly: db.BoltDBOptions.ReadOnly},
	})
	if err != nil {
		return nil, fmt.Errorf("database: %w", err)
	}
	c, err := chain.Open(chain.Config{
		Protocol:         cfg.ProtocolConfiguration,
		Ledger:           cfg.ApplicationConfiguration.Ledger,
		Store:            st,
		Log:              log,
		Natives:          natives,
		OnStorageChanges: onChanges,
	})
	if err != nil {
		return nil, err // Open closed the store
	}
	return c, nil
}

// newNatives builds the native contract set of the network.
func newNatives(p *config.ProtocolConfiguration) (chain.Natives, error) {
	return chain.NewNativeSet(p)
}
