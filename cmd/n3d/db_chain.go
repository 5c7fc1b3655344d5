package main

import (
	"github.com/n3d-io/n3d/pkg/config"
	"github.com/n3d-io/n3d/pkg/core/chain"
	"github.com/n3d-io/n3d/pkg/node"
	"go.uber.org/zap"
)

// openChain opens the configured database and the chain in it (the db
// commands; `n3d node` opens it through node.New).
func openChain(cfg config.Config, log *zap.Logger, onChanges func(uint32, []chain.StorageChange)) (*chain.Chain, error) {
	return node.OpenChain(cfg, log, onChanges)
}
